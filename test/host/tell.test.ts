// biome-ignore-all lint/suspicious/noTemplateCurlyInString: an entry holds a literal ${VAR} template
/**
 * Telling why a server does not run, through real steps on a real host
 * (issue 15): the agent's own system prompt carries one line per server of
 * its project that does not run (reason and exact fix), never another
 * project's, nothing when all run, bounded; the host notice is sent once per
 * project per host run; status rows say `starting`, then `stopped` once the
 * plugin is disposed; every refused config file (one that does not parse, a
 * directory, a dangling symbolic link) shows in the status file and in
 * `dsh-mcp status` with its reason.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { statusFilePath } from '../../src/status/path.ts'
import { PROMPT_MAX_BYTES, PROMPT_MAX_LINES } from '../../src/host/tell.ts'
import { installStubModel, userMessage } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { cli, untilTools } from '../support/trust.ts'
after(() => cleanupAll())

const pids = makeTempDir('dsh-mcp-tell-').mkdir('pids')
after(() => reapAll(pids))
const entry = (n: string, tools: string[], extra: Record<string, unknown> = {}) =>
  stdioEntry(n, { tools, pidfileDir: pids, extra })

const notices = (w: { host: { logs: readonly { name: string; type: string; text: string }[] } }) =>
  w.host.logs
    .filter((l) => l.name === 'dsh-project-mcp' && l.type === 'info' && l.text.startsWith('dsh-project-mcp: '))
    .map((l) => l.text)

test("the agent's system prompt says why its own project's servers are missing, with the fix; never another project's; the notice comes once", async (t) => {
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const stub = installStubModel(w.host.ctx)
  const a = projectWith({
    alpha: entry('alpha', ['a1']),
    keyed: entry('keyed', ['k1'], { env: { API_TOKEN: '${TELL_TEST_UNSET_TOKEN}' } }),
    off: entry('off', ['o1'], { enabled: false }),
  })
  const b = projectWith({ bravo: entry('bravo', ['b1']) })
  await cli(w, a.path, ['trust', 'keyed', '--yes'])
  const agentA = (await w.host.createAgent({ cwd: a.path, agentOptions: stub.agentOptions })).agent
  const agentB = (await w.host.createAgent({ cwd: b.path, agentOptions: stub.agentOptions })).agent
  await w.mcp.whenIdle()

  agentA.followup(userMessage('use alpha'))
  await agentA.whenIdle()
  const system = stub.requests.at(-1)?.system ?? ''
  assert.match(system, /# MCP servers that are not running/)
  assert.ok(
    system.includes(`- alpha: not trusted yet: review it, then trust it. Fix: \`dsh-mcp trust -C ${a.path} alpha\``),
    system,
  )
  assert.ok(system.includes('- keyed: needs $TELL_TEST_UNSET_TOKEN, which is not set'), system)
  assert.ok(system.includes('Fix: `export TELL_TEST_UNSET_TOKEN=…`'), system)
  assert.ok(!system.includes('bravo') && !system.includes(b.path), 'never another project')
  assert.ok(!system.includes('- off:'), 'a disabled server is not a problem')

  agentB.followup(userMessage('hello'))
  await agentB.whenIdle()
  const systemB = stub.requests.at(-1)?.system ?? ''
  assert.ok(systemB.includes(`dsh-mcp trust -C ${b.path} bravo`), systemB)
  assert.ok(!systemB.includes('alpha') && !systemB.includes(a.path), 'never another project')

  // One notice per project: A's names both servers and their fixes; a second agent in A adds none.
  const first = notices(w)
  assert.equal(first.length, 2, first.join('\n---\n'))
  const noticeA = first.find((n) => n.includes(a.path)) ?? ''
  assert.match(noticeA, /^dsh-project-mcp: 2 of 2 MCP servers of .* are not running:/)
  assert.ok(
    noticeA.includes(`→ dsh-mcp trust -C ${a.path} alpha`) && noticeA.includes('→ export TELL_TEST_UNSET_TOKEN=…'),
    noticeA,
  )
  const again = (await w.host.createAgent({ cwd: a.path, agentOptions: stub.agentOptions })).agent
  again.followup(userMessage('again'))
  await again.whenIdle()
  assert.equal(notices(w).length, 2, 'no second notice for the same project')

  // Trust B through the real CLI: B's prompt loses the section once its server runs.
  await cli(w, b.path, ['trust', '--all', '--yes'])
  await untilTools(w, agentB, ['mcp__bravo__b1'], 'bravo mounts once trusted')
  agentB.followup(userMessage('now'))
  await agentB.whenIdle()
  assert.ok(!(stub.requests.at(-1)?.system ?? '').includes('MCP servers that are not running'), 'nothing when all run')
})

test('the prompt lines are bounded: 30 untrusted servers give at most 20 lines and 2 KiB, then "and N more"', async (t) => {
  const w = await startWorld({ trust: 'require' })
  t.after(() => w.dispose())
  const stub = installStubModel(w.host.ctx)
  const servers: Record<string, unknown> = {}
  for (let i = 0; i < 30; i++) servers[`server_with_a_long_name_${i}`] = entry(`s${i}`, ['x'])
  const a = projectWith(servers)
  const agent = (await w.host.createAgent({ cwd: a.path, agentOptions: stub.agentOptions })).agent
  agent.followup(userMessage('hi'))
  await agent.whenIdle()
  const system = stub.requests.at(-1)?.system ?? ''
  const section = system.slice(system.indexOf('# MCP servers that are not running'))
  const lines = section.split('\n').filter((l) => l.startsWith('- '))
  assert.ok(lines.length <= PROMPT_MAX_LINES, `${lines.length} lines`)
  assert.ok(Buffer.byteLength(lines.join('\n')) <= PROMPT_MAX_BYTES, `${Buffer.byteLength(lines.join('\n'))} bytes`)
  assert.match(lines.at(-1) ?? '', /^- and \d+ more \(`dsh-mcp status -C /)
})

test('status rows: starting while mounting, stopped once the plugin is disposed; a refused file is listed with its reason', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const a = projectWith(
    { slow: stdioEntry('slow', { tools: ['s1'], initDelayMs: 600, pidfileDir: pids }) },
    { '.dsh/mcp.local.yml': 'servers:\n  broken: [\n' },
  )
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  assert.equal(w.mcp.snapshot().projects.find((p) => p.root === a.path)?.servers[0]?.state, 'starting')
  await untilTools(w, agent, ['mcp__slow__s1'], 'slow mounts')
  const file = statusFilePath(w.home.path, a.path)
  const running = JSON.parse(readFileSync(file, 'utf8'))
  assert.equal(running.host, 'running')
  assert.deepEqual(
    running.servers.map((s: { name: string; state: string }) => [s.name, s.state]),
    [['slow', 'mounted']],
  )
  assert.equal(running.files.length, 1, JSON.stringify(running.files))
  assert.equal(running.files[0].file, a.join('.dsh', 'mcp.local.yml'))
  assert.match(running.files[0].error, /mcp\.local\.yml:\d+:\d+/)
  assert.equal(running.files[0].keptLastGood, false)

  // Fixed: the refusal goes away.
  writeFileSync(a.join('.dsh', 'mcp.local.yml'), friendly({}))
  await w.mcp.reload()
  await w.mcp.whenIdle()
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).files, [])

  await w.stop()
  const stopped = JSON.parse(readFileSync(file, 'utf8'))
  assert.equal(stopped.host, 'stopped')
  assert.deepEqual(
    stopped.servers.map((s: { name: string; state: string; toolCount: number; effectiveName: string | null }) => [
      s.name,
      s.state,
      s.toolCount,
      s.effectiveName,
    ]),
    [['slow', 'stopped', 0, null]],
  )
  const shown = await cli(w, a.path, ['status'])
  assert.match(shown.stdout, /which has stopped: nothing is mounted now/)
  assert.match(shown.stdout, /^stopped +slow/m)
})

test('every refused file shows in status with its reason: a directory, a dangling symbolic link, a file that does not parse', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const a = projectWith({ ok: entry('ok', ['o1']) }, { '.mcp.json': '{ "mcpServers": ' })
  mkdirSync(a.join('.dsh', 'mcp.local.yml'))
  symlinkSync(a.join('nowhere.json'), a.join('.dsh', 'mcp.json'))
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await untilTools(w, agent, ['mcp__ok__o1'], 'the good file still mounts')
  const doc = JSON.parse(readFileSync(statusFilePath(w.home.path, a.path), 'utf8'))
  const byFile = new Map<string, string>(doc.files.map((f: { file: string; error: string }) => [f.file, f.error]))
  assert.match(byFile.get(a.join('.dsh', 'mcp.local.yml')) ?? '', /is a directory, not a config file/)
  assert.match(byFile.get(a.join('.dsh', 'mcp.json')) ?? '', /symbolic link to a file that does not exist/)
  assert.match(byFile.get(a.join('.mcp.json')) ?? '', /\.mcp\.json:\d+:\d+/)
  const shown = await cli(w, a.path, ['status'])
  for (const f of byFile.keys()) assert.ok(shown.stdout.includes(`refused ${f}: `), shown.stdout)
})
