/**
 * Host lifecycle on a real host: the plugin disposed in the middle of a
 * reconcile (from inside it) and while its first mounts are in flight; the
 * plugin reloaded HMR-style (dispose + apply) 20 times with 3 servers and an
 * agent that outlives every generation — no leaked mcp-client fork,
 * inotify watch, child process, restriction or registry entry; and two host
 * contexts watching the same project both converge on an edit.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import type { Context } from '@deepseek-ai/cordis'
import { createHost, mcpClient, mcpToolNames, settles, toolNames, waitFor } from '../support/host.ts'
import { countLive, reapAll } from '../support/procs.ts'
import { friendly, plugin, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import type { ProjectMcp } from '../../src/index.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { childPids, inotifyWatches, trackRejections, untilTools } from '../support/faults.ts'

const rejections = trackRejections()
after(() => {
  cleanupAll()
  rejections.stop()
  assert.deepEqual(rejections.list.map(String), [], 'no unhandled rejection')
})

const clientFibers = (ctx: Context) => ctx.registry.get(mcpClient)?.fibers.length ?? 0

test('disposed from inside a reconcile (between unmount and mount): bounded, nothing mounted after, nothing left', async (t) => {
  const w = await startWorld({ trust: 'all', debounceMs: 20 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const entry = (n: string, initDelayMs?: number) =>
    stdioEntry(n, { tools: ['t'], pidfileDir: w.pids, ...(initDelayMs ? { initDelayMs } : {}) })
  const a = projectWith({ slow: entry('slow', 2000), one: entry('one') })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await untilTools(w, agent, ['mcp__one__t'], 'the fast server mounts')
  let stopping: Promise<void> | undefined
  let stoppedAt = 0
  w.host.ctx.logger.exporter({
    levels: { default: 3 },
    export(m) {
      if (stopping || !m.args.some((x) => String(x).includes('"slow"')) || !String(m.args[0]).startsWith('unmounted'))
        return
      stoppedAt = performance.now()
      stopping = w.stop()
    },
  })
  writeFileSync(a.join('.dsh', 'mcp.yml'), friendly({ one: entry('one'), two: entry('two') }))
  await waitFor(() => stopping !== undefined, { message: 'the reconcile reaches its unmount' })
  await settles(stopping!, 'the dispose started inside the reconcile')
  t.diagnostic(`dispose from inside the reconcile took ${Math.round(performance.now() - stoppedAt)} ms`)
  assert.equal(
    w.host.logsMatching('mounted "two"').length,
    0,
    'the interrupted reconcile mounts nothing after the dispose',
  )
  assert.deepEqual(mcpToolNames(w.host.ctx), [])
  await waitFor(() => countLive(w.pids) === 0 && clientFibers(w.host.ctx) === 0, {
    message: 'no process and no mcp-client fork is left',
  })
})

test('disposed while its first mounts are in flight: bounded, no process left', async (t) => {
  const w = await startWorld({ trust: 'all' })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith(
    Object.fromEntries(
      ['p', 'q', 'r'].map((n) => [n, stdioEntry(n, { tools: ['t'], pidfileDir: w.pids, initDelayMs: 400 })]),
    ),
  )
  await w.host.createAgent({ cwd: a.path })
  await waitFor(() => countLive(w.pids) === 3, { message: 'all three servers have started' })
  const t0 = performance.now()
  await settles(w.stop(), 'the dispose while mounts are in flight')
  t.diagnostic(`dispose took ${Math.round(performance.now() - t0)} ms`)
  await waitFor(() => countLive(w.pids) === 0 && clientFibers(w.host.ctx) === 0, { message: 'nothing is left' })
  assert.deepEqual(mcpToolNames(w.host.ctx), [])
})

test('HMR: dispose + apply 20 times with 3 servers — no leaked fork, watcher, process or restriction', async (t) => {
  const home = makeTempDir('dsh-mcp-home-')
  const hostDir = makeTempDir('dsh-mcp-hostcwd-')
  const pids = home.mkdir('pids')
  const host = await createHost({ cwd: hostDir.path })
  t.after(async () => {
    await host.dispose()
    reapAll(pids)
  })
  const a = projectWith(
    Object.fromEntries(['x', 'y', 'z'].map((n) => [n, stdioEntry(n, { tools: ['t'], pidfileDir: pids })])),
  )
  const agent = (await host.createAgent({ cwd: a.path })).agent
  const baseline = {
    children: childPids().length,
    watches: inotifyWatches(),
    tools: toolNames(host.ctx, agent).length,
    registry: host.ctx.registry.size,
  }
  const want = ['mcp__x__t', 'mcp__y__t', 'mcp__z__t']
  let peakWatches = 0
  const t0 = performance.now()
  for (let i = 0; i < 20; i++) {
    const fiber = host.ctx.plugin(plugin, { dshHome: home.path, cwd: hostDir.path, trust: 'all' })
    await fiber
    const mcp = host.ctx.get('projectMcp') as ProjectMcp
    await mcp.whenIdle()
    assert.deepEqual(mcpToolNames(host.ctx, agent), want, `generation ${i + 1} serves the agent that predates it`)
    assert.equal(countLive(pids), 3, `generation ${i + 1}: exactly one process per server`)
    peakWatches = Math.max(peakWatches, inotifyWatches())
    await fiber.dispose()
    assert.deepEqual(mcpToolNames(host.ctx, agent), [], `generation ${i + 1} left no tool behind`)
  }
  t.diagnostic(
    `20 generations in ${Math.round(performance.now() - t0)} ms; inotify watches ${baseline.watches} before, at most ${peakWatches} while loaded`,
  )
  assert.ok(
    peakWatches - baseline.watches <= 12,
    'a loaded generation watches a handful of directories and files, never a tree',
  )
  await waitFor(() => countLive(pids) === 0 && childPids().length === baseline.children, {
    message: 'no child process is left',
  })
  await waitFor(() => inotifyWatches() <= baseline.watches, {
    message: `inotify watches back to ${baseline.watches} (now ${inotifyWatches()})`,
  })
  assert.equal(clientFibers(host.ctx), 0, 'no mcp-client fork is left')
  assert.equal(
    host.ctx.registry.size,
    baseline.registry,
    'the registry holds exactly the plugin runtimes it held before',
  )
  assert.equal(toolNames(host.ctx, agent).length, baseline.tools, 'every restriction was lifted')
  assert.equal(host.ctx.get('projectMcp'), undefined)
})

test('two host contexts watching the same project both converge on an edit', async (t) => {
  const one = await startWorld({ trust: 'all', debounceMs: 50 })
  const two = await startWorld({ trust: 'all', debounceMs: 50 })
  t.after(async () => {
    await Promise.all([one.dispose(), two.dispose()])
    reapAll(one.pids)
    reapAll(two.pids)
  })
  const entry = (n: string) => stdioEntry(n, { tools: ['t'] })
  const a = projectWith({ s1: entry('s1') })
  const agents = [
    (await one.host.createAgent({ cwd: a.path })).agent,
    (await two.host.createAgent({ cwd: a.path })).agent,
  ]
  await Promise.all([one.mcp.whenIdle(), two.mcp.whenIdle()])
  for (const [w, agent] of [
    [one, agents[0]!],
    [two, agents[1]!],
  ] as const)
    assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__s1__t'])
  for (const step of [
    { s1: entry('s1'), s2: entry('s2') },
    { s2: entry('s2') },
    { s2: entry('s2'), s3: entry('s3') },
  ]) {
    const t0 = performance.now()
    writeFileSync(a.join('.dsh', 'mcp.yml'), friendly(step))
    const want = Object.keys(step).map((n) => `mcp__${n}__t`)
    await Promise.all([
      untilTools(one, agents[0]!, want, 'host one converges'),
      untilTools(two, agents[1]!, want, 'host two converges'),
    ])
    const ms = performance.now() - t0
    t.diagnostic(`both hosts on [${Object.keys(step).join(', ')}] ${Math.round(ms)} ms after the write`)
  }
})
