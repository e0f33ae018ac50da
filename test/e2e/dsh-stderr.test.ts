/**
 * End to end through the real `dsh` CLI (rc.8, headless) and the packed
 * plugin: a trusted project's stdio servers print their secrets to stderr —
 * one at start-up through `sh -c` (an env literal) and one that dies with
 * its `${VAR}` secret in the message — and nothing of either reaches the
 * terminal of the `dsh` run (its stdout and stderr). The secret lines are in
 * the server logs as `***`, and `dsh-mcp logs` (the CLI as shipped) shows
 * them redacted. Setup as in dsh-cli.test.ts (isolated env, fake model).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { serverLogFile } from '../../src/launch/spec.ts'
import { type DshCli, describeRun, NODE22, runDsh, runIsolated } from '../support/dsh-cli.ts'
import type { FakeModel } from '../support/fake-model.ts'
import { installPackedPlugin, type PackedPlugin } from '../support/packed-plugin.ts'
import { makeProject, type TempDir } from '../support/tmp.ts'
import { stdioFixtureShell } from '../support/fixture-config.ts'

const LITERAL = 'e2eLiteral-5f4e3d2c1b0a9988'
const FROM_ENV = 'e2eFromEnv-00aa11bb22cc33dd'

let e2e: PackedPlugin
let model: FakeModel
let cli: DshCli
let baseEnv: Record<string, string>
let hostPatch: string
let shippedCli: string
let project: TempDir
let pidDir: string
let work: TempDir

before(async () => {
  e2e = await installPackedPlugin({ prefix: 'dsh-e2e-stderr-' })
  ;({ cli, model, env: baseEnv, hostPatch, shippedCli, pidDir, work } = e2e)
  const fixture = `exec ${stdioFixtureShell({ name: 'leaky', tools: ['echo'], pidfileDir: pidDir }, NODE22)}`
  const servers = {
    leaky: {
      command: 'sh',
      args: ['-c', `echo "connecting with $LEAKY_TOKEN" >&2; ${fixture}`],
      env: { LEAKY_TOKEN: LITERAL },
    },
    dying: {
      command: NODE22,
      args: ['-e', "console.error('fatal: bad credential ' + process.env.DYING_KEY); process.exit(1)"],
      env: { DYING_KEY: `$\{E2E_STDERR_SECRET}` },
      reconnect: { maxAttempts: 1, initialDelayMs: 50 },
    },
  }
  project = makeProject({ '.dsh/mcp.yml': `${JSON.stringify({ servers }, null, 2)}\n` }, 'dsh-e2e-stderr-')
  const trust = await runIsolated(NODE22, [shippedCli, 'trust', '--all', '--yes', '-C', project.path], {
    cwd: work.path,
    env: baseEnv,
  })
  assert.equal(trust.code, 0, describeRun(trust))
})

after(() => e2e?.close())

test('a real dsh run: a stdio server that prints its secret to stderr never shows it on the dsh terminal', async () => {
  model.respond(() => ({ text: 'done' }))
  const run = await runDsh(cli, ['--profile', 'headless', '--patch', hostPatch, 'say done'], {
    cwd: project.path,
    env: { ...baseEnv, E2E_STDERR_SECRET: FROM_ENV, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-e2e' },
    timeoutMs: 60_000,
  })
  assert.equal(run.code, 0, describeRun(run))
  for (const s of [LITERAL, FROM_ENV]) {
    assert.ok(!run.stdout.includes(s) && !run.stderr.includes(s), `the dsh terminal shows no ${s.slice(0, 10)}…`)
  }
  const log = (name: string) => readFileSync(serverLogFile(baseEnv.DSH_HOME!, project.path, name), 'utf8')
  assert.match(log('leaky'), /connecting with \*\*\*/, 'the leaky server did print, and it was logged redacted')
  assert.match(log('dying'), /fatal: bad credential \*\*\*/, 'so did the dying one')
  for (const s of [LITERAL, FROM_ENV]) assert.ok(!log('leaky').includes(s) && !log('dying').includes(s))
  for (const name of ['leaky', 'dying']) {
    const shown = await runIsolated(NODE22, [shippedCli, 'logs', name, '-C', project.path], {
      cwd: work.path,
      env: { ...baseEnv, E2E_STDERR_SECRET: FROM_ENV },
    })
    assert.equal(shown.code, 0, describeRun(shown))
    assert.match(shown.stdout, /\*\*\*/)
    for (const s of [LITERAL, FROM_ENV])
      assert.ok(!shown.stdout.includes(s) && !shown.stderr.includes(s), `dsh-mcp logs ${name} shows no secret`)
  }
})
