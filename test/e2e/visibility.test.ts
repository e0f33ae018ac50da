/**
 * End to end through the real `dsh` CLI (rc.8, headless profile) with the
 * packed plugin (issue 15): an untrusted project's run prints one notice on
 * stderr (how many servers, why, the exact `dsh-mcp trust` command) and the
 * model's system prompt says the same, while stdout is only the answer; a
 * trusted project's run prints no notice and leaves its status rows
 * `stopped` after a normal exit; a run stopped by SIGTERM while a tool call
 * is in flight leaves them `stopped` too, and `dsh-mcp status` says so.
 *
 * Runs are isolated like test/e2e/dsh-cli.test.ts (`env -i`, a fake model on
 * 127.0.0.1, one DSH_HOME for the file).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { newestStatusFile } from '../support/trust.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { type DshCli, NODE22, describeRun, runDsh, runIsolated } from '../support/dsh-cli.ts'
import { type FakeModel, type ModelRequest, type Responder, messageText } from '../support/fake-model.ts'
import { type TempDir, makeProject } from '../support/tmp.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { waitFor } from '../support/wait.ts'
import { installPackedPlugin, type PackedPlugin } from '../support/packed-plugin.ts'

let e2e: PackedPlugin
let cli: DshCli
let model: FakeModel
let work: TempDir
let baseEnv: Record<string, string>
let hostPatch: string
let pidDir: string
let shippedCli: string

function mcpProject(server: string, tools: string[]): TempDir {
  const args = stdioFixtureArgs({ name: server, tools, pidfileDir: pidDir })
  const yml = `servers:\n  ${server}:\n    command: ${JSON.stringify(NODE22)}\n    args: ${JSON.stringify(args)}\n`
  return makeProject({ '.dsh/mcp.yml': yml }, `dsh-e2e-vis-${server}-`)
}

before(async () => {
  e2e = await installPackedPlugin({ prefix: 'dsh-e2e-vis-' })
  ;({ cli, model, work, env: baseEnv, hostPatch, pidDir, shippedCli } = e2e)
})

after(() => e2e?.close())

const runEnv = () => ({ ...baseEnv, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-e2e' })

function runTask(cwd: string, task: string, responder: Responder) {
  model.respond(responder)
  return runDsh(cli, ['--profile', 'headless', '--patch', hostPatch, task], { cwd, env: runEnv(), timeoutMs: 90_000 })
}

const dshMcp = (args: string[]) => runIsolated(NODE22, [shippedCli, ...args], { cwd: work.path, env: baseEnv })

function statusDoc(
  root: string,
): { pid: number; host: string; servers: { name: string; state: string; toolCount: number }[] } | undefined {
  const file = newestStatusFile(baseEnv.DSH_HOME!, canonicalRoot(root))
  if (!file || !existsSync(file)) return undefined
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

const systemText = (r: ModelRequest | undefined) =>
  (r?.body.messages ?? [])
    .filter((m) => m.role === 'system')
    .map(messageText)
    .join('\n')
const notices = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('dsh-project-mcp: '))

test('an untrusted project: one notice on stderr with the fix, the same in the system prompt, stdout only the answer', async () => {
  const p = mcpProject('gamma', ['echo'])
  const from = model.requests.length
  const run = await runTask(p.path, 'use gamma', () => ({ text: 'the answer' }))
  assert.equal(run.code, 0, describeRun(run))
  assert.equal(run.stdout, 'the answer\n', 'stdout carries the answer only')
  const lines = notices(run.stderr)
  assert.equal(lines.length, 1, `one notice\n${describeRun(run)}`)
  assert.equal(lines[0], `dsh-project-mcp: 1 of 1 MCP server of ${p.path} is not running:`)
  assert.ok(
    run.stderr.includes(`  gamma: not trusted yet: review it, then trust it\n    → dsh-mcp trust -C ${p.path} gamma\n`),
    run.stderr,
  )
  const turn = model.turns(from)[0]
  assert.ok(
    systemText(turn).includes(
      `- gamma: not trusted yet: review it, then trust it. Fix: \`dsh-mcp trust -C ${p.path} gamma\``,
    ),
    systemText(turn),
  )
  assert.deepEqual(
    statusDoc(p.path)?.servers.map((s) => [s.name, s.state]),
    [['gamma', 'untrusted']],
  )
})

test('a trusted project: no notice, no prompt section; after a normal exit its rows say stopped', async () => {
  const p = mcpProject('delta', ['echo'])
  const trust = await dshMcp(['trust', '--all', '--yes', '-C', p.path])
  assert.equal(trust.code, 0, describeRun(trust))
  const from = model.requests.length
  const run = await runTask(p.path, 'hello', (r) => ({
    text: `tools: ${r.toolNames.filter((n) => n.startsWith('mcp__')).join(',')}`,
  }))
  assert.equal(run.code, 0, describeRun(run))
  assert.equal(run.stdout, 'tools: mcp__delta__echo\n')
  assert.deepEqual(notices(run.stderr), [], run.stderr)
  assert.ok(!systemText(model.turns(from)[0]).includes('MCP servers that are not running'))
  const doc = statusDoc(p.path)
  assert.equal(doc?.host, 'stopped', JSON.stringify(doc))
  assert.deepEqual(
    doc?.servers.map((s) => [s.name, s.state]),
    [['delta', 'stopped']],
  )
})

test('SIGTERM while a tool call runs: the host stops, its rows say stopped, and dsh-mcp status says it stopped', async () => {
  const p = mcpProject('epsilon', ['sleep'])
  const trust = await dshMcp(['trust', '--all', '--yes', '-C', p.path])
  assert.equal(trust.code, 0, describeRun(trust))
  const running = runTask(p.path, 'sleep', (r) =>
    r.toolNames.includes('mcp__epsilon__sleep')
      ? { toolCalls: [{ name: 'mcp__epsilon__sleep', arguments: { ms: 120_000 }, id: 'call-sleep' }] }
      : { text: 'no sleep tool' },
  )
  const doc = await waitFor(
    () => {
      const d = statusDoc(p.path)
      return d?.servers[0]?.state === 'mounted' &&
        model.requests.some((r) => r.kind === 'turn' && r.toolNames.includes('mcp__epsilon__sleep'))
        ? d
        : undefined
    },
    { timeoutMs: 60_000, message: 'the run mounted epsilon and the model called its sleep tool' },
  )
  process.kill(doc.pid, 'SIGTERM')
  const run = await running
  assert.notEqual(run.signal, 'SIGKILL', describeRun(run))
  const after = statusDoc(p.path)
  assert.equal(after?.host, 'stopped', `${JSON.stringify(after)}\n${describeRun(run)}`)
  assert.deepEqual(
    after?.servers.map((s) => [s.name, s.state]),
    [['epsilon', 'stopped']],
  )
  const status = await dshMcp(['status', '-C', p.path])
  assert.equal(status.code, 0, describeRun(status))
  assert.match(status.stdout, /which has stopped: nothing is mounted now/)
  assert.match(status.stdout, /^stopped +epsilon/m)
})
