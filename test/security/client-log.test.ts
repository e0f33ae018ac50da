// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * The official client's log records never carry a server's secret: HTTP
 * servers on 127.0.0.1 that answer 401 and 500 with a body echoing the
 * request (its URL with the query, and every header), configured with a
 * header literal, `Authorization: Bearer <literal>`, a `${VAR}` header, a
 * whole `Authorization` from a `${VAR}`, URL query tokens and URL userinfo
 * (sent as `Authorization: Basic`). A real host runs in a child process
 * (test/fixtures/hosts/canary-host.ts): its terminal (stdout and stderr), the
 * lines its log exporter wrote to its log file, the status files and the
 * plugin's snapshot hold 0 canaries (nor any 8-character piece of one, nor
 * the Basic credential). The echo really reached the host's log (control:
 * the request line of each server, with its query masked).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runCanaryHost } from '../support/canary-host.ts'
import { runCli } from '../support/cli.ts'
import { type HttpServerHandle, startHttpServer } from '../fixtures/servers/http-server.ts'
import { friendly } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

const canary = (tag: string) => `${randomBytes(9).toString('base64url')}${tag}`
const C = {
  headerLiteral: canary('hlit'),
  bearer: canary('bear'),
  headerVar: canary('hvar'),
  authVar: canary('avar'),
  query: canary('qry'),
  queryPlain: canary('qryp'),
  userinfo: canary('uinf'),
}
const BASIC = Buffer.from(`alice:${C.userinfo}`).toString('base64')
const CANARIES: Record<string, string> = { ...C, basic: BASIC }

function hits(channel: string, text: string): string[] {
  const out: string[] = []
  for (const [which, secret] of Object.entries(CANARIES)) {
    for (let i = 0; i + 8 <= secret.length; i++) {
      if (text.includes(secret.slice(i, i + 8))) {
        out.push(`${channel}: the ${which} canary`)
        break
      }
    }
  }
  return out
}

const servers: HttpServerHandle[] = []
after(async () => {
  for (const s of servers) await s.close()
  cleanupAll()
})

test('HTTP 401/500 bodies echoing the request reach no host channel with a secret in them', async () => {
  const s401 = await startHttpServer({ name: 'e401', tools: [], echoStatus: 401 })
  const s500 = await startHttpServer({ name: 'e500', tools: [], echoStatus: 500 })
  servers.push(s401, s500)
  const withUser = (url: string) => url.replace('http://', `http://alice:${C.userinfo}@`)
  // One attempt each: the first error record is the one that matters, and "failed" comes at once.
  const reconnect = { maxAttempts: 1 }
  const project = makeProject({
    '.dsh/mcp.yml': friendly({
      lit401: {
        reconnect,
        url: `${s401.url}?token=${C.query}&page=${C.queryPlain}`,
        headers: { 'X-Api-Key': C.headerLiteral, Authorization: `Bearer ${C.bearer}` },
      },
      var500: {
        reconnect,
        url: `${s500.url}?access_token=${C.query}`,
        headers: { 'X-Custom': '${CLOG_HEADER}', Authorization: '${CLOG_AUTH}' },
      },
      user401: { reconnect, url: withUser(s401.url), headers: { 'X-Trace': 'plain' } },
      user500: { reconnect, url: withUser(`${s500.url}?api_key=${C.query}`) },
    }),
  })
  const home = makeTempDir('dsh-mcp-clog-home-')
  const dshHome = home.join('.dsh')
  const hostCwd = makeTempDir('dsh-mcp-clog-cwd-')
  const vars = { CLOG_HEADER: C.headerVar, CLOG_AUTH: `Bearer ${C.authVar}` }
  const trust = await runCli(['trust', '--all', '--yes'], { cwd: project.path, dshHome, home: home.path, env: vars })
  assert.equal(trust.code, 0, trust.stdout + trust.stderr)

  const logFile = home.join('host.log')
  const names = ['lit401', 'var500', 'user401', 'user500']
  const { out, err, log } = await runCanaryHost({
    dshHome,
    logFile,
    hostCwd: hostCwd.path,
    projects: [project.path],
    wait: names.map((n) => `${n}=failed`),
    env: { ...vars, HOME: home.path },
  })

  // Control: each echo reached the host's log (the request line, its query masked).
  for (const s of [s401, s500])
    assert.ok(log.includes(`POST ${new URL(s.url).pathname}`), `no echo of ${s.url} in the host log:\n${log}`)
  assert.match(log, /token=\*\*\*/)
  const statusDir = join(dshHome, 'mcp-status')
  const statusFiles = existsSync(statusDir)
    ? readdirSync(statusDir).map((f) => readFileSync(join(statusDir, f), 'utf8'))
    : []
  assert.ok(statusFiles.length > 0, 'the host wrote a status file')
  const found = [
    ...hits('host terminal stdout', out),
    ...hits('host terminal stderr', err),
    ...hits('host log', log),
    ...statusFiles.flatMap((t) => hits('status file', t)),
  ]
  assert.deepEqual(found, [])
})
