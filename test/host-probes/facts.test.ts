/**
 * Probe tests: the host surface dsh-project-mcp depends on, proven against the
 * REAL rc.8 packages (no mocks). Findings are written up in
 * docs/adaptation/dsh-0.1.0-rc.8.md ("Verified host surface (probe tests)");
 * every claim there names the test (here or in steps.test.ts) that shows it.
 *
 * Run: node_modules/.bin/node --test test/host-probes/facts.test.ts
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { after, test } from 'node:test'
import { symbols } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import {
  HTTP_FIXTURE,
  createHost,
  execTool,
  httpFixtureConfig,
  mcpToolNames,
  resultText,
  stdioFixtureConfig,
  testTool,
  toolNames,
  waitFor,
} from '../support/host.ts'
import { countLive, readMarker, reapAll } from '../support/procs.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

const pidDirs: string[] = []
after(() => {
  for (const dir of pidDirs) reapAll(dir)
  cleanupAll()
})

test('(a) stdio fixture mounts through dsh-mcp-client: mcp__a__* registered, calls answered, child reaped on dispose', async (t) => {
  const project = makeProject()
  const pids = makeTempDir('probe-pids-')
  pidDirs.push(pids.path)
  const marker = pids.join('marker')
  const host = await createHost({ cwd: project.path })
  t.after(() => host.dispose())
  const { ctx } = host

  // Inherited env is captured at spawn time.
  process.env.PROBE_API_TOKEN = 'must-not-leak'
  process.env.PROBE_PLAIN = 'inherited'
  t.after(() => {
    delete process.env.PROBE_API_TOKEN
    delete process.env.PROBE_PLAIN
  })
  const fiber = await host.mountMcp(
    stdioFixtureConfig({
      serverName: 'a',
      tools: ['echo', 'add', 'cwd'],
      cwd: project.path,
      marker,
      pidfileDir: pids.path,
      echoEnv: 'PROBE_VALUE',
      env: { PROBE_VALUE: '42' },
    }),
  )
  assert.equal(fiber.state, 2, 'an awaited mount is active (state 2)')
  assert.deepEqual(mcpToolNames(ctx), ['mcp__a__add', 'mcp__a__cwd', 'mcp__a__echo', 'mcp__a__echo_env'])

  const { agent } = await host.createAgent()
  assert.deepEqual(mcpToolNames(ctx, agent), mcpToolNames(ctx), 'global tools are visible to every agent')

  const echo = await execTool(ctx, agent, 'mcp__a__echo', { text: 'hi' })
  assert.equal(echo.isError, false)
  assert.equal(resultText(echo), '[a] echo: hi')
  assert.equal(resultText(await execTool(ctx, agent, 'mcp__a__add', { a: 2, b: 3 })), '[a] add: 5')
  assert.equal(
    resultText(await execTool(ctx, undefined, 'mcp__a__echo', { text: 'x' })),
    '[a] echo: x',
    'agentless call works',
  )
  assert.equal(
    resultText(await execTool(ctx, agent, 'mcp__a__cwd')),
    `[a] cwd: ${project.path}`,
    'config.cwd is the child cwd',
  )
  assert.equal(
    resultText(await execTool(ctx, agent, 'mcp__a__echo_env')),
    '[a] env PROBE_VALUE=42',
    'config.env reaches the child',
  )
  assert.equal(
    resultText(await execTool(ctx, agent, 'mcp__a__echo_env', { name: 'PROBE_API_TOKEN' })),
    '[a] env PROBE_API_TOKEN=<unset>',
    'credential-shaped names are scrubbed from the inherited env',
  )
  assert.equal(
    resultText(await execTool(ctx, agent, 'mcp__a__echo_env', { name: 'PROBE_PLAIN' })),
    '[a] env PROBE_PLAIN=inherited',
  )

  assert.equal(readMarker(marker).length, 1, 'exactly one spawn')
  assert.equal(countLive(pids.path), 1)

  await fiber.dispose()
  assert.equal(fiber.state, 4)
  assert.deepEqual(mcpToolNames(ctx), [], 'dispose unregisters every tool')
  await waitFor(() => countLive(pids.path) === 0, { message: 'stdio child exits after dispose' })
})

test('(b) streamable-HTTP fixture (in-process) mounts with a bearer header; 401 without it', async (t) => {
  const srv = await startHttpServer({ name: 'h', tools: ['echo', 'add'], requireBearer: 'sesame' })
  const host = await createHost()
  t.after(async () => {
    await host.dispose()
    await srv.close()
  })
  const { ctx } = host

  const fiber = await host.mountMcp(httpFixtureConfig('h', srv.url, { headers: { authorization: 'Bearer sesame' } }))
  assert.equal(fiber.state, 2)
  assert.deepEqual(mcpToolNames(ctx), ['mcp__h__add', 'mcp__h__echo'])
  const { agent } = await host.createAgent()
  const before = srv.requests
  assert.equal(resultText(await execTool(ctx, agent, 'mcp__h__echo', { text: 'over http' })), '[h] echo: over http')
  assert.ok(srv.requests > before, 'the call reached the HTTP server')
  assert.equal(srv.unauthorized, 0)

  // Without the header: 401; with failOnStartupError the activation rejects.
  await assert.rejects(
    host.mountMcp(httpFixtureConfig('h_noauth', srv.url, { failOnStartupError: true })),
    /mcp-client\(h_noauth\): initial connection or tool synchronization failed/,
  )
  assert.ok(srv.unauthorized >= 1)
  assert.ok(host.logsMatching('Unauthorized').length >= 1, 'the 401 is visible in captured logs')
  assert.deepEqual(mcpToolNames(ctx), ['mcp__h__add', 'mcp__h__echo'])
})

test('(b2) streamable-HTTP fixture runs as a child process and prints its URL', async (t) => {
  const child = spawn(process.execPath, ['--no-warnings', HTTP_FIXTURE, '--name', 'hc', '--tools', 'echo'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  const url = await new Promise<string>((resolve, reject) => {
    let buf = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      buf += chunk
      const line = buf.split('\n')[0]
      if (buf.includes('\n') && line !== undefined) resolve(line.trim())
    })
    child.once('exit', (code) => reject(new Error(`http fixture exited early (${code})`)))
  })
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
  const host = await createHost()
  t.after(() => host.dispose())
  await host.mountMcp(httpFixtureConfig('hc', url))
  assert.equal(resultText(await execTool(host.ctx, undefined, 'mcp__hc__echo', { text: 'child' })), '[hc] echo: child')
  await host.dispose()
  const exited = once(child, 'exit')
  child.stdin.end() // closing stdin stops the child fixture
  const [code] = await exited
  assert.equal(code, 0)
})

test('(c) agent.ctx.tools.restrict({deny}) hides a tool for that agent only; errors; lifted on agent dispose', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  await host.mountMcp(stdioFixtureConfig({ serverName: 'r', tools: ['echo', 'add'] }))
  const a = await host.createAgent()
  const b = await host.createAgent()

  const lift = a.agent.ctx.tools.restrict({ deny: ['mcp__r__echo'] })
  assert.equal(typeof lift, 'function')
  assert.deepEqual(mcpToolNames(ctx, a.agent), ['mcp__r__add'])
  assert.deepEqual(mcpToolNames(ctx, b.agent), ['mcp__r__add', 'mcp__r__echo'], 'other agents unaffected')
  assert.deepEqual(mcpToolNames(ctx), ['mcp__r__add', 'mcp__r__echo'], 'global view unaffected')
  assert.equal(ctx.tools.get('mcp__r__echo', a.agent), undefined)
  assert.ok(ctx.tools.get('mcp__r__echo', b.agent))

  const denied = await execTool(ctx, a.agent, 'mcp__r__echo', { text: 'x' })
  assert.equal(denied.isError, true)
  assert.equal(denied.error?.message, 'unknown tool "mcp__r__echo"')
  assert.equal(denied.error?.info?.code, 'UNKNOWN_TOOL')
  assert.equal(resultText(await execTool(ctx, b.agent, 'mcp__r__echo', { text: 'x' })), '[r] echo: x')

  assert.throws(
    () => a.agent.ctx.tools.restrict({ deny: ['mcp__r__nope'] }),
    /tools\.restrict\(\) names unknown global tool "mcp__r__nope"/,
  )
  assert.throws(() => a.agent.ctx.tools.restrict({}), /tools\.restrict\(\{\}\) is a no-op/)
  assert.throws(
    () => ctx.tools.restrict({ deny: ['mcp__r__echo'] }),
    /tools\.restrict\(\) requires a scoped context \(agent\.ctx\)/,
  )

  // Lifting by hand restores visibility; a second restriction is lifted by agent dispose.
  lift()
  assert.deepEqual(mcpToolNames(ctx, a.agent), ['mcp__r__add', 'mcp__r__echo'])
  const lift2 = a.agent.ctx.tools.restrict({ deny: ['mcp__r__add'] })
  let changes = 0
  const off = ctx.on('tools/change', () => {
    changes++
  })
  await a.dispose()
  off()
  assert.equal(changes, 1, 'agent dispose lifts its restriction (one tools/change)')
  assert.deepEqual(
    mcpToolNames(ctx, a.agent),
    ['mcp__r__add', 'mcp__r__echo'],
    'disposed agent key has no restriction left',
  )
  lift2() // calling the lift after dispose is a harmless no-op
  assert.throws(() => a.agent.ctx.tools.restrict({ deny: ['mcp__r__add'] }), /cannot create effect on inactive context/)
})

test('(c2) a deny matches by name: it survives the tool being unregistered and registered again', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  const unregister = ctx.tools.register(testTool('flaky'))
  const { agent } = await host.createAgent()
  agent.ctx.tools.restrict({ deny: ['flaky'] })
  unregister()
  assert.equal(ctx.tools.get('flaky'), undefined)
  ctx.tools.register(testTool('flaky'))
  assert.ok(ctx.tools.get('flaky'), 'registered again globally')
  assert.equal(ctx.tools.get('flaky', agent), undefined, 'still denied for the agent')
  assert.ok(!toolNames(ctx, agent).includes('flaky'))
})

test('(d) tools/change fires synchronously, with no arguments, on register, unregister, restrict and lift', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  const { agent } = await host.createAgent()
  const calls: unknown[][] = []
  ctx.on('tools/change', (...args: unknown[]) => {
    calls.push(args)
  })
  const unregister = ctx.tools.register(testTool('p1'))
  assert.equal(calls.length, 1, 'register → 1 (synchronous: counted before register returned)')
  assert.deepEqual(calls[0], [], 'no payload')
  const lift = agent.ctx.tools.restrict({ deny: ['p1'] })
  assert.equal(calls.length, 2, 'restrict → 1')
  lift()
  assert.equal(calls.length, 3, 'lift → 1')
  unregister()
  assert.equal(calls.length, 4, 'unregister → 1')
  const scoped = agent.ctx.tools.register(testTool('p_scoped'))
  assert.equal(calls.length, 5, 'scoped register → 1 (unfiltered: root listener sees it)')
  scoped()
  assert.equal(calls.length, 6)

  // An MCP mount registers one tool at a time: one tools/change per tool.
  const before = calls.length
  const fiber = await host.mountMcp(stdioFixtureConfig({ serverName: 'd', tools: ['echo', 'add', 'pid'] }))
  assert.equal(calls.length - before, 3, 'mount of 3 tools → 3')
  await fiber.dispose()
  assert.equal(calls.length - before, 6, 'dispose of 3 tools → 3')

  // Restricting inside a tools/change listener re-enters the listener once.
  ctx.tools.register(testTool('p2'))
  let depth = 0
  let maxDepth = 0
  let restricted = false
  const off = ctx.on('tools/change', () => {
    depth++
    maxDepth = Math.max(maxDepth, depth)
    if (!restricted) {
      restricted = true
      agent.ctx.tools.restrict({ deny: ['p2'] })
    }
    depth--
  })
  const n = calls.length
  ctx.tools.register(testTool('p3'))
  off()
  assert.equal(calls.length - n, 2, 'register + the nested restrict')
  assert.equal(maxDepth, 2, 're-entered synchronously')
})

test('(e) ctx.agents.create emits agent/created then agent/session-start {source:"startup"}; a sync throw in agent/created vetoes', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  const seen: string[] = []
  let created: Agent | undefined
  let startSource: string | undefined
  ctx.on('session/created', (session: { id: string }) => {
    seen.push(`session/created:${session.id}`)
  })
  ctx.on('agent/created', ({ agent }) => {
    created = agent
    seen.push(`agent/created:${agent.id}`)
  })
  ctx.on('agent/session-start', ({ agent, source }) => {
    startSource = source
    seen.push(`agent/session-start:${agent.id}`)
  })
  ctx.on('agent/disposed', ({ agent }) => {
    seen.push(`agent/disposed:${agent.id}`)
  })
  const handle = await host.createAgent({ sessionId: 'e1', cwd: '/tmp' })
  assert.deepEqual(
    seen,
    ['session/created:e1', 'agent/created:e1', 'agent/session-start:e1'],
    'all emitted before create() resolves',
  )
  assert.equal(created, handle.agent)
  assert.equal(startSource, 'startup')
  assert.equal(handle.agent.session.header.cwd, '/tmp')
  assert.equal(handle.agent.id, handle.agent.session.id)
  assert.equal(ctx.agents.get(handle.agent.id as never), handle.agent)
  assert.equal(handle.agent.status, 'idle')
  await handle.dispose()
  assert.equal(seen.at(-1), 'agent/disposed:e1')
  assert.equal(ctx.agents.get(handle.agent.id as never), undefined)

  // Veto: a synchronous throw in an agent/created listener rejects create().
  const off = ctx.on('agent/created', ({ agent }) => {
    if (agent.id === 'vetoed') throw new Error('veto!')
  })
  await assert.rejects(host.createAgent({ sessionId: 'vetoed' }), /veto!/)
  off()
  assert.equal(ctx.agents.get('vetoed' as never), undefined)
  assert.ok(seen.includes('agent/disposed:vetoed'), 'the vetoed announcement is paired by agent/disposed')
})

test('(h) ctx.tools[symbols.original] is the tool registry itself: its schemas() lists exactly what ctx.tools.schemas() lists', async (t) => {
  const host = await createHost()
  t.after(() => host.dispose())
  const { ctx } = host
  for (let i = 0; i < 200; i++) ctx.tools.register(testTool(`mcp__s__t${i}`))
  const agent = (await host.createAgent()).agent
  agent.ctx.tools.restrict({ deny: ['mcp__s__t0'] })
  const raw = (ctx.tools as unknown as Record<symbol, typeof ctx.tools>)[symbols.original]!
  assert.equal(typeof raw.schemas, 'function')
  const names = (list: { name: string }[]) => list.map((s) => s.name)
  assert.deepEqual(names(raw.schemas()), names(ctx.tools.schemas()), 'the global view, in registration order')
  assert.equal(names(raw.schemas()).length, 200, 'an agent restriction is not in the global view')
  const off = ctx.tools.register(testTool('mcp__s__late'))
  assert.deepEqual(names(raw.schemas()), names(ctx.tools.schemas()), 'a registration is seen at once')
  off()
  assert.equal(names(raw.schemas()).includes('mcp__s__late'), false)
})
