/**
 * First turn on a real host (real agent loop, in-process stub model): the
 * first request already offers the project's tools while they were still
 * mounting; the wait is bounded; later steps never wait. Each claim is an
 * order of events (what was offered, what was still mounting, what was
 * logged); how long the turns take is bench row 8.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { installStubModel, userMessage } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

const offered = (req: { tools?: readonly { name: string }[] } | undefined) =>
  (req?.tools ?? [])
    .map((t) => t.name)
    .filter((n) => n.startsWith('mcp__'))
    .sort()

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
    friendly({
      slow: stdioEntry('slow', { tools: ['s1'], initDelayMs: 700, pidfileDir: w.pids }),
      later: stdioEntry('later', { tools: ['l1'], initDelayMs: 3000, pidfileDir: w.pids }),
    }),
  )
  await w.mcp.reload()
  const later = () =>
    w.mcp
      .snapshot()
      .projects.find((p) => p.root === a.path)!
      .servers.find((s) => s.name === 'later')!.state
  assert.equal(later(), 'starting')
  agent.followup(userMessage('again'))
  await agent.whenIdle()
  assert.deepEqual(offered(stub.requests[1]), ['mcp__slow__s1'])
  assert.equal(later(), 'starting', 'a later turn did not wait: it is over while the new server still mounts')
  await w.mcp.whenIdle()
})

test('the first-step wait is bounded by firstStepWaitMs and skipped when nothing is pending', async (t) => {
  const w = await startWorld({ firstStepWaitMs: 300 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const stub = installStubModel(w.host.ctx)
  const a = projectWith({ glacial: stdioEntry('glacial', { tools: ['g'], initDelayMs: 10_000, pidfileDir: w.pids }) })
  const { agent } = await w.host.createAgent({ cwd: a.path, agentOptions: stub.agentOptions })
  const started = Date.now()
  agent.followup(userMessage('hello'))
  await agent.whenIdle()
  const took = Date.now() - started
  t.diagnostic(`the first turn took ${took} ms`)
  assert.ok(took >= 250, `waited about firstStepWaitMs (${took} ms)`)
  assert.deepEqual(offered(stub.requests[0]), [], 'went ahead without the server still mounting')
  assert.equal(w.host.logsMatching('first step went ahead after 300 ms').length, 1)

  // Nothing pending for a project without servers: no wait at all.
  const b = projectWith({})
  const other = (await w.host.createAgent({ cwd: b.path, agentOptions: stub.agentOptions })).agent
  await w.mcp.whenIdle()
  other.followup(userMessage('hi'))
  await other.whenIdle()
  assert.equal(stub.requests.length, 2)
  assert.equal(
    w.host.logsMatching('first step went ahead').length,
    1,
    'no wait when nothing is pending: the bound was not reached again',
  )
})
