/**
 * End to end through the real `dsh` CLI (rc.8, headless profile) and the real
 * package tarball: `dsh plugin --profile headless add <tgz>` mounts the plugin
 * from its bundle patch; two trusted projects A and B (each a git dir with its
 * own `.dsh/mcp.yml` running the stdio fixture under Node 22) each get exactly
 * their own MCP tools offered to the model, a tool call reaches that project's
 * server and its result comes back in the next request, and the final text
 * lands on stdout with exit 0. An untrusted project C is offered none of its
 * tools and its server is never started. A lazy server in project D, once
 * its cache is warm, is offered in the first request before it has started;
 * the model's call starts it and the result comes back.
 *
 * Every dsh run is `env -i` with HOME, PATH (Node 22 first), DSH_HOME,
 * DEEPSEEK_BASE_URL/DEEPSEEK_API_KEY of the fake model on 127.0.0.1, plus a
 * host patch (hmr row; `llm-deepseek` with no retries, thinking disabled).
 * One DSH_HOME serves the whole file: the plugin is installed into it and
 * trust is stored in it (boot rewrites the profile's cordis.yml each run).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { countLive, reapAll, readMarker } from '../support/procs.ts'
import {
  type DshCli,
  NODE22,
  type RunResult,
  describeRun,
  ensureDshCli,
  installEnv,
  isolatedEnv,
  reapDshChildren,
  runDsh,
  runIsolated,
  writeHostPatch,
} from '../support/dsh-cli.ts'
import {
  type FakeModel,
  type ModelRequest,
  type Responder,
  messageText,
  startFakeModel,
  toolResults,
} from '../support/fake-model.ts'
import { type TempDir, cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { type Tarball, packTarball } from '../support/tarball.ts'
import { newestStatusFile } from '../support/trust.ts'

interface Project {
  readonly dir: TempDir
  readonly server: string
  readonly tools: readonly string[]
  readonly marker: string
  /** Public tool names the model should see: `mcp__<server>__<tool>`. */
  readonly publicTools: readonly string[]
}

let cli: DshCli
let tarball: Tarball
let model: FakeModel
let work: TempDir
let baseEnv: Record<string, string>
let hostPatch: string
let pidDir: string
const projects: Record<'A' | 'B' | 'C' | 'D', Project> = {} as Record<'A' | 'B' | 'C' | 'D', Project>

function makeMcpProject(server: string, tools: string[], extra = ''): Project {
  const marker = work.join('markers', `${server}.marker`)
  const args = stdioFixtureArgs({ name: server, tools, marker, pidfileDir: pidDir })
  const yml = `servers:\n  ${server}:\n    command: ${JSON.stringify(NODE22)}\n    args: ${JSON.stringify(args)}\n${extra}`
  const dir = makeProject(
    { '.dsh/mcp.yml': yml, 'README.md': `project with MCP server ${server}\n` },
    `dsh-e2e-${server}-`,
  )
  return { dir, server, tools, marker, publicTools: tools.map((t) => `mcp__${server}__${t}`) }
}

before(async () => {
  const t0 = Date.now()
  cli = await ensureDshCli()
  const t1 = Date.now()
  work = makeTempDir('dsh-e2e-cli-')
  work.mkdir('markers')
  pidDir = work.mkdir('pids')
  tarball = packTarball(work.mkdir('pack'))
  const t2 = Date.now()
  model = await startFakeModel()
  const home = work.mkdir('home')
  baseEnv = isolatedEnv(cli, { home, dshHome: join(home, '.dsh') })
  hostPatch = writeHostPatch(work.join('host.patch.yml'), model.baseURL)
  const add = await runDsh(cli, ['plugin', '--profile', 'headless', 'add', tarball.file], {
    cwd: home,
    env: { ...baseEnv, ...installEnv() },
    timeoutMs: 300_000,
  })
  assert.equal(add.code, 0, `dsh plugin add failed\n${describeRun(add)}`)
  const t3 = Date.now()
  // The CLI exactly as shipped and installed (never the repo's lib/, which a parallel build may be rewriting).
  const shippedCli = join(
    baseEnv.DSH_HOME!,
    'profiles',
    'headless',
    'node_modules',
    'dsh-project-mcp',
    'bin',
    'dsh-mcp.js',
  )
  projects.A = makeMcpProject('alpha', ['echo', 'alpha_note'])
  projects.B = makeMcpProject('beta', ['add', 'beta_note'])
  projects.C = makeMcpProject('gamma', ['echo', 'gamma_note'])
  projects.D = makeMcpProject('delta', ['add', 'delta_note'], '    lifecycle: lazy\n')
  for (const p of [projects.A, projects.B, projects.D]) {
    const trust = await runIsolated(NODE22, [shippedCli, 'trust', '--all', '--yes', '-C', p.dir.path], {
      cwd: work.path,
      env: baseEnv,
    })
    assert.equal(trust.code, 0, `dsh-mcp trust failed\n${describeRun(trust)}`)
  }
  console.log(
    `setup: dsh ${cli.installed ? 'install' : 'cache hit'} ${t1 - t0} ms, build ${tarball.buildMs} ms + pack ${tarball.packMs} ms, plugin add ${t3 - t2} ms, trust ${Date.now() - t3} ms`,
  )
})

