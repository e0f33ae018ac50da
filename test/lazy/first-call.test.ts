/**
 * Lazy stdio servers on a real host with the real official client and the
 * stdio fixture: with a warm cache nothing starts at agent start, the first
 * request (a real step through the agent loop) offers the cached tools, the
 * model's first call starts the server and gets the real result, concurrent
 * first calls share one start, and idle release ends the process and brings
 * the cached tools back.
 */
import assert from 'node:assert/strict'
import { statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { execTool, installStubModel, resultText, toolCallResponse, userMessage, waitFor } from '../support/host.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { isAlive, readMarker, reapAll } from '../support/procs.ts'
import { friendly, projectWith, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { cacheFiles, LONG, lazyWorld, row, waitRow, waitTools, warm } from '../support/lazy.ts'

after(() => cleanupAll())

const offered = (req: { tools?: readonly { name: string }[] } | undefined) =>
  (req?.tools ?? [])
    .map((t) => t.name)
    .filter((n) => n.startsWith('mcp__'))
    .sort()

function setup(tools = ['echo', 'add'], extra: Record<string, unknown> = {}) {
  const home = makeTempDir('dsh-mcp-lazy-home-')
  const pids = home.mkdir('pids')
  const marker = home.join('spawns.log')
  const entry = stdioEntry('lz', { tools, marker, pidfileDir: pids, extra: { lifecycle: 'lazy', ...extra } })
  const project = projectWith({ lz: entry })
  return { home, pids, marker, project, entry }
}

test('warm cache: no spawn at agent start, the first request offers the cached tools, the first call starts the server and returns the real result', async (t) => {
  const { home, pids, marker, project } = setup()
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  assert.equal(readMarker(marker).length, 1, 'warming spawned once')
  const files = cacheFiles(home)
  assert.equal(files.length, 1)
  const cacheDir = path.join(home.path, 'mcp-cache')
  assert.equal(statSync(cacheDir).mode & 0o777, 0o700, 'cache dir 0700')
  assert.equal(statSync(path.join(cacheDir, files[0]!)).mode & 0o777, 0o600, 'cache file 0600')

  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const stub = installStubModel(w.host.ctx)
  const { agent } = await w.host.createAgent({ cwd: project.path, agentOptions: stub.agentOptions })
  await w.mcp.whenIdle()
  await waitTools(w, agent, ['mcp__lz__add', 'mcp__lz__echo'], 'the cached tools were never offered')
  assert.equal(readMarker(marker).length, 1, 'no spawn at agent start')
  assert.equal(row(w, project.path, 'lz')?.state, 'dormant')
  assert.equal(row(w, project.path, 'lz')?.toolSource, 'cache')
  assert.equal(row(w, project.path, 'lz')?.lifecycle, 'lazy')

  stub.push(toolCallResponse('mcp__lz__add', { a: 2, b: 3 }))
  agent.followup(userMessage('add please'))
  await agent.whenIdle()
  assert.deepEqual(
    offered(stub.requests[0]),
    ['mcp__lz__add', 'mcp__lz__echo'],
    'the first request offered the cached tools',
  )
  const schema = stub.requests[0]!.tools!.find((x) => x.name === 'mcp__lz__add') as unknown as {
    parameters: { properties: Record<string, unknown> }
  }
  assert.deepEqual(Object.keys(schema.parameters.properties).sort(), ['a', 'b'], 'with the real input schema')
  assert.equal(readMarker(marker).length, 2, 'the first call spawned the server once')
  const toolMessage = JSON.stringify(stub.requests[1]?.messages.at(-1))
  assert.match(toolMessage, /\[lz\] add: 5/, 'the model got the real result')
  assert.equal(row(w, project.path, 'lz')?.state, 'mounted')
  assert.equal(row(w, project.path, 'lz')?.toolSource, 'live')
  assert.ok(row(w, project.path, 'lz')?.lastUsedAt, 'last use recorded')
})

test('concurrent first calls share one start', async (t) => {
  const { home, pids, marker, project } = setup(['echo', 'sleep'])
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__lz__echo', 'mcp__lz__sleep'], 'the cached tools were never offered')
  const spawnsBefore = readMarker(marker).length
  const results = await Promise.all(
    [1, 2, 3, 4].map((i) => execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: `n${i}` })),
  )
  for (const [i, r] of results.entries()) {
    assert.equal(r.isError, false, resultText(r))
    assert.equal(resultText(r), `[lz] echo: n${i + 1}`)
  }
  assert.equal(readMarker(marker).length, spawnsBefore + 1, 'four concurrent first calls, one spawn')
  // A later call goes straight to the live server.
  assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'again' })), '[lz] echo: again')
  assert.equal(readMarker(marker).length, spawnsBefore + 1)
})

