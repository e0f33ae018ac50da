/**
 * Probe tests, part 2: how a step runs on the REAL rc.8 packages — the
 * `agent/pre-step` waterfall, `system-prompt/assemble` (where a step's tools
 * are collected), and subagents and their owners. Part 1
 * (`facts.test.ts`) covers mounting, restrict, `tools/change` and the
 * creation events. Findings: docs/adaptation/dsh-0.1.0-rc.8.md.
 *
 * Run: node_modules/.bin/node --test test/host-probes/steps.test.ts
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import type { Agent, PreStepDecision } from '@deepseek-ai/dsh-agent'
import {
  createHost,
  createSubagent,
  deferred,
  installStubModel,
  nextEvent,
  testTool,
  textResponse,
  toolCallResponse,
  toolNames,
  userMessage,
  waitFor,
} from '../support/host.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => {
  cleanupAll()
})

test('(f) agent/pre-step is an awaited waterfall (payload, next): awaiting delays the step; tools were snapshotted before it', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  const stub = installStubModel(ctx)
  const { agent } = await host.createAgent({ agentOptions: stub.agentOptions })
  const other = await host.createAgent({ agentOptions: stub.agentOptions })

  const gate = deferred()
  const payloads: { keys: string[]; turn: number; step: number; messages: number; signal: boolean }[] = []
  const rootSeen: string[] = []
  ctx.on('agent/pre-step', async (payload, next) => {
    rootSeen.push(payload.agent.id)
    return next()
  })
  agent.ctx.on('agent/pre-step', async (payload, next) => {
    payloads.push({
      keys: Object.keys(payload).sort(),
      turn: payload.turn,
      step: payload.step,
      messages: payload.messages.length,
      signal: payload.signal instanceof AbortSignal,
    })
    if (payload.step === 1) await gate.promise
    const decision: PreStepDecision = await next()
    return decision
  })

  stub.push(toolCallResponse('late', {}), textResponse('done'))
  agent.followup(userMessage('hello'))
  await waitFor(() => payloads.length === 1, { message: 'pre-step entered' })
  assert.equal(agent.status, 'running')
  assert.equal(stub.requests.length, 0, 'no model request while pre-step awaits')
  assert.ok(!agent.session.events.some((e) => e.type === 'step/start'), 'step/start not yet appended')

  // A tool registered while pre-step awaits is NOT offered in this step's request
  // (the prompt/tool assembly ran before the waterfall) — only in the next step.
  ctx.tools.register(testTool('late', async () => 'late-result'))
  gate.resolve()
  await agent.whenIdle()
  assert.equal(stub.requests.length, 2)
  assert.deepEqual(
    (stub.requests[0]?.tools ?? []).map((s) => s.name),
    [],
    'step 1: snapshot taken before pre-step',
  )
  assert.deepEqual(
    (stub.requests[1]?.tools ?? []).map((s) => s.name),
    ['late'],
    'step 2 sees it',
  )
  // …yet the model's call to it in step 1 executed: execution resolves by name at call time.
  const toolResult = agent.session.events.find((e) => e.type === 'tool/result')
  assert.ok(toolResult, 'the tool ran')

  assert.deepEqual(payloads[0], {
    keys: ['agent', 'messages', 'signal', 'step', 'turn'],
    turn: 1,
    step: 1,
    messages: 1,
    signal: true,
  })
  assert.equal(payloads[1]?.step, 2, 'fires again for every step of the turn')
  assert.deepEqual(rootSeen, [agent.id, agent.id], 'a root-ctx listener sees every agent (here only one ran)')

  // Scope filtering: agent.ctx listener never sees the other agent.
  const before = payloads.length
  other.agent.followup(userMessage('other'))
  await other.agent.whenIdle()
  assert.equal(payloads.length, before, 'scoped listener ignores other agents')
  assert.equal(rootSeen.at(-1), other.agent.id, 'root listener sees the other agent')
})

test('(f2) agent/pre-step without a model: reject → turn "blocked" with no request; throw → turn "error"; no adapter → fires, then errors', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  const stub = installStubModel(ctx)
  const turnEnd = (agent: Agent) =>
    agent.session.events.find((e) => e.type === 'turn/end')?.data as {
      reason: { kind: string; error?: { message: string } }
    }

  const rejecting = await host.createAgent({ agentOptions: stub.agentOptions })
  rejecting.agent.ctx.on('agent/pre-step', async () => ({ kind: 'reject' as const }))
  rejecting.agent.followup(userMessage('x'))
  await rejecting.agent.whenIdle()
  assert.equal(stub.requests.length, 0)
  assert.equal(turnEnd(rejecting.agent).reason.kind, 'blocked')

  const errors: string[] = []
  ctx.on('agent/error', ({ error }) => {
    errors.push(String(error))
  })
  const throwing = await host.createAgent({ agentOptions: stub.agentOptions })
  throwing.agent.ctx.on('agent/pre-step', async () => {
    throw new Error('pre-step boom')
  })
  throwing.agent.followup(userMessage('x'))
  await throwing.agent.whenIdle()
  assert.equal(stub.requests.length, 0)
  assert.equal(turnEnd(throwing.agent).reason.kind, 'error')
  assert.equal(turnEnd(throwing.agent).reason.error?.message, 'pre-step boom')
  assert.deepEqual(errors, ['Error: pre-step boom'])

  const modelless = await host.createAgent() // no provider/model at all
  let fired = 0
  modelless.agent.ctx.on('agent/pre-step', async (_p, next) => {
    fired++
    return next()
  })
  modelless.agent.followup(userMessage('x'))
  await modelless.agent.whenIdle()
  assert.equal(fired, 1)
  assert.match(turnEnd(modelless.agent).reason.error?.message ?? '', /has no provider\/model/)
})

test('(f3) system-prompt/assemble (agent-scoped waterfall, runs before agent/pre-step) can await readiness and still change the tools offered in the same step', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  const stub = installStubModel(ctx)
  const order: string[] = []

  // Variant 1: await, then re-run the whole assembly (exact: tool order, presentation mode).
  const a = await host.createAgent({ agentOptions: stub.agentOptions })
  const gateA = deferred()
  const reassembly = new WeakSet<object>()
  let enteredA = 0
  a.agent.ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
    enteredA++
    order.push('assemble')
    if (reassembly.has(context)) return next()
    assert.equal(context.agent, a.agent, 'context carries { agent, scope, signal }')
    await gateA.promise
    const again = { ...context }
    reassembly.add(again)
    return ctx.systemPrompt.assemble(again)
  })
  a.agent.ctx.on('agent/pre-step', async (_p, next) => {
    order.push('pre-step')
    return next()
  })
  a.agent.followup(userMessage('x'))
  await waitFor(() => enteredA === 1)
  assert.equal(stub.requests.length, 0, 'awaiting in assemble also holds the step')
  ctx.tools.register(testTool('late_a'))
  gateA.resolve()
  await a.agent.whenIdle()
  assert.deepEqual(
    (stub.requests[0]?.tools ?? []).map((s) => s.name),
    ['late_a'],
    'offered in the very first request',
  )
  assert.deepEqual(
    order,
    ['assemble', 'assemble', 'pre-step'],
    'assemble (and our nested re-assembly) runs before pre-step',
  )

  // Variant 2: await, then replace assembly.tools with the registry's current view.
  const b = await host.createAgent({ agentOptions: stub.agentOptions })
  const gateB = deferred()
  let enteredB = 0
  b.agent.ctx.on('system-prompt/assemble', async (_assembly, _context, next) => {
    enteredB++
    await gateB.promise
    const assembled = await next()
    return { ...assembled, tools: ctx.tools.schemas(b.agent) }
  })
  const n = stub.requests.length
  b.agent.followup(userMessage('y'))
  await waitFor(() => enteredB === 1)
  ctx.tools.register(testTool('late_b'))
  gateB.resolve()
  await b.agent.whenIdle()
  assert.deepEqual((stub.requests[n]?.tools ?? []).map((s) => s.name).sort(), ['late_a', 'late_b'])
})

test('(g) a subagent is created through parent.ctx.agents.create; its owner is found via isOwnedBy / header.parentSession / currentInitiator', async (t) => {
  const host = await createHost({ cwd: '/tmp' })
  t.after(() => host.dispose())
  const { ctx } = host
  const stub = installStubModel(ctx)
  const { agent: parent } = await host.createAgent({ sessionId: 'parent', agentOptions: stub.agentOptions })

  // The realistic path: a tool call during the parent's turn creates the child.
  let child: Agent | undefined
  ctx.tools.register(
    testTool('spawn_child', async (_args, exec) => {
      assert.ok(exec.agent, 'tool exec carries the calling agent')
      child = (await createSubagent(host, exec.agent, { sessionId: 'child' })).agent
      return child.id
    }),
  )
  const atCreated: Record<string, unknown> = {}
  ctx.on('agent/created', ({ agent }) => {
    if (agent.id !== 'child') return
    atCreated.initiator = ctx.agents.currentInitiator()?.id
    atCreated.isOwnedBy = ctx.agents.isOwnedBy(agent.id, parent)
    atCreated.ownerByScan = ctx.agents.list().find((a) => ctx.agents.isOwnedBy(agent.id, a))?.id
    atCreated.parentSession = agent.session.header.parentSession
    atCreated.ctxAgent = agent.ctx.agent?.id
  })
  stub.push(toolCallResponse('spawn_child', {}), textResponse('done'))
  parent.followup(userMessage('spawn'))
  await parent.whenIdle()
  assert.ok(child)
  assert.deepEqual(atCreated, {
    initiator: 'parent', // ctx.agents.currentInitiator(): the parent's driver chain
    isOwnedBy: true,
    ownerByScan: 'parent',
    parentSession: 'parent',
    ctxAgent: 'child', // agent.ctx.agent is the agent itself, never the parent
  })
  assert.deepEqual(
    { cwd: child.session.header.cwd, origin: child.session.header.origin, depth: child.session.header.delegationDepth },
    { cwd: '/tmp', origin: 'subagent', depth: 1 },
  )
  assert.deepEqual(
    ctx.agents.roots().map((a) => a.id),
    ['parent'],
    'roots() lists only unowned agents',
  )
  assert.equal(ctx.agents.isOwnedBy(parent.id, child), false)
  assert.equal(ctx.agents.currentInitiator(), undefined, 'outside a driver chain there is no initiator')
  assert.equal('parent' in child || 'owner' in child, false, 'the Agent object has no parent/owner field')
})

test('(g2) a child does not inherit the parent scope (tools, restrictions); disposing the parent disposes the child first', async (t) => {
  const host = await createHost({ cwd: '/tmp' })
  t.after(() => host.dispose())
  const { ctx } = host
  ctx.tools.register(testTool('global_a'))
  ctx.tools.register(testTool('global_b'))
  const parent = await host.createAgent({ sessionId: 'p' })
  parent.agent.ctx.tools.register(testTool('parent_scoped'))
  parent.agent.ctx.tools.restrict({ deny: ['global_a'] })
  const child = await createSubagent(host, parent.agent, { sessionId: 'c' })
  assert.deepEqual(toolNames(ctx, parent.agent), ['global_b', 'parent_scoped'])
  assert.deepEqual(toolNames(ctx, child.agent), ['global_a', 'global_b'], 'child sees globals only: no parent scope')
  assert.equal(ctx.agents.currentInitiator(), undefined)
  assert.equal(
    ctx.agents.isOwnedBy('c' as never, parent.agent),
    true,
    'direct parent.ctx.agents.create also sets the owner',
  )

  const disposed: string[] = []
  ctx.on('agent/disposed', ({ agent }) => {
    disposed.push(agent.id)
  })
  const childGone = nextEvent(ctx, 'agent/disposed', (p) => (p as { agent: Agent }).agent.id === 'c')
  await parent.dispose()
  await childGone
  assert.deepEqual(disposed, ['c', 'p'], 'child torn down before its owner')
})
