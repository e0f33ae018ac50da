/**
 * Canary secrets never surface: env and header values (literal, from a
 * `${VAR}`, from the local override and the user layer) — including a server
 * that prints its secret to stderr and dies, one that is refused with 401,
 * and one whose port is closed — appear in no captured host log line (ours
 * and the official client's), no status file, and no output (stdout or
 * stderr) of `list`, `list --json`, `list --check`, `get`, `get --json`,
 * `doctor`, `doctor --json`, `status`, `status --json`, `validate` and the
 * `trust` review.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { waitFor } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, type TempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
import { statesOf } from '../support/faults.ts'

const CANARIES = {
  env: 'cnry-env-8e1f2c9d',
  local: 'cnry-local-4d2e77aa',
  header: 'cnry-hdr-5b7d90e1',
  variable: 'cnry-var-3c4a11f0',
  stderr: 'cnry-stderr-90ab12cd',
  user: 'cnry-user-6f1e3b42',
}
const VAR = 'DSH_MCP_REL_CANARY'
const ref = '$'.concat('{', VAR, '}')

let w: RuntimeWorld
let project: TempDir
let http: Awaited<ReturnType<typeof startHttpServer>>
before(async () => {
  process.env[VAR] = CANARIES.variable
  http = await startHttpServer({ name: 'guarded', tools: ['q'], requireBearer: 'the-right-token' })
  const userFile = friendly({
    usr: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-User-Key': CANARIES.user }, reconnect: { maxAttempts: 1 } },
  })
  w = await startWorld({ trust: 'all', userFile })
  project = projectWith(
    {
      good: stdioEntry('good', { tools: ['echo'], pidfileDir: w.pids, env: { API_KEY: CANARIES.env, FROM_VAR: ref } }),
      leaky: {
        command: process.execPath,
        args: [
          '-e',
          "process.stderr.write('token=' + process.env.TOKEN + ' var=' + process.env.V + '\\n'); process.exit(1)",
        ],
        env: { TOKEN: CANARIES.stderr, V: ref },
        reconnect: { maxAttempts: 1, initialDelayMs: 50 },
      },
      guarded: {
        url: http.url,
        headers: { Authorization: `Bearer ${CANARIES.header}`, 'X-Var': ref },
        reconnect: { maxAttempts: 1, initialDelayMs: 50 },
      },
      closed: {
        url: 'http://127.0.0.1:9/mcp',
        headers: { 'X-Api-Key': ref },
        reconnect: { maxAttempts: 1, initialDelayMs: 50 },
      },
    },
    { '.dsh/mcp.local.yml': friendly({ good: { env: { LOCAL_SECRET: CANARIES.local } } }) },
  )
})
after(async () => {
  await w?.dispose()
  reapAll(w.pids)
  await http?.close()
  delete process.env[VAR]
  cleanupAll()
})

function leaks(label: string, text: string): string[] {
  return Object.entries(CANARIES)
    .filter(([, v]) => text.includes(v) || text.includes(v.slice(5)))
    .map(([k]) => `${label} holds the ${k} canary`)
}

test('no canary in any host log line or status file, with every failure mode exercised', async () => {
  await w.host.createAgent({ cwd: project.path })
  await w.mcp.whenIdle()
  await waitFor(() => w.host.logsMatching(/mcp-client\(leaky\): gave up after/).length > 0, {
    message: 'the leaky server has failed for good',
  })
  await waitFor(() => w.host.logsMatching(/mcp-client\(guarded\)/).length > 0, { message: 'the 401 is reported' })
  await w.mcp.whenIdle()
  const states = statesOf(w, project.path)
  assert.equal(states.good, 'mounted')
  assert.equal(states.leaky, 'failed')
  assert.equal(states.guarded, 'failed')
  assert.equal(states.closed, 'failed')
  const found: string[] = []
  for (const l of w.host.logs) found.push(...leaks(`log line [${l.name} ${l.type}] ${l.text.slice(0, 80)}`, l.text))
  const statusDir = w.home.join('mcp-status')
  const files = readdirSync(statusDir)
  assert.ok(files.length >= 1)
  for (const f of files) found.push(...leaks(`status file ${f}`, readFileSync(`${statusDir}/${f}`, 'utf8')))
  found.push(...leaks('the snapshot', JSON.stringify(w.mcp.snapshot())))
  assert.deepEqual(found, [])
})

test('no canary in the output of list, get, doctor, status and validate (text and --json)', async () => {
  const opts = { cwd: project.path, dshHome: w.home.path, env: { [VAR]: CANARIES.variable } }
  const commands = [
    ['list'],
    ['list', '--json'],
    ['list', '--check'],
    ['get', 'good'],
    ['get', 'good', '--json'],
    ['get', 'guarded', '--json'],
    ['get', 'leaky'],
    ['get', 'usr', '--json'],
    ['doctor', '--timeout', '30000'],
    ['doctor', '--json', '--timeout', '30000'],
    ['status'],
    ['status', '--json'],
    ['validate'],
    ['validate', project.join('.dsh', 'mcp.yml'), project.join('.dsh', 'mcp.local.yml'), w.home.join('mcp.yml')],
  ]
  // The CLI honours trust (the plugin here runs with trust: 'all'): trust everything first — its review prints too.
  const trust = await runCli(['trust', '--all', '--yes'], opts)
  assert.equal(trust.code, 0, trust.stderr)
  const runs = [
    { args: ['trust', '--all', '--yes'], ...trust },
    ...(await Promise.all(commands.map((args) => runCli(args, opts).then((r) => ({ args, ...r }))))),
  ]
  const found: string[] = []
  for (const r of runs) {
    assert.ok(r.code === 0 || r.code === 1, `${r.args.join(' ')} exited ${r.code}: ${r.stderr}`)
    found.push(
      ...leaks(`dsh-mcp ${r.args.join(' ')} stdout`, r.stdout),
      ...leaks(`dsh-mcp ${r.args.join(' ')} stderr`, r.stderr),
    )
  }
  const doctor = runs.find((r) => r.args.join(' ') === 'doctor --json --timeout 30000')!
  const rows = JSON.parse(doctor.stdout) as { name: string; state: string }[]
  assert.equal(
    rows.find((r) => r.name === 'good')?.state,
    'ok',
    'doctor really connected (with the secrets in its env)',
  )
  assert.equal(rows.find((r) => r.name === 'leaky')?.state, 'failed')
  const status = JSON.parse(runs.find((r) => r.args.join(' ') === 'status --json')!.stdout)
  assert.ok(
    status.projects.some((p: { root: string }) => p.root === project.path),
    'status read the running host',
  )
  if (process.env.SHOW_CLI)
    for (const r of runs) console.log(`$ dsh-mcp ${r.args.join(' ')} (exit ${r.code})\n${r.stdout}${r.stderr}`)
  assert.deepEqual(found, [])
})
