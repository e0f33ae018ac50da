/**
 * Secrets a server prints that are no configured value — free text in the
 * shapes secrets take — are redacted in its log and in `dsh-mcp logs`. The
 * servers read them from a file (so no config, argument or env holds them)
 * and print them to stderr: `Authorization: Bearer …`, `Authorization:
 * Token …`, `X-Api-Key: …`, `token=…`, `"password": "…"`, `api_key: …`,
 * `--client-secret=…`, URL userinfo and `?access_token=`, and a PEM key
 * printed over three writes (header, body, END). A real host in a child
 * process (process-host-child.ts): each redacted line is in the log
 * (control), no canary is in the log or on the host's terminal. Then
 * `dsh-mcp logs` (the real CLI) shows the same lines without a canary — also
 * for a log written before this redaction existed (raw lines planted in the
 * log file).
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { serverLogFile } from '../../src/launch/spec.ts'
import { runCli } from '../support/cli.ts'
import { STDIO_FIXTURE, waitFor } from '../support/host.ts'
import { friendly } from '../support/runtime.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'

const CHILD = fileURLToPath(new URL('../fixtures/hosts/process-host-child.ts', import.meta.url))
const c = (tag: string) => `${randomBytes(9).toString('hex')}${tag}`
const S = {
  bearer: c('bear'),
  token: c('tokh'),
  apiKey: c('akey'),
  query: c('qtok'),
  json: c('json'),
  yaml: c('yaml'),
  flag: c('flag'),
  user: c('user'),
  access: c('accs'),
  pem1: c('pem1'),
  pem2: c('pem2'),
}
const ALL = Object.values(S)
const LINES = [
  `Authorization: Bearer ${S.bearer}`,
  `retrying with authorization: Token ${S.token}`,
  `X-Api-Key: ${S.apiKey}`,
  `sending token=${S.query} upstream`,
  `config {"password": "${S.json}", "user": "bob"}`,
  `api_key: ${S.yaml}`,
  `argv --client-secret=${S.flag}`,
  `GET https://bob:${S.user}@example.invalid/v1?access_token=${S.access}`,
]
const MASKED = [
  /Authorization: \*\*\*/,
  /authorization: \*\*\*/,
  /X-Api-Key: \*\*\*/,
  /token=\*\*\* upstream/,
  /"password": "\*\*\*", "user": "bob"/,
  /api_key: \*\*\*/,
  /--client-secret=\*\*\*/,
  /https:\/\/\*\*\*@example\.invalid\/v1\?access_token=\*\*\*/,
]

const home = makeTempDir('dsh-mcp-shapes-home-')
const data = makeTempDir('dsh-mcp-shapes-data-')
const lines = data.write('lines.txt', `${LINES.join('\n')}\n`)
const body = data.write('pem-body.txt', `${S.pem1}\n${S.pem2}\n`)
const fixture = `exec "${process.execPath}" --no-warnings ${STDIO_FIXTURE} --tools echo --name`
const project = makeProject({
  '.dsh/mcp.yml': friendly({
    shapes: { command: 'sh', args: ['-c', `cat '${lines}' >&2; ${fixture} shapes`] },
    pem: {
      command: 'sh',
      args: [
        '-c',
        `echo '-----BEGIN PRIVATE KEY-----' >&2; sleep 0.2; cat '${body}' >&2; sleep 0.2; echo '-----END PRIVATE KEY-----' >&2; echo 'after the key' >&2; ${fixture} pem`,
      ],
    },
  }),
})
const logOf = (name: string) => serverLogFile(home.path, project.path, name)
const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '')

let child: ChildProcess | undefined
after(() => {
  child?.kill('SIGKILL')
  project.cleanup()
  home.cleanup()
  data.cleanup()
})

test('free-text secrets on stderr: masked in the log and never on the host terminal', async () => {
  let terminal = ''
  child = spawn(process.execPath, ['--no-warnings', CHILD, home.path, project.path], {
    cwd: project.path,
    env: { ...process.env, DSH_HOME: home.path },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  child.stdout?.setEncoding('utf8').on('data', (x: string) => {
    terminal += x
  })
  child.stderr?.setEncoding('utf8').on('data', (x: string) => {
    terminal += x
  })
  const exited = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)))
  await waitFor(() => terminal.includes('READY'), { message: `the host is ready; terminal:\n${terminal}` })
  await waitFor(() => read(logOf('shapes')).includes('access_token='), { message: 'shapes: its lines are logged' })
  await waitFor(() => read(logOf('pem')).includes('after the key'), { message: 'pem: all three writes are logged' })
  child.stdin?.write('stop\n')
  assert.equal(await exited, 0, terminal)

  const shapes = read(logOf('shapes'))
  for (const m of MASKED) assert.match(shapes, m)
  const pem = read(logOf('pem'))
  assert.match(
    pem,
    /-----BEGIN PRIVATE KEY-----\n\S+ server\| \*\*\*\n\S+ server\| \*\*\*\n\S+ server\| -----END PRIVATE KEY-----\n\S+ server\| after the key/,
  )
  for (const s of ALL) {
    assert.ok(!terminal.includes(s), `the terminal holds no ${s}`)
    assert.ok(!shapes.includes(s) && !pem.includes(s), `no log holds ${s}`)
  }
})

test('dsh-mcp logs shows them masked, also from a log written before this redaction', async () => {
  const o = { cwd: project.path, dshHome: home.path, home: home.path, env: { DSH_MCP_TRUST_ALL: '1' } }
  for (const name of ['shapes', 'pem']) {
    const r = await runCli(['logs', name], o)
    assert.equal(r.code, 0, r.stderr)
    for (const s of ALL) assert.ok(!(r.stdout + r.stderr).includes(s), `logs ${name} printed ${s}`)
  }
  // An old log: the raw lines as an earlier version would have written them.
  const stamp = new Date().toISOString()
  const raw = [...LINES, '-----BEGIN PRIVATE KEY-----', S.pem1, S.pem2, '-----END PRIVATE KEY-----', 'after']
    .map((l) => `${stamp} ${l}`)
    .join('\n')
  writeFileSync(logOf('shapes'), `${raw}\n`)
  const r = await runCli(['logs', 'shapes', '-n', '100'], o)
  assert.equal(r.code, 0, r.stderr)
  for (const m of MASKED) assert.match(r.stdout, m)
  assert.match(
    r.stdout,
    /-----BEGIN PRIVATE KEY-----\n(?:\S+ )+server\| (?:\S+ )?\*\*\*\n(?:\S+ )+server\| (?:\S+ )?\*\*\*\n(?:\S+ )+server\| (?:\S+ )?-----END PRIVATE KEY-----\n(?:\S+ )+server\| (?:\S+ )?after/,
  )
  for (const s of ALL) assert.ok(!(r.stdout + r.stderr).includes(s), `logs printed ${s} from the old log`)
})
