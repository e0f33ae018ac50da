/**
 * Per-project visibility on a real host with real MCP fixture servers:
 * each agent sees its own project's tools plus the globals, nothing else.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { execTool, mcpToolNames, resultText } from '../support/host.ts'
import { countLive, reapAll } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry, friendly } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

test('agents in projects A and B each see only their own tools plus globals; foreign tools are unknown to them', async (t) => {
  const w = await startWorld({ userFile: friendly({ glob: stdioEntry('glob', { tools: ['g1'] }) }) })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({ alpha: stdioEntry('alpha', { tools: ['a1', 'a2'], pidfileDir: w.pids }) })
  const b = projectWith({ beta: stdioEntry('beta', { tools: ['b1'], pidfileDir: w.pids }) })
  const agentA = (await w.host.createAgent({ cwd: a.path })).agent
  const agentB = (await w.host.createAgent({ cwd: b.join('sub') })).agent
  const lonely = (await w.host.createAgent({ cwd: w.hostDir.path })).agent
  await w.mcp.whenIdle()

  assert.deepEqual(mcpToolNames(w.host.ctx, agentA), ['mcp__alpha__a1', 'mcp__alpha__a2', 'mcp__glob__g1'])
  assert.deepEqual(mcpToolNames(w.host.ctx, agentB), ['mcp__beta__b1', 'mcp__glob__g1'])
  assert.deepEqual(mcpToolNames(w.host.ctx, lonely), ['mcp__glob__g1'])

  const own = await execTool(w.host.ctx, agentA, 'mcp__alpha__a1', {})
  assert.equal(own.isError, false, resultText(own))
  const foreign = await execTool(w.host.ctx, agentB, 'mcp__alpha__a1', {})
  assert.equal(foreign.isError, true)
  assert.match(JSON.stringify(foreign), /unknown tool/)
  const foreign2 = await execTool(w.host.ctx, agentA, 'mcp__beta__b1', {})
  assert.equal(foreign2.isError, true)

  const snap = w.mcp.snapshot()
  const pa = snap.projects.find((p) => p.root === a.path)
  assert.ok(pa, 'project A is known')
  assert.deepEqual(
    pa.servers.map((s) => [s.name, s.layer, s.state, s.toolCount, s.effectiveName]),
    [
      ['alpha', 'project', 'mounted', 2, 'alpha'],
      ['glob', 'user', 'mounted', 1, 'glob'],
    ],
  )
  await w.stop()
  assert.equal(countLive(w.pids), 0, 'no fixture process outlives the plugin')
  assert.deepEqual(mcpToolNames(w.host.ctx), [], 'every MCP tool is unregistered')
})

test("a subagent without a cwd inherits its owner's project; one with a cwd keeps its own", async (t) => {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({ alpha: stdioEntry('alpha', { tools: ['a1'], pidfileDir: w.pids }) })
  const b = projectWith({ beta: stdioEntry('beta', { tools: ['b1'], pidfileDir: w.pids }) })
  const parent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const child = (await w.host.createAgent({ owner: parent, cwd: null })).agent
  const lineage = (await w.host.createAgent({ cwd: null, meta: { parentSession: parent.session.header.id } })).agent
  const elsewhere = (await w.host.createAgent({ owner: parent, cwd: b.path })).agent
  await w.mcp.whenIdle()
  assert.equal(child.session.header.cwd, undefined)
  assert.deepEqual(mcpToolNames(w.host.ctx, child), ['mcp__alpha__a1'], 'runtime owner decides')
  assert.deepEqual(mcpToolNames(w.host.ctx, lineage), ['mcp__alpha__a1'], 'durable parentSession decides')
  assert.deepEqual(mcpToolNames(w.host.ctx, elsewhere), ['mcp__beta__b1'], 'an explicit cwd wins')
  assert.equal((await execTool(w.host.ctx, child, 'mcp__beta__b1', {})).isError, true)
})

test('a project row shadows a global one: the global is denied in that project only; globals mount once for all', async (t) => {
  const marker = `${process.env.TMPDIR ?? '/tmp'}/dsh-mcp-glob-${process.pid}-${Date.now()}.log`
  const w = await startWorld({ userFile: friendly({ github: stdioEntry('github', { tools: ['issues'], marker }) }) })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({ github: stdioEntry('github', { tools: ['local_issues'], pidfileDir: w.pids }) })
  const b = projectWith({ other: stdioEntry('other', { tools: ['o1'], pidfileDir: w.pids }) })
  const c = projectWith({})
  const agentA = (await w.host.createAgent({ cwd: a.path })).agent
  const agentB = (await w.host.createAgent({ cwd: b.path })).agent
  const agentC = (await w.host.createAgent({ cwd: c.path })).agent
  await w.mcp.whenIdle()
  const namesA = mcpToolNames(w.host.ctx, agentA)
  assert.equal(namesA.length, 1)
  assert.match(namesA[0]!, /^mcp__github_[0-9a-f]{6}__local_issues$/, 'the project row gets a root-derived suffix')
  assert.deepEqual(mcpToolNames(w.host.ctx, agentB), ['mcp__github__issues', 'mcp__other__o1'])
  assert.deepEqual(mcpToolNames(w.host.ctx, agentC), ['mcp__github__issues'])
  assert.equal(
    (await execTool(w.host.ctx, agentA, 'mcp__github__issues', {})).isError,
    true,
    'the shadowed global is unknown to A',
  )
  assert.equal((await execTool(w.host.ctx, agentC, 'mcp__github__issues', {})).isError, false)
  const { readMarker } = await import('../support/procs.ts')
  assert.equal(readMarker(marker).length, 1, 'the global server was spawned once')
  const pa = w.mcp.snapshot().projects.find((p) => p.root === a.path)!
  assert.deepEqual(
    pa.servers.map((s) => [s.name, s.layer, s.state]),
    [
      ['github', 'project', 'mounted'],
      ['github', 'user', 'shadowed'],
    ],
  )
})

test('two projects with the same server name and different configs both work; names stay stable while mounted', async (t) => {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({ docs: stdioEntry('docs', { tools: ['read_a'], pidfileDir: w.pids }) })
  const b = projectWith({ docs: stdioEntry('docs', { tools: ['read_b'], pidfileDir: w.pids }) })
  const agentA = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const agentB = (await w.host.createAgent({ cwd: b.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agentA), ['mcp__docs__read_a'], 'the first keeps its name')
  const [bName] = mcpToolNames(w.host.ctx, agentB)
  assert.match(bName ?? '', /^mcp__docs_[0-9a-f]{6}__read_b$/)
  const rb = await execTool(w.host.ctx, agentB, bName!, {})
  assert.equal(rb.isError, false, resultText(rb))
  assert.match(resultText(rb), /read_b/)

  // A third project joins and A's agent goes away and comes back: nobody is renamed.
  const c = projectWith({ docs: stdioEntry('docs', { tools: ['read_c'], pidfileDir: w.pids }) })
  const agentC = (await w.host.createAgent({ cwd: c.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agentA), ['mcp__docs__read_a'])
  assert.deepEqual(mcpToolNames(w.host.ctx, agentB), [bName])
  const [cName] = mcpToolNames(w.host.ctx, agentC)
  assert.notEqual(cName, bName)
  assert.match(cName ?? '', /^mcp__docs_[0-9a-f]{6}__read_c$/)
  const eff = (root: string) => w.mcp.snapshot().projects.find((p) => p.root === root)!.servers[0]!.effectiveName
  assert.equal(eff(a.path), 'docs')
  assert.equal(`mcp__${eff(b.path)}__read_b`, bName)
})

test('tools filters: include/exclude globs on raw names, exclude wins, per project', async (t) => {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const tools = ['read_file', 'read_dir', 'delete_file', 'write_file']
  const a = projectWith({
    fs: stdioEntry('fs', {
      tools,
      pidfileDir: w.pids,
      extra: { tools: { include: ['read_*', 'delete_*'], exclude: ['delete_*'] } },
    }),
  })
  const agentA = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agentA), ['mcp__fs__read_dir', 'mcp__fs__read_file'])
  assert.equal((await execTool(w.host.ctx, agentA, 'mcp__fs__delete_file', {})).isError, true)
  const pa = w.mcp.snapshot().projects.find((p) => p.root === a.path)!
  assert.equal(pa.servers[0]!.toolCount, 4, 'the server still registered every tool')
})
