/**
 * Mount lifecycle on a real host: a hanging server is bounded by
 * mountTimeoutMs and holds nothing else up; streamable HTTP servers mount;
 * a project's servers are released after the grace period and kept when an
 * agent returns within it; disposing the plugin unmounts everything and
 * leaves no child process. Each wait is on an event with a generous
 * deadline; how fast these happen is bench row 8.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { statusFilePath } from '../../src/status/path.ts'
import { after, test } from 'node:test'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { execTool, mcpToolNames, resultText, settles, stdioFixtureConfig, waitFor } from '../support/host.ts'
import { countLive, readMarker, reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

test('mountTimeoutMs bounds a hanging server: it is marked failed, others mount, the queue keeps moving', async (t) => {
  // Long enough for a healthy fixture to mount on a busy machine; the hanging one reaches it.
  const w = await startWorld({ mountTimeoutMs: 8000 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({
    stuck: stdioEntry('stuck', { tools: ['never'], hang: true, pidfileDir: w.pids }),
    fine: stdioEntry('fine', { tools: ['ok'], pidfileDir: w.pids }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  const stuckRow = () =>
    w.mcp
      .snapshot()
      .projects.find((p) => p.root === a.path)
      ?.servers.find((s) => s.name === 'stuck')
  assert.equal(
    stuckRow()?.state,
    'starting',
    'agent creation never waits for a mount: the hanging one is still within its bound',
  )
  await settles(w.mcp.whenIdle(), 'whenIdle() with a server hanging until mountTimeoutMs')
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__fine__ok'])
  const stuck = w.mcp
    .snapshot()
    .projects.find((p) => p.root === a.path)!
    .servers.find((s) => s.name === 'stuck')!
  assert.equal(stuck.state, 'failed')
  assert.match(stuck.lastError ?? '', /within 8000 ms/)
  assert.equal(w.host.logsMatching(/failed "stuck".*within 8000 ms/).length, 1)

  // The hung fork's dispose runs in the background: an edit still applies.
  writeFileSync(
    a.join('.dsh', 'mcp.yml'),
    friendly({
      stuck: stdioEntry('stuck', { tools: ['never'], hang: true, pidfileDir: w.pids }),
      fine: stdioEntry('fine', { tools: ['ok'], pidfileDir: w.pids }),
      extra: stdioEntry('extra', { tools: ['e'], pidfileDir: w.pids }),
    }),
  )
  await waitFor(() => mcpToolNames(w.host.ctx, agent).includes('mcp__extra__e'), {
    ctx: w.host.ctx,
    events: ['tools/change'],
    message: 'the edit beside the hung fork never applied',
  })
  await settles(w.stop(), 'the plugin dispose after a hung mount')
  await waitFor(() => countLive(w.pids) === 0, { message: 'every fixture process exits' })
})

test('streamable HTTP servers mount, run tools, and can be shared by identical configs across projects', async (t) => {
  const http = await startHttpServer({ name: 'web', tools: ['search'] })
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    await http.close()
  })
  const entry = { url: http.url, headers: { 'X-Test': 'yes' } }
  const a = projectWith({ web: entry })
  const b = projectWith({ web: entry })
  const agentA = (await w.host.createAgent({ cwd: a.path })).agent
  const agentB = (await w.host.createAgent({ cwd: b.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agentA), ['mcp__web__search'])
  assert.deepEqual(mcpToolNames(w.host.ctx, agentB), ['mcp__web__search'], 'identical resolved configs share one mount')
  assert.equal(http.sessions, 1, 'one connection for both projects')
  const r = await execTool(w.host.ctx, agentB, 'mcp__web__search', { q: 'x' })
  assert.equal(r.isError, false, resultText(r))
})

test('a project without agents is released after graceMs; an agent returning within the grace keeps its mounts', async (t) => {
  // A grace the dispose + create below fit in even on a busy machine.
  const w = await startWorld({ graceMs: 3000 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const marker = w.home.join('marker-g.log')
  const a = projectWith({ g: stdioEntry('g', { tools: ['x'], marker, pidfileDir: w.pids }) })
  const first = await w.host.createAgent({ cwd: a.path })
  await w.mcp.whenIdle()
  assert.equal(countLive(w.pids), 1)
  await first.dispose()
  const second = await w.host.createAgent({ cwd: a.path })
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, second.agent), ['mcp__g__x'])
  await second.dispose()
  await waitFor(() => !w.mcp.snapshot().projects.some((p) => p.root === a.path), { message: 'project released' })
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx), [], 'its tools are gone')
  await waitFor(() => countLive(w.pids) === 0, { message: 'its server exited' })
  assert.equal(readMarker(marker).length, 1, 'the agent that returned within the grace reused the mount')
  assert.equal(w.host.logsMatching('has had no agent for 3000 ms').length, 1)
  await w.mcp.whenIdle()
  const doc = JSON.parse(readFileSync(statusFilePath(w.home.path, a.path), 'utf8'))
  assert.deepEqual(
    doc.servers.map((s: { name: string; state: string; effectiveName: string | null }) => [
      s.name,
      s.state,
      s.effectiveName,
    ]),
    [['g', 'idle', null]],
    'the status file says the project is no longer served',
  )
  await w.stop()
  const stopped = JSON.parse(readFileSync(statusFilePath(w.home.path, a.path), 'utf8'))
  assert.equal(stopped.host, 'stopped', 'a released project stops with its host too (never read as a host that died)')
  assert.deepEqual(
    stopped.servers.map((s: { name: string; state: string }) => [s.name, s.state]),
    [['g', 'stopped']],
  )
})

test('disposing the plugin unmounts everything, lifts every restriction and leaves no child process', async (t) => {
  const w = await startWorld({ userFile: friendly({ u: stdioEntry('u', { tools: ['u1'] }) }) })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({ pa: stdioEntry('pa', { tools: ['x'], pidfileDir: w.pids }) })
  const b = projectWith({ pb: stdioEntry('pb', { tools: ['y'], pidfileDir: w.pids }) })
  const agentA = (await w.host.createAgent({ cwd: a.path })).agent
  await w.host.createAgent({ cwd: b.path })
  await w.mcp.whenIdle()
  assert.equal(countLive(w.pids), 2)
  w.host.ctx.tools.register({
    name: 'mcp__outsider__t',
    description: 'registered by someone else',
    parameters: { type: 'object', properties: {} },
    output: { schema: { type: 'string' }, render: () => [] },
    execute: async () => 'x',
  })
  assert.ok(mcpToolNames(w.host.ctx, agentA).includes('mcp__outsider__t'), 'tools we do not own are never denied')
  await w.stop()
  assert.deepEqual(mcpToolNames(w.host.ctx, agentA), ['mcp__outsider__t'], 'every MCP tool of ours is gone')
  assert.equal(countLive(w.pids), 0, 'no child process is left')
  assert.equal(w.host.ctx.get('projectMcp'), undefined, 'the service is withdrawn')
})

test("a server that cannot start reads as failed with the client's error; it is not torn down; reload() tries it again", async (t) => {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const marker = w.home.join('marker-crash.log')
  const a = projectWith({
    broken: stdioEntry('broken', {
      tools: ['b'],
      crash: true,
      marker,
      extra: { reconnect: { maxAttempts: 1, initialDelayMs: 50 } },
    }),
    fine: stdioEntry('fine', { tools: ['f'], pidfileDir: w.pids }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const server = () =>
    w.mcp
      .snapshot()
      .projects.find((p) => p.root === a.path)!
      .servers.find((s) => s.name === 'broken')!
  await waitFor(() => server().state === 'failed', { message: 'broken reads as failed' })
  assert.ok(server().lastError, "with the official client's error")
  assert.equal(server().effectiveName, null)
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__fine__f'])
  assert.equal(w.host.logsMatching('unmounted "broken"').length, 0, 'the plugin never tears down a reconnecting client')
  const spawned = readMarker(marker).length
  await w.mcp.reload()
  await w.mcp.whenIdle()
  await waitFor(() => readMarker(marker).length > spawned, { message: 'reload tried it again' })
})

test('agents that existed before the plugin loaded are scoped too', async (t) => {
  const { createHost } = await import('../support/host.ts')
  const { plugin } = await import('../support/runtime.ts')
  const { makeTempDir } = await import('../support/tmp.ts')
  const host = await createHost()
  const home = makeTempDir('dsh-mcp-home-')
  t.after(async () => {
    await host.dispose()
    reapAll(home.join('pids'))
  })
  const a = projectWith({ pa: stdioEntry('pa', { tools: ['x'], pidfileDir: home.join('pids') }) })
  const b = projectWith({ pb: stdioEntry('pb', { tools: ['y'], pidfileDir: home.join('pids') }) })
  const early = (await host.createAgent({ cwd: a.path })).agent
  const fiber = host.ctx.plugin(plugin, { dshHome: home.path, cwd: home.path, trust: 'all' })
  await fiber
  const late = (await host.createAgent({ cwd: b.path })).agent
  const mcp = host.ctx.get('projectMcp')!
  await mcp.whenIdle()
  assert.deepEqual(mcpToolNames(host.ctx, early), ['mcp__pa__x'])
  assert.deepEqual(mcpToolNames(host.ctx, late), ['mcp__pb__y'])
  await fiber.dispose()
})

test('a name already held by an mcp-client that is not ours: the project server mounts under a suffixed name', async (t) => {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  await w.host.mountMcp(stdioFixtureConfig({ serverName: 'dup', tools: ['host_tool'], pidfileDir: w.pids }))
  const a = projectWith({ dup: stdioEntry('dup', { tools: ['mine'], pidfileDir: w.pids }) })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await waitFor(() => mcpToolNames(w.host.ctx, agent).some((n) => /^mcp__dup_[0-9a-f]{6}__mine$/.test(n)), {
    ctx: w.host.ctx,
    events: ['tools/change'],
  })
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent).filter((n) => n.endsWith('__mine')).length, 1)
  assert.ok(mcpToolNames(w.host.ctx, agent).includes('mcp__dup__host_tool'), "the host's own server is never denied")
  const row = w.mcp.snapshot().projects.find((p) => p.root === a.path)!.servers[0]!
  assert.equal(row.state, 'mounted')
  assert.match(row.effectiveName ?? '', /^dup_[0-9a-f]{6}$/)
})
