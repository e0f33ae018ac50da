/**
 * A call made as an agent that does not see a tool never reaches its server
 * (issue 24, item 8a). On a real host in process, projects A and B each run a
 * stdio fixture with a `mark` tool (it appends to a marker file: the call
 * reached that server). An agent of A:
 * - while it is disposed, a later `agent/disposed` listener's call as that
 *   agent to B's `mark` is refused (rc.8 lifts the agent's restrictions
 *   before it emits `agent/disposed`, and its context can take no new one:
 *   such a listener does list B's tools — the guard is what holds);
 * - after its dispose, the same call with the agent's reference is refused;
 * - alive, a call to B's tool is refused (the restriction, and the guard);
 * and a call with no agent to a project tool is refused (the global view).
 * B's marker file stays absent through all of them; control: B's own agent
 * calls its `mark` and the marker is written.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { execTool, mcpToolNames, resultText } from '../support/host.ts'
import { type RuntimeWorld, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir, type TempDir } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'

let w: RuntimeWorld
let a: TempDir
let b: TempDir
let marks: TempDir
const B_MARK = 'mcp__bravo__mark'

before(async () => {
  w = await startWorld()
  marks = makeTempDir('dsh-mcp-guard-marks-')
  a = projectWith({ alpha: stdioEntry('alpha', { tools: ['mark', 'echo'] }) })
  b = projectWith({ bravo: stdioEntry('bravo', { tools: ['mark', 'echo'] }) })
  const bAgent = (await w.host.createAgent({ cwd: b.path })).agent
  await w.mcp.whenIdle()
  await waitFor(() => mcpToolNames(w.host.ctx, bAgent).includes(B_MARK), { message: "B's tools registered" })
})

after(async () => {
  await w?.dispose()
  cleanupAll()
})

const refused = (text: string) => /not available to this agent|unknown tool|UNKNOWN_TOOL/i.test(text)

test("an agent being disposed: a later listener's call as that agent to B never reaches B", async () => {
  const file = marks.join('disposing')
  const handle = await w.host.createAgent({ cwd: a.path })
  const agent = handle.agent
  await w.mcp.whenIdle()
  await waitFor(() => mcpToolNames(w.host.ctx, agent).includes('mcp__alpha__mark'), { message: "A's tools visible" })
  assert.ok(!mcpToolNames(w.host.ctx, agent).includes(B_MARK))
  let call: Promise<string> | undefined
  // Registered after the plugin's own listener: runs later in the same emission.
  const off = w.host.ctx.on('agent/disposed', (payload: { agent?: Agent }) => {
    if (payload?.agent !== agent) return
    call = execTool(w.host.ctx, agent, B_MARK, { file }).then(resultText)
  })
  try {
    await handle.dispose()
    await waitFor(() => call, { message: 'the later listener ran' })
    const text = await call!
    assert.ok(refused(text), text)
    // After the dispose, with the agent's reference kept.
    const later = resultText(await execTool(w.host.ctx, agent, B_MARK, { file }))
    assert.ok(refused(later), later)
    assert.equal(existsSync(file), false, 'B never ran the call')
  } finally {
    off()
  }
})

test("a live agent of A and an agentless call cannot run B's tool; B's own agent can (control)", async () => {
  const file = marks.join('live')
  const { agent } = await w.host.createAgent({ cwd: a.path })
  await w.mcp.whenIdle()
  for (const caller of [agent, undefined]) {
    const text = resultText(await execTool(w.host.ctx, caller, B_MARK, { file }))
    assert.ok(refused(text), `${caller ? 'agent of A' : 'no agent'}: ${text}`)
  }
  assert.equal(existsSync(file), false, 'B never ran the calls')
  const own = (await w.host.createAgent({ cwd: b.path })).agent
  await w.mcp.whenIdle()
  const text = resultText(await execTool(w.host.ctx, own, B_MARK, { file }))
  assert.match(text, /\[bravo\] marked/)
  assert.equal(readFileSync(file, 'utf8'), 'bravo call\n')
})
