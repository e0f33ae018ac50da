// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${secret:NAME} templates
/**
 * A canary secret through the real `dsh` CLI (rc.8, headless) with the packed
 * plugin and a fake model on 127.0.0.1: a trusted project's HTTP server (the
 * fixture, on 127.0.0.1, accepting only `Bearer <canary>`) is configured with
 * `Authorization: Bearer ${secret:API_TOKEN}`.
 * - Unset: the row is skipped (the status file names the secret and
 *   `dsh-mcp secret set API_TOKEN`), no tool is offered, the server gets no
 *   request.
 * - Set with the shipped `dsh-mcp secret set` (from stdin; the file backend,
 *   as where no keychain answers): the server accepts the plugin's requests
 *   (the value reached it) and its tool is offered and called.
 * In both runs the canary (and every 8-character piece of it) is in no model
 * request, no output of dsh or dsh-mcp, no status file, and no file under
 * the test's temp dirs but the 0600 value file of the secret store.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { startHttpServer, type HttpServerHandle } from '../fixtures/servers/http-server.ts'
import {
  type DshCli,
  describeRun,
  ensureDshCli,
  installEnv,
  isolatedEnv,
  NODE22,
  type RunResult,
  reapDshChildren,
  runDsh,
  runIsolated,
  writeHostPatch,
} from '../support/dsh-cli.ts'
import { type FakeModel, messageText, startFakeModel, toolResults } from '../support/fake-model.ts'
import { packTarball } from '../support/tarball.ts'
import { cleanupAll, makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'
import { newestStatusFile } from '../support/trust.ts'

const CANARY = `cnry${randomBytes(12).toString('hex')}`
const pieces = Array.from({ length: CANARY.length - 7 }, (_, i) => CANARY.slice(i, i + 8))
const leaks = (text: string) => pieces.some((p) => text.includes(p))

let cli: DshCli
let model: FakeModel
let server: HttpServerHandle
let work: TempDir
let project: TempDir
let env: Record<string, string>
let hostPatch: string
let shippedCli: string
const outputs: string[] = []

before(async () => {
  cli = await ensureDshCli()
  work = makeTempDir('dsh-e2e-secrets-')
  const tarball = packTarball(work.mkdir('pack'))
  model = await startFakeModel()
  server = await startHttpServer({ name: 'vault', tools: ['echo'], requireBearer: CANARY })
  const home = work.mkdir('home')
  env = isolatedEnv(cli, { home, dshHome: join(home, '.dsh') })
  hostPatch = writeHostPatch(work.join('host.patch.yml'), model.baseURL)
  const add = await runDsh(cli, ['plugin', '--profile', 'headless', 'add', tarball.file], {
    cwd: home,
    env: { ...env, ...installEnv() },
    timeoutMs: 300_000,
  })
  assert.equal(add.code, 0, `dsh plugin add failed\n${describeRun(add)}`)
  shippedCli = join(env.DSH_HOME!, 'profiles', 'headless', 'node_modules', 'dsh-project-mcp', 'bin', 'dsh-mcp.js')
  project = makeProject(
    {
      '.dsh/mcp.yml': [
        'secrets:',
        '  API_TOKEN: { description: the vault token }',
        'servers:',
        '  vault:',
        `    url: ${server.url}`,
        '    headers:',
        '      Authorization: Bearer ${secret:API_TOKEN}',
        '',
      ].join('\n'),
    },
    'dsh-e2e-secrets-project-',
  )
  const trust = await runIsolated(NODE22, [shippedCli, 'trust', '--all', '--yes', '-C', project.path], {
    cwd: work.path,
    env,
  })
  assert.equal(trust.code, 0, describeRun(trust))
  outputs.push(trust.stdout, trust.stderr)
})

after(async () => {
  reapDshChildren()
  await model?.close()
  await server?.close()
  cleanupAll()
})

function runTask(task: string, tool: string): Promise<RunResult> {
  model.respond((request) => {
    const last = request.body.messages?.at(-1)
    if (last?.role === 'tool') return { text: `done: ${messageText(last)}` }
    if (request.toolNames.includes(tool)) return { toolCalls: [{ name: tool, arguments: { text: 'hi' }, id: 'c1' }] }
    return { text: `offered: ${request.toolNames.filter((n) => n.startsWith('mcp__')).join(',') || 'none'}` }
  })
  return runDsh(cli, ['--profile', 'headless', '--patch', hostPatch, task], {
    cwd: project.path,
    env: { ...env, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-e2e' },
    timeoutMs: 60_000,
  })
}

function statusText(): string {
  const file = newestStatusFile(env.DSH_HOME!, project.path)
  assert.ok(file && existsSync(file), 'the status file of this project')
  return readFileSync(file, 'utf8')
}

function filesHoldingCanary(dir: string): string[] {
  const hits: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && leaks(readFileSync(p).toString('latin1'))) hits.push(p)
    }
  }
  walk(dir)
  return hits
}

test('an unset secret: the row is skipped naming the secret and its command; the server gets nothing', async () => {
  const run = await runTask('use the vault', 'mcp__vault__echo')
  outputs.push(run.stdout, run.stderr)
  assert.equal(run.code, 0, describeRun(run))
  assert.equal(run.stdout.trim(), 'offered: none')
  const status = statusText()
  assert.match(status, /secret:API_TOKEN/)
  assert.match(status, /dsh-mcp secret set API_TOKEN/)
  assert.equal(server.requests, 0, 'no request reached the server')
})

test('set through the shipped CLI from stdin: the server accepts the value, nothing else holds it', async () => {
  const set = await new Promise<{ code: number; out: string }>((resolve) => {
    const child = execFile(
      NODE22,
      [shippedCli, 'secret', 'set', 'API_TOKEN', '-C', project.path],
      { cwd: work.path, env },
      (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }),
    )
    child.stdin?.end(`${CANARY}\n`)
  })
  outputs.push(set.out)
  assert.equal(set.code, 0, set.out)
  const list = await runIsolated(NODE22, [shippedCli, 'secret', 'list', '-C', project.path], { cwd: work.path, env })
  outputs.push(list.stdout, list.stderr)
  assert.match(list.stdout, /API_TOKEN\s+project/)
  const run = await runTask('use the vault', 'mcp__vault__echo')
  outputs.push(run.stdout, run.stderr)
  assert.equal(run.code, 0, describeRun(run))
  assert.ok(server.requests > 0 && server.sessions > 0, 'the plugin connected with the secret as its bearer')
  assert.match(run.stdout, /done: .*echo: hi/)
  const status = statusText()
  assert.ok(!leaks(status), 'the status file holds no piece of the secret')
  for (const r of model.requests) assert.ok(!leaks(JSON.stringify(r.body)), 'no model request holds the secret')
  for (const o of outputs) assert.ok(!leaks(o), `no output holds the secret: ${o.slice(0, 200)}`)
  const holders = filesHoldingCanary(work.path)
    .concat(filesHoldingCanary(project.path))
    .filter((f) => !f.endsWith(join('mcp-secrets', 'values.json')))
  assert.deepEqual(holders, [], 'only the 0600 secret file holds the value')
  assert.ok(!toolResults(model.requests.at(-1)!).some((m) => leaks(messageText(m))))
})
