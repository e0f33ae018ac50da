// biome-ignore-all lint/suspicious/noTemplateCurlyInString: an entry holds a literal ${VAR} template
/**
 * End to end through the real `dsh` CLI (rc.8, headless) and the packed
 * plugin: the checkout's `.env`, which `dsh` loads into its own environment
 * at boot, reaches no server. A trusted project server started through
 * `sh -c` records what it inherited: `DOTENV_CANARY` from the `.env` is
 * unset for it, and so is `npm_config_registry` (where a server's `npx`
 * would fetch code from; `dsh` itself refuses `NODE_OPTIONS` and the like
 * in a `.env`, not this). Nor does `${VAR}` read it: a user-layer server
 * (no trust needed) written `command: ${PROBE_SHELL:-sh}` keeps running `sh`
 * when the `.env` names a script that leaves a marker, the trusted server's
 * `NAMED: ${DOTENV_CANARY:-not-read}` gets its default, and a server that
 * needs `${DOTENV_CANARY}` is skipped, its reason saying the `.env` set it —
 * which also proves `dsh` did load the `.env`. (rc.8 itself already withholds
 * `.env` values from the client's children; the plugin's launcher unsets them
 * too, whatever the host: test/security/project-env.) Setup as in
 * dsh-cli.test.ts.
 */
import assert from 'node:assert/strict'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { type DshCli, describeRun, NODE22, runDsh, runIsolated } from '../support/dsh-cli.ts'
import type { FakeModel } from '../support/fake-model.ts'
import { stdioFixtureShell } from '../support/fixture-config.ts'
import { installPackedPlugin, type PackedPlugin } from '../support/packed-plugin.ts'
import { makeProject, type TempDir } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'
import { newestStatusFile } from '../support/trust.ts'

let e2e: PackedPlugin
let model: FakeModel
let cli: DshCli
let baseEnv: Record<string, string>
let hostPatch: string
let project: TempDir
let seen: string
let userSeen: string
let marker: string

before(async () => {
  e2e = await installPackedPlugin({ prefix: 'dsh-e2e-dotenv-' })
  const { shippedCli, pidDir, work } = e2e
  ;({ cli, model, env: baseEnv, hostPatch } = e2e)
  seen = work.join('seen.txt')
  const fixture = stdioFixtureShell({ name: 'probe', tools: ['echo'], pidfileDir: pidDir }, NODE22)
  const servers = {
    probe: {
      command: 'sh',
      args: [
        '-c',
        `echo "canary=$$\{DOTENV_CANARY:-<unset>} registry=$$\{npm_config_registry:-<unset>} named=$$\{NAMED:-<unset>}" >> '${seen}'; exec ${fixture}`,
      ],
      env: { NAMED: '${DOTENV_CANARY:-not-read}' },
    },
    needsit: { command: 'sh', args: ['-c', `exec ${fixture}`], env: { NAMED: '${DOTENV_CANARY}' } },
  }
  // The user's own server: needs no trust, so a checkout that could pick its command would run code unreviewed.
  userSeen = work.join('user-seen.txt')
  marker = work.join('PWNED-dotenv')
  const userFixture = stdioFixtureShell({ name: 'mine', tools: ['echo'], pidfileDir: pidDir }, NODE22)
  writeFileSync(
    join(baseEnv.DSH_HOME!, 'mcp.yml'),
    `${JSON.stringify({ servers: { mine: { command: '${PROBE_SHELL:-sh}', args: ['-c', `echo ran >> '${userSeen}'; exec ${userFixture}`] } } }, null, 2)}\n`,
    { mode: 0o600 },
  )
  const pwn = work.join('pwn.sh')
  writeFileSync(pwn, `#!/bin/sh\ntouch '${marker}'\nexec sh "$@"\n`)
  chmodSync(pwn, 0o755)
  project = makeProject(
    {
      '.dsh/mcp.yml': `${JSON.stringify({ servers }, null, 2)}\n`,
      '.env': `DOTENV_CANARY=from-the-checkout\nnpm_config_registry=http://127.0.0.1:9/\nPROBE_SHELL=${pwn}\n`,
    },
    'dsh-e2e-dotenv-',
  )
  const trust = await runIsolated(NODE22, [shippedCli, 'trust', '--all', '--yes', '-C', project.path], {
    cwd: work.path,
    env: baseEnv,
  })
  assert.equal(trust.code, 0, describeRun(trust))
})

after(() => e2e?.close())

test('a real dsh run in a checkout with a .env: no server inherits it and ${VAR} does not read it', async () => {
  model.respond(() => ({ text: 'done' }))
  const run = await runDsh(cli, ['--profile', 'headless', '--patch', hostPatch, 'say done'], {
    cwd: project.path,
    env: { ...baseEnv, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-e2e' },
    timeoutMs: 60_000,
  })
  assert.equal(run.code, 0, describeRun(run))
  await waitFor(() => existsSync(seen), { message: 'the probe server started' })
  const line = readFileSync(seen, 'utf8').split('\n')[0]
  assert.equal(
    line,
    'canary=<unset> registry=<unset> named=not-read',
    'no .env value reached the server, through its environment or a ${VAR}',
  )
  await waitFor(() => existsSync(userSeen), { message: 'the user-layer server started' })
  assert.equal(existsSync(marker), false, 'the .env did not choose the command of the user-layer server')
  // One file per host (`<hash>.<host pid>.json`): the host of this test's run.
  const status = await waitFor(() => newestStatusFile(baseEnv.DSH_HOME!, project.path), {
    message: 'the plugin wrote the status file',
  })
  const rows = (
    JSON.parse(readFileSync(status, 'utf8')) as {
      servers: { name: string; verdict: { tag: string; reason: string | null } }[]
    }
  ).servers
  const needsit = rows.find((r) => r.name === 'needsit')
  assert.equal(needsit?.verdict.tag, 'skipped', JSON.stringify(rows))
  assert.match(
    needsit?.verdict.reason ?? '',
    /\$\{DOTENV_CANARY\}, which is not set \(set only by the project's \.env, which \$\{VAR\} does not read/,
  )
  assert.ok(!readFileSync(status, 'utf8').includes('from-the-checkout'), 'no .env value in the status file')
})
