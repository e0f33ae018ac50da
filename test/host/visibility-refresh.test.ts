/**
 * One config edit, one reconcile, one visibility pass (issue 23): on a real
 * host with real fixture servers and agents in two projects, an edit that
 * remounts a server (new arguments, a new tool) and an edit that only changes
 * a `tools` filter each run the reconcile once and re-derive the agents'
 * deny sets in one full pass — the mount, unmount, drain and settle signals
 * of that edit coalesce into it. Counted through `projectMcp.counters()`
 * (a debug hook), never timed. Each edit is also checked for what the agents
 * see: the other project's agent never sees the edited server's tools.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { mcpToolNames, waitFor } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

test('one edit runs one reconcile and one visibility refresh pass', async (t) => {
  const w = await startWorld({ debounceMs: 500 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const entry = (n: string, tools: string[], extra?: Record<string, unknown>) =>
    stdioEntry(n, { tools, pidfileDir: w.pids, ...(extra ? { extra } : {}) })
  const a = projectWith({ one: entry('one', ['x']), two: entry('two', ['t']) })
  const b = projectWith({ bee: entry('bee', ['b']) })
  const inA = (await w.host.createAgent({ cwd: a.path })).agent
  const inB = (await w.host.createAgent({ cwd: b.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, inA), ['mcp__one__x', 'mcp__two__t'])
  const file = a.join('.dsh', 'mcp.yml')
  const seen = () => mcpToolNames(w.host.ctx, inA)
  let foreign = 0
  const look = () => {
    if (mcpToolNames(w.host.ctx, inB).some((n) => n.startsWith('mcp__one__'))) foreign++
  }
  w.host.ctx.on('tools/change', look)

  // A remount: the old fork unmounts and drains, the new one mounts, registers and settles.
  const before = w.mcp.counters()
  writeFileSync(file, friendly({ one: entry('one', ['x', 'y']), two: entry('two', ['t']) }))
  await waitFor(() => seen().includes('mcp__one__y'), { ctx: w.host.ctx, events: ['tools/change'], message: 'y' })
  await w.mcp.whenIdle()
  const remount = w.mcp.counters()
  assert.equal(remount.reconciles - before.reconciles, 1, 'one reconcile for one edit')
  assert.equal(remount.refreshPasses - before.refreshPasses, 1, 'one visibility refresh pass for one edit')

  // A filter only: no mount moves, the view does.
  writeFileSync(
    file,
    friendly({ one: entry('one', ['x', 'y'], { tools: { exclude: ['x'] } }), two: entry('two', ['t']) }),
  )
  await waitFor(() => !seen().includes('mcp__one__x'), { message: 'x filtered out' })
  await w.mcp.whenIdle()
  const filtered = w.mcp.counters()
  assert.equal(filtered.reconciles - remount.reconciles, 1, 'one reconcile for one edit')
  assert.equal(filtered.refreshPasses - remount.refreshPasses, 1, 'one visibility refresh pass for one edit')
  assert.deepEqual(seen(), ['mcp__one__y', 'mcp__two__t'])
  assert.equal(foreign, 0, "the other project's agent never saw the edited server's tools")
})
