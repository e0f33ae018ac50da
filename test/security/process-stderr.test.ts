/**
 * A stdio server's stderr never reaches the host's terminal raw, and its
 * log holds every secret of that server as `***`. The host runs as its own
 * process (process-host-child.ts, umask 000) so its stdout and stderr — what
 * a user watching the host sees — are captured whole. The attacker's
 * servers print their secret every way they can: at start-up through
 * `sh -c` (an env literal), in a crash's stack trace (a `${VAR}` from the
 * host's env), a PEM key line by line, a value cut across two writes, and
 * one whose log path holds a planted link (its stderr is discarded, the
 * link's target untouched). Each server provably printed (its redacted line
 * is in its log) and nothing of any secret is on the terminal or in a log.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { serverLogFile } from '../../src/launch/spec.ts'
import { waitFor } from '../support/host.ts'
import { stdioFixtureShell } from '../support/fixture-config.ts'
import { friendly } from '../support/runtime.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'

const CHILD = fileURLToPath(new URL('../fixtures/hosts/process-host-child.ts', import.meta.url))
const A = 'canaryA-7c1f0e2d9b8a'
const B = 'canaryB-41d2c3b4a596'
const PEM_LINES = ['MIIBVwIBADANBgkqhkiG9w0BAQEFAASCAT8w', 'ggE7AgEAAkEAyWq3u0c7canaryC0a1b2c3d']
const PEM = `-----BEGIN PRIVATE KEY-----\n${PEM_LINES.join('\n')}\n-----END PRIVATE KEY-----`
const D = 'canaryD-0123456789abcdef'
const E = 'canaryE-fedcba9876543210'
const ALL = [A, B, D, E, ...PEM_LINES]
const fixture = (name: string) => stdioFixtureShell({ name, tools: ['echo'] })

const home = makeTempDir('dsh-mcp-stderr-home-')
const victim = home.join('victim.txt')
writeFileSync(victim, 'untouched\n')
const project = makeProject({
  '.dsh/mcp.yml': friendly({
    start: {
      command: 'sh',
      args: ['-c', `echo "starting with token $API_TOKEN" >&2; exec ${fixture('start')}`],
      env: { API_TOKEN: A },
    },
    crash: {
      command: process.execPath,
      args: ['-e', "throw new Error('auth failed for ' + process.env.SVC_KEY)"],
      env: { SVC_KEY: `$\{STDERR_CANARY_B}` },
      reconnect: { maxAttempts: 1, initialDelayMs: 50 },
    },
    pem: {
      command: 'sh',
      args: ['-c', `printf 'key: %s\\n' "$PEM_KEY" >&2; exec ${fixture('pem')}`],
      env: { PEM_KEY: PEM },
    },
    split: {
      command: 'sh',
      args: [
        '-c',
        `printf 'half: %s' "$\${SPLIT%????????}" >&2; sleep 0.2; printf '%s :done\\n' "$\${SPLIT#"$\${SPLIT%????????}"}" >&2; exec ${fixture('split')}`,
      ],
      env: { SPLIT: D },
    },
    planted: {
      command: 'sh',
      args: ['-c', `echo "planted $P_TOKEN" >&2; exec ${fixture('planted')}`],
      env: { P_TOKEN: E },
    },
  }),
})
const logOf = (name: string) => serverLogFile(home.path, project.path, name)
mkdirSync(path.dirname(logOf('planted')), { recursive: true, mode: 0o700 })
symlinkSync(victim, logOf('planted'))

let child: ChildProcess | undefined
after(() => {
  child?.kill('SIGKILL')
  project.cleanup()
  home.cleanup()
})

const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '')

test('a real host in a child process: no secret a server prints to stderr reaches its terminal or a log', async () => {
  let terminal = ''
  let stdout = ''
  child = spawn(process.execPath, ['--no-warnings', CHILD, home.path, project.path, '000'], {
    cwd: project.path,
    env: { ...process.env, STDERR_CANARY_B: B, DSH_HOME: home.path },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    stdout += c
    terminal += c
  })
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    terminal += c
  })
  const exited = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)))
  await waitFor(() => stdout.includes('READY'), {
    timeoutMs: 60_000,
    message: `the host never became ready; terminal:\n${terminal}`,
  })
  await waitFor(() => /starting with token \*\*\*/.test(read(logOf('start'))), {
    timeoutMs: 60_000,
    message: 'start: its redacted line is logged',
  })
  await waitFor(() => /auth failed for \*\*\*/.test(read(logOf('crash'))), {
    timeoutMs: 60_000,
    message: 'crash: its stack trace is logged',
  })
  await waitFor(() => read(logOf('pem')).includes('key: ***'), { timeoutMs: 60_000, message: 'pem: its key is logged' })
  await waitFor(() => read(logOf('split')).includes(':done'), {
    timeoutMs: 60_000,
    message: 'split: both writes are logged',
  })
  await waitFor(() => /the server log is unavailable/.test(terminal), {
    timeoutMs: 60_000,
    message: 'planted: the launcher says its log is unavailable',
  })
  child.stdin?.write('stop\n')
  assert.equal(await exited, 0, `the host stops cleanly; terminal:\n${terminal}`)

  for (const s of ALL) assert.ok(!terminal.includes(s), `the terminal shows no ${s.slice(0, 8)}…`)
  for (const name of ['start', 'crash', 'pem', 'split']) {
    const text = read(logOf(name))
    for (const s of ALL) assert.ok(!text.includes(s), `${name}'s log holds no ${s.slice(0, 8)}…`)
    assert.equal(statSync(logOf(name)).mode & 0o777, 0o600, `${name}'s log is 0600 under umask 000`)
  }
  assert.equal(statSync(path.dirname(logOf('start'))).mode & 0o777, 0o700, 'mcp-logs/ is 0700')
  assert.match(read(logOf('split')), /half: \*\*\* :done/, 'the value cut across two writes is hidden whole')
  assert.match(read(logOf('pem')), /key: \*\*\*/, 'the key printed at once is hidden whole')
  assert.equal(readFileSync(victim, 'utf8'), 'untouched\n', 'the planted link was not written through')
  assert.match(
    terminal,
    /mcp-logs\/planted-[0-9a-f]{12}\.log: is a symbolic link/,
    'the terminal says why, naming the path only',
  )
})
