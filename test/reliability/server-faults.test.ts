/**
 * Server faults on a real host with real fixture servers: a stdio child
 * killed with SIGKILL while agents hold its tools (the official client
 * reconnects; status says so; tools answer again), a server that crashes on
 * every start (bounded retries, status `failed`, no busy loop: CPU over a
 * measured window stays low; `reload()` tries it again), a server that hangs
 * on `initialize` (bounded by `mountTimeoutMs`; removing it mid-mount does
 * not block the queue — the edit applies before that bound would have run
 * out — and ends its process), and an HTTP server that goes away and comes
 * back (a call while it is down is an error result at once, not a wait for
 * the call's timeout; calls work again after). How fast each of these is:
 * bench row 8.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { statusFilePath } from '../../src/status/path.ts'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { execTool, mcpToolNames, resultText, settles, waitFor } from '../support/host.ts'
import { countLive, livePids, readMarker } from '../support/procs.ts'
import { friendly, projectWith, type RuntimeWorld, stdioEntry } from '../support/runtime.ts'
import { untilTools, useFaultWorld } from '../support/faults.ts'

let w: RuntimeWorld
/** Long enough for a healthy fixture to mount on a busy machine; the hanging ones reach it. */
const MOUNT_TIMEOUT_MS = 8000
useFaultWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: MOUNT_TIMEOUT_MS }, (world) => {
  w = world
})

const serverOf = (root: string, name: string) =>
  w.mcp
    .snapshot()
    .projects.find((p) => p.root === root)
    ?.servers.find((s) => s.name === name)
const statusOf = (root: string, name: string) => {
  const doc = JSON.parse(readFileSync(statusFilePath(w.home.path, root), 'utf8'))
  return doc.servers.find((s: { name: string }) => s.name === name) as {
    state: string
    error: string | null
    toolCount: number
  }
}

test('stdio child killed with SIGKILL: tools stay listed, status reports the loss, the client reconnects and tools answer again', async () => {
  const marker = w.home.join('marker-sk.log')
  const a = projectWith({
    sk: stdioEntry('sk', { tools: ['pid'], marker, pidfileDir: w.pids, extra: { reconnect: { initialDelayMs: 400 } } }),
  })
  const one = (await w.host.createAgent({ cwd: a.path })).agent
  const two = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const first = resultText(await execTool(w.host.ctx, one, 'mcp__sk__pid', {}))
  const pid = Number(/pid: (\d+)/.exec(first)?.[1])
  assert.ok(pid > 0, first)
  process.kill(pid, 'SIGKILL')
  // Said plainly (plan/states.ts causeText), bounded: "lost its connection; retry 1 of N in …".
  await waitFor(() => /lost its connection; retry 1 of \d+ in/.test(serverOf(a.path, 'sk')?.lastError ?? ''), {
    intervalMs: 5,
    message: 'the snapshot reports the lost connection',
  })
  await waitFor(() => /lost its connection/.test(statusOf(a.path, 'sk').error ?? ''), {
    intervalMs: 5,
    message: 'the status file reports it too',
  })
  for (const agent of [one, two])
    assert.deepEqual(
      mcpToolNames(w.host.ctx, agent),
      ['mcp__sk__pid'],
      'the official client keeps the tools registered',
    )
  await waitFor(() => readMarker(marker).length === 2, { message: 'the server is started again' })
  await waitFor(() => serverOf(a.path, 'sk')?.lastError === null, { message: 'the error clears once re-synced' })
  for (const agent of [one, two]) {
    const again = resultText(await execTool(w.host.ctx, agent, 'mcp__sk__pid', {}))
    const newPid = Number(/pid: (\d+)/.exec(again)?.[1])
    assert.ok(newPid > 0 && newPid !== pid, `a new process answers (${again})`)
  }
  await w.mcp.whenIdle()
  assert.equal(serverOf(a.path, 'sk')?.state, 'mounted')
  await waitFor(() => statusOf(a.path, 'sk').state === 'mounted' && statusOf(a.path, 'sk').error === null, {
    message: 'status file: mounted again',
  })
  assert.equal(readMarker(marker).length, 2, 'one restart, no more')
})

