/**
 * Secrets in the argument shapes of docker, mysql, curl and mcp-remote never
 * print on a terminal-facing channel of the real CLI (config/redact-shapes.ts;
 * docs/guide/trust.md): the attached short flag `-pSECRET`, a secret-named
 * `NAME=value` inside a flag (`--env=GITHUB_TOKEN=…`, `-eAPI_KEY=…`) or after
 * one (`-e API_KEY=…`), and a secret-named header inside a flag
 * (`--header=X-Api-Key: …`, `--header=X-Api-Key:…`) or after one (`-H
 * "Authorization: Bearer …"`). `get`, `list --json`, `list --check`, `export`
 * to stdout in every format, the trust review, `doctor` and `doctor --json`
 * (whose stderr tail quotes the arguments the server got) show none of them;
 * the look-alikes (`-P3306`, `--env=NODE_ENV=production`, `--header=Accept:
 * application/json`) stay visible. `export -o` is the file the user asked for:
 * it holds the values as written, mode 0600 (docs/guide/cli.md).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'

const c = (tag: string) => `K9${randomBytes(6).toString('hex')}${tag}`
const S = {
  short: c('short'),
  envEq: c('enveq'),
  envAttached: c('envat'),
  envNext: c('envnx'),
  header: c('hdr'),
  headerTight: c('hdrt'),
  bearer: c('bear'),
}
const ARGS = [
  'srv.js',
  `-p${S.short}`,
  `--env=GITHUB_TOKEN=${S.envEq}`,
  `-eAPI_KEY=${S.envAttached}`,
  '-e',
  `SERVICE_PASSWORD=${S.envNext}`,
  `--header=X-Api-Key: ${S.header}`,
  `--header=X-Api-Key:${S.headerTight}`,
  '-H',
  `Authorization: Bearer ${S.bearer}`,
  '-P3306',
  '--env=NODE_ENV=production',
  '--header=Accept: application/json',
]
const VISIBLE = ['-P3306', '--env=NODE_ENV=production', '--header=Accept: application/json']

function project() {
  const home = makeTempDir('dsh-mcp-argshapes-home-')
  const dshHome = home.mkdir('dsh')
  const p = makeProject({
    'srv.js': "process.stderr.write('argv: ' + process.argv.slice(2).join(' ') + '\\n'); process.exit(3)\n",
    '.dsh/mcp.yml': `servers:\n  a:\n    command: node\n    args: ${JSON.stringify(ARGS)}\n`,
  })
  return { cwd: p.path, dshHome, p }
}

function leaks(text: string): string[] {
  return Object.entries(S)
    .filter(([, v]) => text.includes(v) || text.includes(v.slice(2, 12)))
    .map(([k]) => k)
}

test('no terminal-facing command prints a secret of an argument shape', async () => {
  const w = project()
  const runs: [string, string[]][] = [
    ['get', ['get', 'a']],
    ['list --json', ['list', '--json']],
    ['export', ['export']],
    ['export vscode', ['export', '--format', 'vscode']],
    ['export cursor', ['export', '--format', 'cursor']],
    ['trust review', ['trust', 'a', '--yes']],
    ['list --check', ['list', '--check']],
    ['doctor', ['doctor']],
    ['doctor --json', ['doctor', '--json']],
  ]
  for (const [name, args] of runs) {
    const r = await runCli(args, w)
    const all = r.stdout + r.stderr
    assert.deepEqual(leaks(all), [], `${name} printed: ${all}`)
    if (name === 'get' || name === 'list --json' || name === 'export') {
      for (const v of VISIBLE)
        assert.ok(
          all.includes(JSON.stringify(v).slice(1, -1)) || all.includes(v),
          `${name} hid the look-alike ${v}: ${all}`,
        )
    }
  }
  // doctor really started the server and quoted its stderr (the control for the tail).
  const doctor = await runCli(['doctor'], w)
  assert.match(doctor.stdout + doctor.stderr, /argv: -p\*\*\* --env=GITHUB_TOKEN=\*\*\*/)
})

test('export -o: outside every repository the values as written (0600); inside one every secret shape a reference', async () => {
  const w = project()
  const out = makeTempDir('dsh-mcp-argshapes-out-')
  const r = await runCli(['export', '-o', out.join('out.json')], w)
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(leaks(r.stdout + r.stderr), [])
  const text = readFileSync(out.join('out.json'), 'utf8')
  assert.deepEqual(JSON.parse(text).mcpServers.a.args, ARGS)
  assert.equal(statSync(out.join('out.json')).mode & 0o777, 0o600)
  const inside = await runCli(['export', '-o', 'out.json'], w)
  assert.equal(inside.code, 0, inside.stderr)
  assert.deepEqual(leaks(inside.stdout + inside.stderr), [])
  const committed = readFileSync(w.p.join('out.json'), 'utf8')
  assert.deepEqual(leaks(committed), [], 'no secret of any argument shape in a file inside the repository')
  assert.ok(!committed.includes('***'))
  const args = JSON.parse(committed).mcpServers.a.args as string[]
  for (const v of VISIBLE) assert.ok(args.includes(v), `${v} is written as it is`)
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a written ${VAR} reference
  assert.ok(args.includes('Authorization: Bearer ${A_AUTHORIZATION}'), args.join(' '))
})
