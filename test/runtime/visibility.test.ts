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
