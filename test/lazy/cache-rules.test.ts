/**
 * What a warm cache may offer, on a real host with the stdio fixture: never
 * the tools of an untrusted, changed, disabled or filtered server; a changed
 * fingerprint misses the cache (the server mounts and is cached anew); a
 * server whose real tool list differs from its cache converges on the real
 * one; a server that cannot start answers the call with `not_sent` and keeps
 * its cached tools for the next try. Marker files prove what ran.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { trustFingerprint } from '../../src/config/fingerprint.ts'
import { EntrySchema } from '../../src/config/schema.ts'
import { trustServers } from '../../src/trust/store.ts'
import { execTool, mcpToolNames, resultText } from '../support/host.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { friendly, projectWith, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { cacheFiles, lazyWorld, row, waitRow, waitTools, warm } from '../support/lazy.ts'

after(() => cleanupAll())

function setup(entryOf: (marker: string, pids: string) => Record<string, unknown>) {
  const home = makeTempDir('dsh-mcp-lazy-home-')
  const pids = home.mkdir('pids')
  const marker = home.join('spawns.log')
  const entry = entryOf(marker, pids)
  const project = projectWith({ lz: entry })
  return { home, pids, marker, project, entry }
}

const lazyStdio = (tools: string[]) => (marker: string, pids: string) =>
  stdioEntry('lz', { tools, marker, pidfileDir: pids, extra: { lifecycle: 'lazy' } })

/** An entry whose tools (and crash) come from env values: equal env names keep the cache key. */
/** The fixture steered by a control file: the same launch (so the same cache key) with another behaviour. */
const controlled = (marker: string, pids: string, control: string, set: { tools?: string; crash?: boolean }) => {
  writeFileSync(control, JSON.stringify(set))
  return {
    command: process.execPath,
    args: stdioFixtureArgs({ name: 'lz', marker, pidfileDir: pids, control }),
    lifecycle: 'lazy',
    toolCallTimeoutMs: 10_000,
  }
}

test('an untrusted or changed lazy server offers no cached tools and starts nothing', async (t) => {
  const { home, pids, marker, project, entry } = setup(lazyStdio(['echo']))
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const spawned = readMarker(marker).length

  // 1. Never trusted: nothing offered, nothing started, even when called by name.
  const w = await lazyWorld(home, { trust: 'require' })
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [])
  assert.deepEqual(mcpToolNames(w.host.ctx), [], 'not registered at all')
  assert.equal(row(w, project.path, 'lz')?.state, 'untrusted')
  const r = await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'x' })
  assert.equal(r.isError, true)
  assert.equal(readMarker(marker).length, spawned, 'no spawn for an untrusted server')

  // 2. Trusted: the cached tools appear, still without a spawn.
  await trustServers(home.path, project.path, [{ name: 'lz', fingerprint: trustFingerprint(EntrySchema.parse(entry)) }])
  await w.mcp.reload()
  await waitTools(w, agent, ['mcp__lz__echo'], 'the trusted lazy server never offered its cached tools')
  assert.equal(readMarker(marker).length, spawned)

  // 3. Changed since trusted (a new argument): the cached tools go, nothing starts.
  writeFileSync(
    project.join('.dsh', 'mcp.yml'),
    friendly({ lz: { ...entry, args: [...(entry.args as string[]), '--init-delay-ms', '1'] } }),
  )
  await w.mcp.reload()
  await waitTools(w, agent, [], 'the cached tools of a changed server stayed')
  assert.equal(row(w, project.path, 'lz')?.state, 'untrusted')
  assert.equal(readMarker(marker).length, spawned, 'no spawn for a changed server')
})