test('a server that crashes on every start: bounded retries, status failed, no busy loop; reload() tries again', async () => {
  const bounded = w.home.join('marker-crash3.log')
  const slow = w.home.join('marker-crashdef.log')
  const a = projectWith({
    crash3: stdioEntry('crash3', {
      crash: true,
      marker: bounded,
      extra: { reconnect: { maxAttempts: 3, initialDelayMs: 50, maxDelayMs: 200 } },
    }),
    crashdef: stdioEntry('crashdef', { crash: true, marker: slow }),
    ok: stdioEntry('ok', { tools: ['o'], pidfileDir: w.pids }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await untilTools(w, agent, ['mcp__ok__o'], 'a crashing neighbour costs nothing: the healthy server mounts')
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__ok__o'], 'a crashing neighbour costs nothing')
  await waitFor(() => w.host.logsMatching('mcp-client(crash3): gave up after 3 failed attempts').length === 1, {
    message: 'the client gives up',
  })
  assert.equal(readMarker(bounded).length, 4, 'the first start and 3 retries, no more')
  for (const name of ['crash3', 'crashdef']) {
    const s = serverOf(a.path, name)!
    assert.equal(s.state, 'failed', name)
    assert.ok(s.lastError, `${name} has an error to show`)
  }
  await waitFor(() => statusOf(a.path, 'crash3').state === 'failed', { message: 'status file: failed' })

  // A server the client gave up on is not started again by itself: the marker stays put while crashdef
  // backs off and starts again (its idle CPU and backoff spacing are bench row 8 (n)).
  const spawnsBefore = readMarker(bounded).length
  const slowBefore = readMarker(slow).length
  await waitFor(() => readMarker(slow).length > slowBefore, { message: 'crashdef retries on its default backoff' })
  assert.equal(
    readMarker(bounded).length,
    spawnsBefore,
    'a server the client gave up on is not started again by itself',
  )

  await w.mcp.reload()
  await w.mcp.whenIdle()
  await waitFor(() => readMarker(bounded).length > spawnsBefore, { message: 'reload() starts the failed server again' })
})

test('a server that hangs on initialize: removing it mid-mount does not block the queue and ends its process', async () => {
  const a = projectWith({
    hang: stdioEntry('hang', { tools: ['never'], hang: true, pidfileDir: w.pids }),
    fine: stdioEntry('fine', { tools: ['f'], pidfileDir: w.pids }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await untilTools(w, agent, ['mcp__fine__f'], 'the healthy server mounts beside the hanging one')
  assert.equal(serverOf(a.path, 'hang')?.state, 'starting', 'still inside mountTimeoutMs')
  const hungPid = await waitFor(() =>
    livePids(w.pids).find((p) => readFileSync(`${w.pids}/${p}`, 'utf8').startsWith('hang')),
  )
  const timedOut = () => w.host.logsMatching(/"hang".*within \d+ ms/).length
  writeFileSync(
    a.join('.dsh', 'mcp.yml'),
    friendly({
      fine: stdioEntry('fine', { tools: ['f'], pidfileDir: w.pids }),
      extra: stdioEntry('extra', { tools: ['e'], pidfileDir: w.pids }),
    }),
  )
  await untilTools(w, agent, ['mcp__extra__e', 'mcp__fine__f'], 'the edit applies while the hung fork is let go')
  // The queue did not wait for the hung mount: the edit is in before that mount's own bound ran out.
  assert.equal(timedOut(), 0, 'the edit applied before the hung mount reached mountTimeoutMs')
  await waitFor(() => !livePids(w.pids).includes(hungPid), { message: 'the hung server process is ended' })
  await w.mcp.whenIdle()

  // Reaching the bound: failed with the bound in the error, and the queue still moves.
  const b = projectWith({ hang2: stdioEntry('hang2', { tools: ['never'], hang: true, pidfileDir: w.pids }) })
  const other = (await w.host.createAgent({ cwd: b.path })).agent
  await w.mcp.whenIdle()
  assert.match(serverOf(b.path, 'hang2')?.lastError ?? '', new RegExp(`within ${MOUNT_TIMEOUT_MS} ms`))
  assert.equal(serverOf(b.path, 'hang2')?.state, 'failed')
  writeFileSync(
    b.join('.dsh', 'mcp.yml'),
    friendly({
      hang2: stdioEntry('hang2', { tools: ['never'], hang: true, pidfileDir: w.pids }),
      more: stdioEntry('more', { tools: ['m'], pidfileDir: w.pids }),
    }),
  )
  await untilTools(w, other, ['mcp__more__m'], 'an edit after the timeout applies')
  await waitFor(
    () =>
      countLive(w.pids) ===
      livePids(w.pids).filter((p) => !readFileSync(`${w.pids}/${p}`, 'utf8').startsWith('hang')).length,
    { message: 'no hung process is left' },
  )
})

test('an HTTP server that goes away and comes back: calls fail fast while it is down and work again after', async () => {
  let http = await startHttpServer({ name: 'web', tools: ['search'] })
  const port = Number(new URL(http.url).port)
  try {
    // A tool call's own bound far above the wait below: an answer before it is not a timeout.
    const a = projectWith({ web: { url: http.url, toolCallTimeoutMs: 600_000 } })
    const agent = (await w.host.createAgent({ cwd: a.path })).agent
    await w.mcp.whenIdle()
    assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__web__search', { q: 1 })), '[web] search: {"q":1}')
    await http.close()
    const down = await settles(
      execTool(w.host.ctx, agent, 'mcp__web__search', { q: 2 }),
      'a call while the server is down fails fast (not after its 600 s bound)',
    )
    assert.equal(down.isError, true, 'a call while the server is down is an error result, not a throw')
    http = await startHttpServer({ name: 'web', tools: ['search'], port })
    // The restarted server has lost the client's session; the plugin remounts on the first "Session not found".
    const back = await waitFor(
      async () => {
        const r = await execTool(w.host.ctx, agent, 'mcp__web__search', { q: 3 })
        return r.isError ? undefined : resultText(r)
      },
      { intervalMs: 200, message: 'calls work again after the server is back' },
    )
    assert.equal(back, '[web] search: {"q":3}')
    await w.mcp.whenIdle()
    assert.equal(serverOf(a.path, 'web')?.state, 'mounted')
    assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__web__search'])
  } finally {
    await http.close()
  }
})
