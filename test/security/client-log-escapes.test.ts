/**
 * A stdio server's JSON-RPC error reaches the host's log and terminal
 * redacted and terminal-safe (host/client-log.ts; docs/guide/trust.md): the
 * server answers `initialize` with an error whose message quotes its
 * configured env secret, an OSC 8 hyperlink, BEL, `\r`, an erase-line CSI, a
 * C1 CSI and a bidi override, and whose `data` holds the secret again. A real
 * host runs in a child process (test/fixtures/hosts/canary-host.ts): its log
 * lines, its terminal (stdout and stderr) and the status files hold no
 * canary and no raw control character; the message did reach the log
 * (control: its text with the secret masked and ESC shown as `\x1b`).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runCanaryHost } from '../support/canary-host.ts'
import { runCli } from '../support/cli.ts'
import { friendly } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

const SECRET = `Tx5${randomBytes(9).toString('hex')}`
/** Raw controls a terminal would act on (C0 but \n and \t, DEL, C1, bidi, line separators). */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

const SERVER = `
let buf = ''
process.stdin.on('data', (d) => {
  buf += d
  const i = buf.indexOf('\\n'); if (i < 0) return
  const m = JSON.parse(buf.slice(0, i)); buf = ''
  const message = 'auth failed for key ' + process.env.API_KEY + ' \\x1b]8;;http://evil.example\\x07click\\x1b]8;;\\x07 \\r\\x1b[2Kforged \\x9b31m red \\u202eevil'
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message, data: { token: process.env.API_KEY, note: '\\x1b[8mhidden' } } }) + '\\n')
})
`

after(() => cleanupAll())

test("a server's JSON-RPC error reaches the host's log and terminal without its secret or a raw control", async () => {
  const project = makeProject({
    'srv.cjs': SERVER,
    '.dsh/mcp.yml': friendly({
      s: { command: 'node', args: ['srv.cjs'], env: { API_KEY: SECRET }, reconnect: { maxAttempts: 1 } },
    }),
  })
  const home = makeTempDir('dsh-mcp-clogesc-home-')
  const dshHome = home.join('.dsh')
  const hostCwd = makeTempDir('dsh-mcp-clogesc-cwd-')
  const trust = await runCli(['trust', 's', '--yes'], { cwd: project.path, dshHome, home: home.path })
  assert.equal(trust.code, 0, trust.stdout + trust.stderr)

  const logFile = home.join('host.log')
  const { out, err, log } = await runCanaryHost({
    dshHome,
    logFile,
    hostCwd: hostCwd.path,
    projects: [project.path],
    wait: ['s=failed'],
    env: { HOME: home.path },
  })

  // Control: the server's error reached the host's log, redacted and with its escapes visible.
  assert.match(log, /auth failed for key \*\*\* \\x1b\]8;;http:\/\/evil\.example\\x07click/, log)
  const statusDir = join(dshHome, 'mcp-status')
  const statusFiles = existsSync(statusDir)
    ? readdirSync(statusDir).map((f) => readFileSync(join(statusDir, f), 'utf8'))
    : []
  assert.ok(statusFiles.length > 0, 'the host wrote a status file')
  const channels: [string, string][] = [
    ['host log', log],
    ['host terminal stdout', out],
    ['host terminal stderr', err],
    ...statusFiles.map((t, i): [string, string] => [`status file ${i}`, t]),
  ]
  for (const [name, text] of channels) {
    assert.ok(!text.includes(SECRET) && !text.includes(SECRET.slice(3, 14)), `${name} holds the env secret:\n${text}`)
    const raw = RAW.exec(text)
    assert.equal(raw, null, `${name} holds a raw control ${JSON.stringify(raw?.[0])}:\n${JSON.stringify(text)}`)
  }
})
