/**
 * The crash-loop bound on a real host: a server that initializes and exits
 * shortly after, under a reconnect policy whose stability window
 * (`maxDelayMs`) is shorter than its life, resets the official client's
 * attempt budget on every start and would be restarted forever. The mount
 * layer bounds it (RESTART_LIMIT losses per window, never reset by a
 * successful connect): the row reads `failed` with the reason, the fork is
 * disposed (spawns counted by marker lines stop at exactly the bound), a
 * healthy neighbour is untouched, and `reload()` tries it again. Event-based
 * waits only.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { RESTART_LIMIT } from '../../src/host/restart-budget.ts'
import { statusFilePath } from '../../src/status/path.ts'
import { mcpToolNames, waitFor } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { projectWith, type RuntimeWorld, stdioEntry } from '../support/runtime.ts'
import { useFaultWorld } from '../support/faults.ts'

let w: RuntimeWorld
useFaultWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 30_000 }, (world) => {
  w = world
})

const serverOf = (root: string, name: string) =>
  w.mcp
    .snapshot()
    .projects.find((p) => p.root === root)
    ?.servers.find((s) => s.name === name)
const statusOf = (root: string, name: string) => {
  const doc = JSON.parse(readFileSync(statusFilePath(w.home.path, root), 'utf8'))
  return doc.servers.find((s: { name: string }) => s.name === name) as { state: string; error: string | null }
}

test('a server that dies shortly after every start is stopped after the bound, reported failed, and reload() tries again', async () => {
  const marker = w.home.join('marker-loop.log')
  const a = projectWith({
    // Lives 1 s past connecting; the stability window is 500 ms (a repository layer's reconnect is clamped to a
    // 500 ms first delay, and the ceiling is never below it), so the client's own budget resets every time.
    loop: stdioEntry('loop', {
      tools: ['l'],
      marker,
      extraArgs: ['--exit-after-ms', '1000'],
      extra: { reconnect: { initialDelayMs: 500, maxDelayMs: 500, maxAttempts: 3 } },
    }),
    ok: stdioEntry('ok', { tools: ['o'], pidfileDir: w.pids }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  await waitFor(() => serverOf(a.path, 'loop')?.state === 'failed', {
    timeoutMs: 60_000,
    intervalMs: 20,
    message: 'the crash loop is stopped and reported',
  })
  assert.match(serverOf(a.path, 'loop')?.lastError ?? '', /crash loop: the server stopped \d+ times within 60 s/)
  await w.mcp.whenIdle()
  const bound = RESTART_LIMIT.max + 1
  assert.equal(readMarker(marker).length, bound, `the first start and ${RESTART_LIMIT.max} restarts, then no more`)
  assert.ok(
    readMarker(marker).length > 3 + 1,
    'more starts than the client budget of 3: its budget did reset (the loop is real)',
  )
  await waitFor(
    () => statusOf(a.path, 'loop').state === 'failed' && /crash loop/.test(statusOf(a.path, 'loop').error ?? ''),
    { timeoutMs: 10_000, message: 'the status file says failed, with the reason' },
  )
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__ok__o'], 'the healthy neighbour keeps its tools')
  assert.equal(serverOf(a.path, 'ok')?.state, 'mounted')

  await w.mcp.reload()
  await waitFor(() => readMarker(marker).length > bound, { timeoutMs: 30_000, message: 'reload() starts it again' })
  await waitFor(() => serverOf(a.path, 'loop')?.state === 'failed' && readMarker(marker).length === 2 * bound, {
    timeoutMs: 60_000,
    intervalMs: 20,
    message: 'and bounds it again',
  })
  await w.mcp.whenIdle()
  assert.equal(readMarker(marker).length, 2 * bound, 'a fresh budget, the same bound')
})
