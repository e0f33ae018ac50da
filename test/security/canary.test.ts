// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * One canary: a unique secret in every place a config can hold one — env
 * literal, `${VAR}` from the process env, header literal and `Bearer <x>`,
 * local-override env, user-layer header, URL userinfo and query (a
 * secret-named and a plain key), `--token=<x>` and `--api-key <x>`
 * arguments, an argument built from `${VAR}`, a PEM key in env (every body
 * line its own canary), a server that prints its secret to stderr (once on
 * a line long enough to be cut at 300 characters) and dies, and a file that
 * does not parse with a secret in it — then every read command of the CLI
 * and a real host in a child process, and every output channel
 * is searched: 0 hits of any canary, nor of any 8-character piece of one.
 *
 * Channels are a list (`channels`): stdout and stderr of each command, the
 * prompt text of a declined `trust` asked on a terminal, the status files
 * under `$DSH_HOME/mcp-status/`, every file under `$DSH_HOME/mcp-logs/`
 * (when present), the host's log file and its terminal (stdout, stderr).
 * The `logs` command joins the command list when the CLI has it.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { type CliRun, runCli } from '../support/cli.ts'
import { STDIO_FIXTURE } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

const HOST_SCRIPT = fileURLToPath(new URL('../fixtures/hosts/canary-host.ts', import.meta.url))

const rand = () => randomBytes(9).toString('base64url')
/** Random first (no two canaries share an 8-character piece), a short tag last. */
const canary = (tag: string) => `${rand()}${tag}`
const PEM_LINES = Array.from({ length: 4 }, (_, i) => canary(`pem${i}`))
const C = {
  envLiteral: canary('elit'),
  envFromVar: canary('evar'),
  headerLiteral: canary('hlit'),
  bearer: canary('bear'),
  localEnv: canary('locl'),
  userHeader: canary('uhdr'),
  urlUserinfo: canary('uinf'),
  urlQuery: canary('qry'),
  urlQueryPlain: canary('qryp'),
  tokenArg: canary('targ'),
  apiKeyArg: canary('akey'),
  argFromVar: canary('avar'),
  stderr: canary('serr'),
  parseError: canary('perr'),
}
const CANARIES: Record<string, string> = { ...C, ...Object.fromEntries(PEM_LINES.map((l, i) => [`pem line ${i}`, l])) }
const PEM = ['-----BEGIN PRIVATE KEY-----', ...PEM_LINES, '-----END PRIVATE KEY-----', ''].join('\n')
const VARS = { CNRY_ENV_VAR: C.envFromVar, CNRY_ARG_VAR: C.argFromVar }

/** Every canary (or 8-character piece of one) in `text`, as "<channel>: <which>". */
function hits(channel: string, text: string): string[] {
  const out: string[] = []
  for (const [which, secret] of Object.entries(CANARIES)) {
    for (let i = 0; i + 8 <= secret.length; i++) {
      const piece = secret.slice(i, i + 8)
      if (text.includes(piece)) {
        out.push(`${channel}: the ${which} canary (piece "${piece}")`)
        break
      }
    }
  }
  return out
}

/** Every regular file under `dir` (recursively), path → text; nothing when `dir` is absent. */
function filesUnder(dir: string): [string, string][] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((f) => statSync(f).isFile())
    .map((f) => [f, readFileSync(f, 'utf8')])
}

const scratch = makeTempDir('dsh-mcp-canary-')
const home = scratch.mkdir('home')
const dshHome = scratch.mkdir('home/.dsh')
const hostCwd = scratch.mkdir('hostcwd')
const pids = scratch.mkdir('pids')
/** Runs the stdio fixture with argv cut at `--`: what follows is for the config (and the canary) only. */
const argsWrapper = scratch.write(
  'args-wrapper.mjs',
  `const i = process.argv.indexOf('--'); if (i > 0) process.argv.splice(i); await import(${JSON.stringify(STDIO_FIXTURE)})\n`,
)
const leakyScript = scratch.write(
  'leaky.cjs',
  `process.stderr.write('starting with token=' + process.env.TOKEN + '\\n' + 'x'.repeat(290) + process.env.TOKEN + ' tail\\n' + 'Error: auth failed for ' + process.env.TOKEN + '\\n    at main (leaky.cjs:1:1)\\n'); process.exit(1)\n`,
)