test('idle release ends the process and restores the cached tools; the next call starts it again', async (t) => {
  const { home, pids, marker, project } = setup(['echo'], { idleTimeoutMs: 300 })
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__lz__echo'], 'the cached tools were never offered')
  assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'one' })), '[lz] echo: one')
  const pid = readMarker(marker).at(-1)!
  assert.ok(isAlive(pid), 'running after the first call')
  await waitFor(() => !isAlive(pid) || undefined, { timeoutMs: LONG, message: 'the idle server process never ended' })
  await waitRow(w, project.path, 'lz', (s) => s.state === 'dormant', 'the released server never read dormant')
  await waitTools(w, agent, ['mcp__lz__echo'], 'the cached tools never came back')
  assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'two' })), '[lz] echo: two')
  assert.equal(readMarker(marker).length, 3, 'warm, first call, call after the release')
})

test('switching lifecycle needs no remount: eager → lazy releases when idle, lazy → eager starts a dormant server', async (t) => {
  const { home, pids, marker, project, entry } = setup(['echo'])
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const w = await lazyWorld(home, { idleTimeoutMs: 300 })
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__lz__echo'], 'cached tools never offered')
  const spawned = readMarker(marker).length

  // lazy → eager: the dormant server starts on the next reconcile.
  writeFileSync(project.join('.dsh', 'mcp.yml'), friendly({ lz: { ...entry, lifecycle: 'eager' } }))
  await w.mcp.reload()
  await waitRow(w, project.path, 'lz', (s) => s.state === 'mounted', 'the server turned eager never started')
  assert.equal(readMarker(marker).length, spawned + 1)
  const pid = readMarker(marker).at(-1)!

  // eager → lazy: the same process keeps running (no remount), then is released when idle.
  writeFileSync(project.join('.dsh', 'mcp.yml'), friendly({ lz: { ...entry, lifecycle: 'lazy' } }))
  await w.mcp.reload()
  assert.equal(readMarker(marker).length, spawned + 1, 'no remount')
  await waitFor(() => !isAlive(pid) || undefined, {
    timeoutMs: LONG,
    message: 'the server turned lazy was never released',
  })
  await waitRow(w, project.path, 'lz', (s) => s.state === 'dormant', 'not dormant after the release')
  await waitTools(w, agent, ['mcp__lz__echo'], 'cached tools did not come back')
})

test('a step that arrives while a lazy server starts waits for it: the tools are never missing from a request', async (t) => {
  const home = makeTempDir('dsh-mcp-lazy-home-')
  const pids = home.mkdir('pids')
  const control = home.join('control.json')
  const entryWith = (initDelayMs: number) => {
    writeFileSync(control, JSON.stringify({ initDelayMs }))
    return {
      command: process.execPath,
      args: stdioFixtureArgs({ name: 'lz', tools: ['echo'], pidfileDir: pids, control }),
      lifecycle: 'lazy',
      toolCallTimeoutMs: 10_000,
    }
  }
  const project = projectWith({ lz: entryWith(0) })
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  // The same launch (the cache still serves it), a slow start.
  entryWith(1500)
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const stub = installStubModel(w.host.ctx)
  const caller = (await w.host.createAgent({ cwd: project.path })).agent
  const other = (await w.host.createAgent({ cwd: project.path, agentOptions: stub.agentOptions })).agent
  await waitTools(w, other, ['mcp__lz__echo'], 'cached tools never offered')
  other.followup(userMessage('first turn'))
  await other.whenIdle()
  assert.deepEqual(offered(stub.requests[0]), ['mcp__lz__echo'])

  const call = execTool(w.host.ctx, caller, 'mcp__lz__echo', { text: 'slow' })
  await waitTools(w, undefined, [], 'the cached registration was never swapped out')
  other.followup(userMessage('second turn, while the server starts'))
  await other.whenIdle()
  assert.deepEqual(
    offered(stub.requests[1]),
    ['mcp__lz__echo'],
    'the step waited for the start and offered the real tool',
  )
  assert.equal(resultText(await call), '[lz] echo: slow')
})