test('a disabled or filtered lazy server never offers the cached tools it may not', async (t) => {
  const { home, pids, marker, project, entry } = setup(lazyStdio(['echo', 'add']))
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const spawned = readMarker(marker).length
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__lz__add', 'mcp__lz__echo'], 'cached tools never offered')

  writeFileSync(project.join('.dsh', 'mcp.yml'), friendly({ lz: { ...entry, tools: { exclude: ['add'] } } }))
  await w.mcp.reload()
  await waitTools(w, agent, ['mcp__lz__echo'], 'an excluded cached tool stayed visible')
  const denied = await execTool(w.host.ctx, agent, 'mcp__lz__add', { a: 1, b: 2 })
  assert.equal(denied.isError, true, 'an excluded cached tool cannot be called')
  assert.equal(readMarker(marker).length, spawned, 'calling an excluded tool starts nothing')

  // Another project's agent never sees them, and its call starts nothing.
  const other = projectWith({})
  const stranger = (await w.host.createAgent({ cwd: other.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, stranger), [])
  assert.equal((await execTool(w.host.ctx, stranger, 'mcp__lz__echo', { text: 'x' })).isError, true)
  assert.equal(readMarker(marker).length, spawned, "a foreign agent's call starts nothing")

  project.write('.dsh/mcp.local.yml', friendly({ lz: { enabled: false } }))
  await w.mcp.reload()
  await waitTools(w, agent, [], 'a disabled server kept its cached tools')
  await waitTools(w, undefined, [], 'a disabled server kept cached registrations')
  assert.equal(readMarker(marker).length, spawned)
})

test('a changed fingerprint misses the cache: the server mounts, its new tools are cached', async (t) => {
  const { home, pids, marker, project, entry } = setup(lazyStdio(['echo']))
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const w = await lazyWorld(home, { idleTimeoutMs: 0 })
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__lz__echo'], 'cached tools never offered')
  const spawned = readMarker(marker).length
  const args = (entry.args as string[]).map((a) => (a === 'echo' ? 'echo,add' : a))
  writeFileSync(project.join('.dsh', 'mcp.yml'), friendly({ lz: { ...entry, args } }))
  await w.mcp.reload()
  await waitRow(w, project.path, 'lz', (s) => s.state === 'mounted', 'the re-keyed server never mounted')
  await waitTools(w, agent, ['mcp__lz__add', 'mcp__lz__echo'], 'the new tools never appeared')
  assert.equal(readMarker(marker).length, spawned + 1, 'a cache miss mounts the server once')
  await waitRow(w, project.path, 'lz', () => cacheFiles(home).length === 2, 'the new fingerprint was never cached')
})

test('a server whose real tool list differs from its cache converges on the real one', async (t) => {
  const home = makeTempDir('dsh-mcp-lazy-home-')
  const pids = home.mkdir('pids')
  const marker = home.join('spawns.log')
  const control = home.join('control.json')
  const project = projectWith({ lz: controlled(marker, pids, control, { tools: 'echo,old' }) })
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  // The same launch (same cache key), another real tool list.
  writeFileSync(
    project.join('.dsh', 'mcp.yml'),
    friendly({ lz: { ...controlled(marker, pids, control, { tools: 'echo,add' }), idleTimeoutMs: 300 } }),
  )
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__lz__echo', 'mcp__lz__old'], 'the cached list was never offered')
  assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'hi' })), '[lz] echo: hi')
  await waitTools(w, agent, ['mcp__lz__add', 'mcp__lz__echo'], 'the real list never replaced the cached one')
  // Released again: the cache now holds the real list.
  await waitRow(w, project.path, 'lz', (s) => s.state === 'dormant', 'never released')
  await waitTools(w, agent, ['mcp__lz__add', 'mcp__lz__echo'], 'the cache did not converge on the real list')
})

test('a lazy server that cannot start answers not_sent and keeps its cached tools for the next try', async (t) => {
  const home = makeTempDir('dsh-mcp-lazy-home-')
  const pids = home.mkdir('pids')
  const marker = home.join('spawns.log')
  const control = home.join('control.json')
  const project = projectWith({ lz: controlled(marker, pids, control, { tools: 'echo', crash: false }) })
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  controlled(marker, pids, control, { tools: 'echo', crash: true })
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__lz__echo'], 'cached tools never offered')
  const spawned = readMarker(marker).length
  const r = await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'x' })
  assert.equal(r.isError, true)
  assert.match(resultText(r), /^Error: not_sent: server "lz" did not start: .*safe to retry/)
  assert.equal(readMarker(marker).length, spawned + 1, 'the start was tried once')
  await waitTools(w, agent, ['mcp__lz__echo'], 'the cached tools did not come back after the failed start')
  const s = await waitRow(w, project.path, 'lz', (x) => x.state === 'dormant', 'not dormant after the failed start')
  assert.ok(s.lastError, 'the failure is reported')
  // Fixed: the next call starts it.
  controlled(marker, pids, control, { tools: 'echo', crash: false })
  await w.mcp.reload()
  await waitTools(w, agent, ['mcp__lz__echo'], 'cached tools missing after the fix')
  assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'ok' })), '[lz] echo: ok')
})