let http: Awaited<ReturnType<typeof startHttpServer>>
let user: Awaited<ReturnType<typeof startHttpServer>>
let project: ReturnType<typeof makeProject>
let broken: ReturnType<typeof makeProject>
const cliEnv = { ...VARS, TERM: 'dumb' }

before(async () => {
  http = await startHttpServer({ name: 'guarded', tools: ['q'], requireBearer: C.bearer })
  user = await startHttpServer({ name: 'usr', tools: ['u'] })
  const port = new URL(http.url).port
  const userFile = friendly({
    usr: { url: user.url, headers: { 'X-User-Key': C.userHeader }, reconnect: { maxAttempts: 1 } },
  })
  scratch.write('home/.dsh/mcp.yml', userFile)
  const once = { reconnect: { maxAttempts: 1, initialDelayMs: 50 } }
  project = makeProject({
    '.dsh/mcp.yml': friendly({
      good: stdioEntry('good', {
        tools: ['echo'],
        pidfileDir: pids,
        env: { API_KEY: C.envLiteral, FROM_VAR: '${CNRY_ENV_VAR}', PRIVATE_KEY: PEM },
      }),
      argtok: {
        command: process.execPath,
        args: [
          '--no-warnings',
          argsWrapper,
          '--name',
          'argtok',
          '--tools',
          'at',
          '--pidfile-dir',
          pids,
          '--',
          `--token=${C.tokenArg}`,
          '--api-key',
          C.apiKeyArg,
          '--config',
          'db:${CNRY_ARG_VAR}:end',
        ],
        ...once,
      },
      leaky: { command: process.execPath, args: [leakyScript], env: { TOKEN: C.stderr }, ...once },
      guarded: {
        url: http.url,
        headers: { Authorization: `Bearer ${C.bearer}`, 'X-Api-Key': C.headerLiteral },
        ...once,
      },
      creds: { url: `http://alice:${C.urlUserinfo}@127.0.0.1:${port}/mcp`, ...once },
      query: { url: `http://127.0.0.1:${port}/mcp?token=${C.urlQuery}&q=${C.urlQueryPlain}`, ...once },
    }),
    '.dsh/mcp.local.yml': friendly({ good: { env: { LOCAL_SECRET: C.localEnv } } }),
  })
  // A file that does not parse, with a secret on the broken line and the next.
  broken = makeProject({
    '.dsh/mcp.yml': `servers:\n  bad:\n    command: node\n    env: {TOKEN: "${C.parseError}\n      OTHER: [${C.parseError}\n`,
  })
})
after(async () => {
  await http?.close()
  await user?.close()
  reapAll(pids)
  cleanupAll()
})

interface Run extends CliRun {
  label: string
}

const opts = (cwd: string) => ({ cwd, dshHome, home, env: cliEnv })
async function cliRun(args: string[], cwd: string): Promise<Run> {
  const r = await runCli(args, opts(cwd))
  return { label: `dsh-mcp ${args.join(' ')}${cwd === broken.path ? ' (broken project)' : ''}`, ...r }
}

/** `dsh-mcp trust <name>` asking on a terminal, answered "n": the review and the prompt. */
async function declinedTrust(name: string): Promise<Run> {
  const r = await runCli(['trust', name], { ...opts(project.path), stdin: 'n\n', tty: {} })
  return { label: `dsh-mcp trust ${name} (terminal, declined)`, ...r }
}

