/**
 * Which agent events a host emits: rc.8 emits `agent/created`, then
 * `agent/session-start`; another host may emit only the first. On a real
 * host, with the second suppressed where the host dispatches it, an agent is
 * still tracked once, restricted once, and sees the right tools from its very
 * first view; with both emitted it is tracked and restricted once as well.
 * A host that says the session was resumed (`agent/created` carrying
 * `source: 'resume'`, with or without `agent/session-start {source:
 * 'resume'}`) gets the same: one restriction per agent.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { mcpToolNames } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { projectWith, type RuntimeWorld, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeProject } from '../support/tmp.ts'

after(() => cleanupAll())

type Dispatch = (type: string, args: unknown[]) => unknown[]

/**
 * Drop `name` where the host dispatches agent events (`ctx.events.dispatch('emit', [carrier, name, payload])`);
 * with `source`, every `agent/created` and `agent/session-start` payload carries it. Counts what it dropped and
 * what it let through.
 */
function suppress(
  w: RuntimeWorld,
  name: string | undefined,
  source?: string,
): { dropped: () => number; delivered: (event: string) => number; sources: string[] } {
  const events = (w.host.ctx as unknown as { events: { dispatch: Dispatch } }).events
  const original = events.dispatch
  let dropped = 0
  const delivered = new Map<string, number>()
  const sources: string[] = []
  events.dispatch = function (this: unknown, type, args) {
    const event = String(args?.[1])
    if (type === 'emit' && name !== undefined && event === name) {
      dropped++
      return []
    }
    if (type === 'emit' && source !== undefined && (event === 'agent/created' || event === 'agent/session-start')) {
      // The host calls each listener with this same args array: the payload object is what listeners get.
      const payload = args[2] as { source?: string }
      payload.source = source
      sources.push(`${event}:${payload.source}`)
    }
    if (type === 'emit' && event.startsWith('agent/')) delivered.set(event, (delivered.get(event) ?? 0) + 1)
    return original.call(this, type, args)
  }
  return { dropped: () => dropped, delivered: (event) => delivered.get(event) ?? 0, sources }
}

/** Count `restrict` calls on the host's tool runtime (every `agent.ctx.tools.restrict` reaches it). */
function countRestricts(w: RuntimeWorld): () => number {
  const tools = w.host.ctx.get('tools') as unknown as { restrict: (...a: unknown[]) => unknown }
  const original = tools.restrict
  let n = 0
  tools.restrict = function (this: unknown, ...a: unknown[]) {
    n++
    return original.apply(this, a)
  }
  return () => n
}

const joined = (w: RuntimeWorld, agent: Agent) => w.host.logsMatching(`agent ${agent.id} joined project`).length

/**
 * Project F has a mounted server; an agent of project Q (no servers) must be
 * denied F's tool from its first view — exactly one restriction — and nothing
 * later needs another one.
 */
async function scenario(t: { after(fn: () => unknown): void }, drop: string | undefined, source?: string) {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const events = suppress(w, drop, source)
  const f = projectWith({ fsrv: stdioEntry('fsrv', { tools: ['f1'], pidfileDir: w.pids }) })
  const fAgent = (await w.host.createAgent({ cwd: f.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, fAgent), ['mcp__fsrv__f1'])

  const restricts = countRestricts(w)
  const q = makeProject({})
  const qAgent = (await w.host.createAgent({ cwd: q.path })).agent
  assert.deepEqual(mcpToolNames(w.host.ctx, qAgent), [], 'the first view of a Q agent holds no tool of F')
  assert.equal(restricts(), 1, 'restricted once, at creation')
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, qAgent), [])
  assert.deepEqual(mcpToolNames(w.host.ctx, fAgent), ['mcp__fsrv__f1'])
  assert.equal(restricts(), 1, 'and never again')
  assert.equal(joined(w, qAgent), 1, 'tracked once')
  assert.equal(joined(w, fAgent), 1)
  return events
}

test('a host that emits agent/created only: each agent is tracked and restricted once, its first view right', async (t) => {
  const events = await scenario(t, 'agent/session-start')
  assert.ok(events.dropped() >= 2, 'the host did try to emit agent/session-start (and it was dropped)')
  assert.equal(events.delivered('agent/session-start'), 0)
  assert.ok(events.delivered('agent/created') >= 2)
})

test('a host that emits both (rc.8): each agent is tracked and restricted once', async (t) => {
  const events = await scenario(t, undefined)
  assert.ok(events.delivered('agent/created') >= 2)
  assert.ok(events.delivered('agent/session-start') >= 2, 'rc.8 emits agent/session-start after agent/created')
})

test("a resumed session (agent/created carries source: 'resume', then agent/session-start): restricted exactly once", async (t) => {
  const events = await scenario(t, undefined, 'resume')
  assert.ok(events.sources.includes('agent/created:resume'), `the host said resume: ${events.sources.join(', ')}`)
  assert.ok(events.sources.includes('agent/session-start:resume'))
})

test('a resumed session on a host without agent/session-start: restricted exactly once', async (t) => {
  const events = await scenario(t, 'agent/session-start', 'resume')
  assert.ok(events.sources.includes('agent/created:resume'))
  assert.equal(events.delivered('agent/session-start'), 0)
})
