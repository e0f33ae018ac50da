/**
 * First turn on a real host (real agent loop, in-process stub model): the
 * first request already offers the project's tools while they were still
 * mounting; the wait is bounded; later steps never wait.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { installStubModel, userMessage } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

const offered = (req: { tools?: readonly { name: string }[] } | undefined) => (req?.tools ?? []).map((t) => t.name).filter((n) => n.startsWith('mcp__')).sort()

test("an agent whose project is still mounting sees the project's tools in its first step; later steps never wait", async (t) => {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const stub = installStubModel(w.host.ctx)
  const a = projectWith({ slow: stdioEntry('slow', { tools: ['s1'], initDelayMs: 700, pidfileDir: w.pids }) })
  const { agent } = await w.host.createAgent({ cwd: a.path, agentOptions: stub.agentOptions })
  const state = w.mcp.snapshot().projects.find((p) => p.root === a.path)!.servers[0]!.state
  assert.equal(state, 'starting', 'still mounting when the turn starts')
  agent.followup(userMessage('hello'))
  await agent.whenIdle()
  assert.equal(stub.requests.length, 1)
  assert.deepEqual(offered(stub.requests[0]), ['mcp__slow__s1'], 'offered in the very first request')

  // A second server arrives while the agent works: its next turn does not wait for it.
  writeFileSync(
    a.join('.dsh', 'mcp.yml'),
    friendly({ slow: stdioEntry('slow', { tools: ['s1'], initDelayMs: 700, pidfileDir: w.pids }), later: stdioEntry('later', { tools: ['l1'], initDelayMs: 1500, pidfileDir: w.pids }) }),
  )
  await w.mcp.reload()
  assert.equal(w.mcp.snapshot().projects.find((p) => p.root === a.path)!.servers.find((s) => s.name === 'later')!.state, 'starting')
  const started = Date.now()
  agent.followup(userMessage('again'))
  await agent.whenIdle()
  assert.ok(Date.now() - started < 1000, `a later turn did not wait (${Date.now() - started} ms)`)
  assert.deepEqual(offered(stub.requests[1]), ['mcp__slow__s1'])
  await w.mcp.whenIdle()
})

test('the first-step wait is bounded by firstStepWaitMs and skipped when nothing is pending', async (t) => {
  const w = await startWorld({ firstStepWaitMs: 300 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const stub = installStubModel(w.host.ctx)
  const a = projectWith({ glacial: stdioEntry('glacial', { tools: ['g'], initDelayMs: 4000, pidfileDir: w.pids }) })
  const { agent } = await w.host.createAgent({ cwd: a.path, agentOptions: stub.agentOptions })
  const started = Date.now()
  agent.followup(userMessage('hello'))
  await agent.whenIdle()
  const took = Date.now() - started
  assert.ok(took >= 250 && took < 2500, `waited about firstStepWaitMs (${took} ms)`)
  assert.deepEqual(offered(stub.requests[0]), [])
  assert.equal(w.host.logsMatching('first step went ahead after 300 ms').length, 1)

  // Nothing pending for a project without servers: no wait at all.
  const b = projectWith({})
  const other = (await w.host.createAgent({ cwd: b.path, agentOptions: stub.agentOptions })).agent
  await w.mcp.whenIdle()
  const t0 = Date.now()
  other.followup(userMessage('hi'))
  await other.whenIdle()
  assert.ok(Date.now() - t0 < 250, `no wait when nothing is pending (${Date.now() - t0} ms)`)
})