test('no canary, nor any 8-character piece of one, in any output channel of the CLI or a real host', {
  timeout: 300_000,
}, async () => {
  const runs: Run[] = []
  // The trust review, declined on a terminal: nothing trusted, the prompt shown.
  for (const name of ['argtok', 'creds', 'query', 'good']) {
    const r = await declinedTrust(name)
    assert.equal(r.code, 1, `${r.label}: ${r.stdout}${r.stderr}`)
    assert.match(r.stderr, /Trust this server\? \[y\/N\]/)
    runs.push(r)
  }
  const trusted = await cliRun(['trust', '--all', '--yes'], project.path)
  assert.equal(trusted.code, 0, trusted.stderr)
  runs.push(trusted)

  // A real host in a child process: its terminal (stdout/stderr) and its log file.
  const logFile = scratch.join('host.log')
  const hostEnv = {
    ...process.env,
    ...VARS,
    HOME: home,
    DSH_HOME: dshHome,
    CANARY_HOST_WAIT: 'good=mounted,guarded=mounted,usr=mounted,argtok=mounted,leaky=failed',
  }
  const child = spawn(
    process.execPath,
    ['--no-warnings', HOST_SCRIPT, dshHome, logFile, hostCwd, project.path, broken.path],
    { env: hostEnv, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let hostOut = ''
  let hostErr = ''
  child.stdout.on('data', (c: Buffer) => {
    hostOut += c.toString('utf8')
  })
  child.stderr.on('data', (c: Buffer) => {
    hostErr += c.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (hostOut.includes('READY')) {
        clearInterval(timer)
        resolve()
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(timer)
      if (!hostOut.includes('READY'))
        reject(new Error(`the host exited (${code}) before it was ready:\n${hostOut}\n${hostErr}`))
    })
  })

  // Every read command, while the host runs (status reads its files).
  const commands: [string[], string][] = [
    [['list'], project.path],
    [['list', '--json'], project.path],
    [['list', '--check', '--timeout', '10000'], project.path],
    ...['good', 'argtok', 'leaky', 'guarded', 'creds', 'query', 'usr'].flatMap((n): [string[], string][] => [
      [['get', n], project.path],
      [['get', n, '--json'], project.path],
    ]),
    [['doctor', '--timeout', '10000'], project.path],
    [['doctor', '--json', '--timeout', '10000'], project.path],
    [['validate'], project.path],
    [['export', '--format', 'claude'], project.path],
    [['export', '--format', 'cursor'], project.path],
    [['export', '--format', 'vscode'], project.path],
    [['status'], project.path],
    [['status', '--json'], project.path],
    // The error path: a file that does not parse, with a secret in it.
    [['list'], broken.path],
    [['list', '--json'], broken.path],
    [['get', 'bad'], broken.path],
    [['doctor'], broken.path],
    [['validate'], broken.path],
  ]
  const hasLogs = /^\s+logs\b/m.test((await runCli(['--help'], opts(project.path))).stdout)
  if (hasLogs)
    commands.push(
      [['logs', 'leaky'], project.path],
      [['logs', 'good', '-n', '200'], project.path],
      [['logs', 'argtok'], project.path],
    )
  for (const [args, cwd] of commands) runs.push(await cliRun(args, cwd))
  for (const r of runs) assert.ok(r.code === 0 || r.code === 1, `${r.label} exited ${r.code}: ${r.stderr}`)

  child.stdin.end()
  assert.equal(await exited, 0, `the host did not exit cleanly:\n${hostErr}`)

  // The commands really did their work (a silent command proves nothing).
  const doctor = JSON.parse(runs.find((r) => r.label === 'dsh-mcp doctor --json --timeout 10000')!.stdout) as {
    name: string
    state: string
  }[]
  const state = (n: string) => doctor.find((r) => r.name === n)?.state
  assert.equal(state('good'), 'ok', 'doctor connected with every secret in its env')
  assert.equal(state('argtok'), 'ok', 'doctor started the server with the secret arguments')
  assert.equal(state('guarded'), 'ok', 'doctor connected with the Bearer canary')
  assert.equal(state('leaky'), 'failed')
  assert.match(hostOut, /READY .*"leaky=failed"/)

  const channels: [string, string][] = [
    ...runs.flatMap((r): [string, string][] => [
      [`${r.label} stdout`, r.stdout],
      [`${r.label} stderr`, r.stderr],
    ]),
    ...filesUnder(join(dshHome, 'mcp-status')).map(([f, t]): [string, string] => [`status file ${f}`, t]),
    ...filesUnder(join(dshHome, 'mcp-logs')).map(([f, t]): [string, string] => [`server log ${f}`, t]),
    [`host log file`, readFileSync(logFile, 'utf8')],
    ['host terminal (stdout)', hostOut],
  ]
  assert.ok(filesUnder(join(dshHome, 'mcp-status')).length >= 1, 'the host wrote status files')
  if (process.env.SHOW_CANARY) for (const [label, text] of channels) console.log(`=== ${label}\n${text}`)
  assert.deepEqual(
    channels.flatMap(([label, text]) => hits(label, text)),
    [],
  )
  // The host's stderr is the terminal the official client lets a stdio server write to (until stderr is captured).
  assert.deepEqual(
    hits('host terminal (stderr)', hostErr),
    [],
    `the host terminal (stderr) shows a secret:\n${hostErr}`,
  )
})