after(async () => {
  reapDshChildren()
  if (pidDir !== undefined) reapAll(pidDir)
  await model?.close()
  cleanupAll()
})

/** Run one headless task in `cwd` against the fake model answering with `responder`. */
async function runTask(
  cwd: string,
  task: string,
  responder: Responder,
): Promise<{ run: RunResult; turns: ModelRequest[] }> {
  const from = model.requests.length
  model.respond(responder)
  const run = await runDsh(cli, ['--profile', 'headless', '--patch', hostPatch, task], {
    cwd,
    env: { ...baseEnv, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-e2e' },
    timeoutMs: 60_000,
  })
  console.log(`dsh run in ${cwd}: ${run.ms} ms, exit ${run.code}`)
  return { run, turns: model.turns(from) }
}

/** Poll (bounded) until no fixture process is alive: dsh must not leave MCP servers behind. */
async function fixturesGone(timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs
  while (countLive(pidDir) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
  return countLive(pidDir)
}

/** The responder for a trusted project: call `tool` once, then answer with what came back. */
function callThenReport(tool: string, args: Record<string, unknown>, label: string): Responder {
  return (request) => {
    const last = request.body.messages?.at(-1)
    if (last?.role === 'tool') return { text: `${label} done: ${messageText(last)}` }
    if (request.toolNames.includes(tool)) return { toolCalls: [{ name: tool, arguments: args, id: `call-${label}` }] }
    return { text: `${label}: tool ${tool} was not offered` }
  }
}

/** The plugin's status file for a project root (docs/guide/status.md): `[name, state, toolCount]` per server. */
function statusOf(root: string): [string, string, number][] {
  // One file per host (`<hash>.<host pid>.json`): the host of this test's run.
  const file = newestStatusFile(baseEnv.DSH_HOME!, root)
  assert.ok(file && existsSync(file), `the plugin saw ${root} and wrote its status file`)
  const { servers } = JSON.parse(readFileSync(file, 'utf8')) as {
    servers: { name: string; state: string; toolCount: number }[]
  }
  return servers.map((s) => [s.name, s.state, s.toolCount])
}

const mcpTools = (request: ModelRequest) => request.toolNames.filter((n) => n.startsWith('mcp__')).sort()

test('dsh plugin add mounts the plugin through its bundle patch', async () => {
  const profile = JSON.parse(readFileSync(join(baseEnv.DSH_HOME!, 'profiles', 'headless', 'package.json'), 'utf8'))
  assert.ok(
    profile.dsh?.profile?.bundles?.includes('dsh-project-mcp'),
    `bundles: ${JSON.stringify(profile.dsh?.profile?.bundles)}`,
  )
  const dump = await runDsh(cli, ['--profile', 'headless', '--patch', hostPatch, '--dump-config'], {
    cwd: work.path,
    env: baseEnv,
  })
  assert.equal(dump.code, 0, describeRun(dump))
  assert.match(dump.stdout, /# == dsh-project-mcp\n- id: project-mcp\n\s+name: dsh-project-mcp\n/)
})

for (const [key, other, tool, args, answer] of [
  ['A', 'B', 'mcp__alpha__echo', { text: 'ping-A' }, '[alpha] echo: ping-A'],
  ['B', 'A', 'mcp__beta__add', { a: 2, b: 3 }, '[beta] add: 5'],
] as const) {
  test(`trusted project ${key}: only its tools are offered, its tool call round-trips`, async () => {
    const p = projects[key]
    const q = projects[other]
    const otherSpawns = readMarker(q.marker).length
    const { run, turns } = await runTask(p.dir.path, `use ${tool}`, callThenReport(tool, args, key))
    assert.equal(run.code, 0, describeRun(run))
    assert.equal(turns.length, 2, `two turn requests (tool call, final), got ${turns.length}\n${describeRun(run)}`)
    const [first, second] = turns as [ModelRequest, ModelRequest]
    assert.deepEqual(mcpTools(first), [...p.publicTools].sort(), `MCP tools offered in ${key}'s first request`)
    assert.ok(
      !first.toolNames.some((n) => q.publicTools.includes(n) || n.startsWith(`mcp__${q.server}__`)),
      `no ${other} tool`,
    )
    assert.ok(!first.toolNames.some((n) => n.startsWith(`mcp__${projects.C.server}__`)), 'no untrusted C tool')
    assert.ok(readMarker(p.marker).length >= 1, `${key}'s fixture server was spawned`)
    assert.equal(readMarker(q.marker).length, otherSpawns, `${other}'s server was not spawned by ${key}'s run`)
    const results = toolResults(second)
    const result = results.find((m) => m.tool_call_id === `call-${key}`)
    assert.ok(result, `the tool result comes back: ${JSON.stringify(results)}`)
    assert.ok(messageText(result).includes(answer), `tool result ${JSON.stringify(messageText(result))} has ${answer}`)
    assert.deepEqual(mcpTools(second), [...p.publicTools].sort(), 'the follow-up request offers the same MCP tools')
    assert.equal(run.stdout.trim(), `${key} done: ${messageText(result)}`)
    assert.deepEqual(statusOf(p.dir.path), [[p.server, 'stopped', 0]], 'the host stopped: its rows say so')
    assert.equal(await fixturesGone(), 0, 'no fixture server outlives the dsh run')
  })
}

test('untrusted project C: none of its tools are offered and its server never starts', async () => {
  const c = projects.C
  const { run, turns } = await runTask(c.dir.path, 'use gamma', (request) => ({
    text: `C sees ${mcpTools(request).length} MCP tools`,
  }))
  assert.equal(run.code, 0, describeRun(run))
  assert.equal(turns.length, 1, describeRun(run))
  assert.deepEqual(mcpTools(turns[0]!), [], 'no MCP tool offered in C')
  assert.equal(run.stdout.trim(), 'C sees 0 MCP tools')
  assert.equal(existsSync(c.marker), false, "C's server was never spawned (no marker)")
  assert.deepEqual(
    statusOf(c.dir.path).map(([name, state]) => [name, state]),
    [['gamma', 'untrusted']],
  )
  assert.equal(await fixturesGone(), 0)
})

test('lazy project D with a warm cache: its tools are offered before it starts; the call starts it', async () => {
  const d = projects.D
  // Warm: no cache yet, so the first run mounts it (as eager) and records its tools.
  const warm = await runTask(d.dir.path, 'hello', (request) => ({
    text: `D sees ${mcpTools(request).length} MCP tools`,
  }))
  assert.equal(warm.run.code, 0, describeRun(warm.run))
  assert.equal(warm.run.stdout.trim(), `D sees ${d.tools.length} MCP tools`)
  assert.equal(readMarker(d.marker).length, 1, 'warming started it once')
  assert.ok(existsSync(join(baseEnv.DSH_HOME!, 'mcp-cache')), 'the tool cache was written')
  assert.equal(await fixturesGone(), 0)

  let spawnsAtFirstRequest = -1
  const report = callThenReport('mcp__delta__add', { a: 20, b: 22 }, 'D')
  const { run, turns } = await runTask(d.dir.path, 'use mcp__delta__add', (request) => {
    if (spawnsAtFirstRequest < 0) spawnsAtFirstRequest = readMarker(d.marker).length
    return report(request)
  })
  assert.equal(run.code, 0, describeRun(run))
  assert.equal(turns.length, 2, describeRun(run))
  assert.deepEqual(mcpTools(turns[0]!), [...d.publicTools].sort(), 'the first request offers the cached tools')
  assert.equal(spawnsAtFirstRequest, 1, 'the server had not started when the first request was sent')
  const result = toolResults(turns[1]!).find((m) => m.tool_call_id === 'call-D')
  assert.ok(
    result && messageText(result).includes('[delta] add: 42'),
    `the real result came back: ${JSON.stringify(result)}`,
  )
  assert.equal(readMarker(d.marker).length, 2, 'the call started it once')
  assert.equal(await fixturesGone(), 0, 'no fixture server outlives the dsh run')
})
