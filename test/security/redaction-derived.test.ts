// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${secret:NAME} templates
/**
 * Secrets in derived forms (issue 24 item 6). A lazy HTTP server whose URL
 * carries `user:<canary>@` is sent `Authorization: Basic base64(user:<canary>)`;
 * the real HTTP fixture answers every request with an error body echoing
 * every header and naming the bare credential it got (a careless proxy). Its first call (the wake) fails: the
 * canary — raw, as `Basic <base64>`, as the base64 alone, URL-encoded —
 * must reach no host log line, no status file, no snapshot (what the web
 * route and status show) and not the tool result text the model reads. What
 * must stay visible stays: the delivery class, the server's name, the HTTP
 * status, the header's name.
 *
 * Then a `${secret:NAME}` substituted into a url (percent-encoded, upper-case hex) that a server echoes back in
 * other spellings (red team r3 LOW-1): lower-case hex (`%2f`), the URL lower-cased, form encoding with `+` for
 * a space as Java's `URLEncoder` and Python's `quote_plus` write it — an HTTP fixture answering 500 with them,
 * and a stdio server printing them to stderr. None reaches the host log, the status file, `dsh-mcp status` or
 * `dsh-mcp logs`.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { credentialsAsHeader, toOfficialConfig } from '../../src/config/official.ts'
import { basicForms, secretValues } from '../../src/config/redact.ts'
import { EntrySchema } from '../../src/config/schema.ts'
import { CACHE_VERSION, writeCache } from '../../src/lazy/cache.ts'
import { ensureCacheSecret } from '../../src/lazy/secret.ts'
import { cacheKeyOf } from '../../src/plan/desired.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { echoedSpellings, startHttpServer } from '../fixtures/servers/http-server.ts'
import { runCli } from '../support/cli.ts'
import { execTool, resultText } from '../support/host.ts'
import { lazyWorld, waitRow, waitTools } from '../support/lazy.ts'
import { projectWith, startWorld } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { serverOf } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())

const CANARY = 'cAnArY-9f3e1d7b5a'

test('derived forms of URL userinfo are redaction values (unit)', () => {
  const url = `http://robot:${CANARY}%21@127.0.0.1:1/mcp`
  const values = secretValues(EntrySchema.parse({ url }), EntrySchema.parse({ url }), {})
  const b64 = Buffer.from(`robot:${CANARY}!`).toString('base64')
  assert.deepEqual(basicForms(url), [`Basic ${b64}`, b64])
  for (const v of [`Basic ${b64}`, b64, `${CANARY}!`, `${CANARY}%21`]) assert.ok(values.includes(v), v)
  const header = secretValues(
    EntrySchema.parse({ url: 'http://127.0.0.1:1/mcp', headers: { Authorization: `Basic ${b64}` } }),
    undefined,
    {},
  )
  assert.ok(header.includes(`${CANARY}!`), 'a written Basic header decoded')
  assert.ok(!values.includes('127.0.0.1'), 'the host is not a secret')
})

test('a lazy server whose wake fails with an error body echoing Authorization: Basic leaks no derived form', async (t) => {
  const srv = await startHttpServer({ name: 'h', tools: ['echo'], echoStatus: 401, echoCredential: true })
  t.after(() => srv.close())
  const home = makeTempDir('dsh-mcp-derived-')
  const url = srv.url.replace('http://', `http://robot:${CANARY}@`)
  const project = projectWith({ h: { url, lifecycle: 'lazy', toolCallTimeoutMs: 10_000 } })
  // Its tool cache as a previous run left it: the server is dormant until its first call.
  const root = canonicalRoot(project.path)
  const entry = EntrySchema.parse({ url, lifecycle: 'lazy', toolCallTimeoutMs: 10_000 })
  const config = credentialsAsHeader(toOfficialConfig('h', entry, { root, platform: 'linux' }))
  const row = { name: 'h', scope: 'project' as const, file: path.join(root, '.dsh', 'mcp.yml') }
  assert.ok(
    writeCache(home.path, {
      version: CACHE_VERSION,
      key: cacheKeyOf(row, root, home.path, config, ensureCacheSecret(home.path)),
      server: 'h',
      recordedAt: new Date().toISOString(),
      tools: [{ name: 'mcp__h__echo', raw: 'echo', description: 'Echo', parameters: { type: 'object' } }],
    }),
  )
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__h__echo'], 'the cached tool was never offered')
  const result = await execTool(w.host.ctx, agent, 'mcp__h__echo', { text: 'x' })
  await waitRow(w, project.path, 'h', (s) => s.lastError !== null, 'the failed wake was never reported')
  await w.mcp.whenIdle()
  assert.ok(srv.requests > 0, 'the server was asked (and echoed the header)')

  const b64 = Buffer.from(`robot:${CANARY}`).toString('base64')
  const forms = [CANARY, b64, encodeURIComponent(CANARY), b64.slice(4, 20)]
  const statusDir = path.join(home.path, 'mcp-status')
  const channels: [string, string][] = [
    ['tool result', resultText(result) + JSON.stringify(result.error ?? null)],
    ['host log', w.host.logs.map((l) => `${l.text} ${JSON.stringify(l.args ?? [])}`).join('\n')],
    ['snapshot (status, web route)', JSON.stringify(w.mcp.snapshot())],
    ...readdirSync(statusDir).map((f): [string, string] => [
      `status ${f}`,
      readFileSync(path.join(statusDir, f), 'utf8'),
    ]),
  ]
  for (const [name, text] of channels)
    for (const form of forms) assert.ok(!text.includes(form), `${name} holds ${form}: ${text.slice(0, 2000)}`)

  // No over-redaction: what the model needs to act on stays.
  const said = resultText(result)
  assert.equal(result.isError, true)
  assert.match(said, /not_sent/)
  assert.match(said, /server "h" did not start/)
  assert.match(said, /Error POSTing to endpoint/, 'the cause')
  assert.match(said, /Authorization: \*\*\*/, 'the header name, its value masked')
  assert.match(said, /host: 127\.0\.0\.1:\d+/, 'where it went')
  assert.match(said, /rejected credential \*\*\* for this endpoint/, 'the words of the proxy, the credential masked')
})

const URL_SECRET = 'S3cr/et Vä1ue?x=1(~)!*'
test('a url secret echoed in lower-case hex, lower-cased or form-encoded reaches no log, status or CLI output', async (t) => {
  const srv = await startHttpServer({ name: 'u', tools: ['echo'], echoStatus: 500, echoSpellings: true })
  t.after(() => srv.close())
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const script = [
    'const v = process.env.TOK, e = encodeURIComponent(v), lo = (t) => t.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())',
    "const py = e.replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, '+')",
    'const java = new URLSearchParams({ k: v }).toString().slice(2)',
    "process.stderr.write(['lower-hex ' + lo(e), 'lower ' + e.toLowerCase(), 'java ' + java, 'java-lower ' + lo(java), 'python ' + py, 'python-lower ' + lo(py)].join('\\n') + '\\n')",
    'process.exit(1)',
  ].join('\n')
  const p = projectWith({
    u: { url: `${srv.url}?k=\${secret:TOK}` },
    s: { command: process.execPath, args: ['-e', script], env: { TOK: '${secret:TOK}' } },
  })
  const cli = (args: string[], stdin?: string) =>
    runCli([...args, '-C', p.path], {
      cwd: w.hostDir.path,
      dshHome: w.home.path,
      home: w.home.path,
      env: { DSH_MCP_SECRET_BACKEND: 'file' },
      ...(stdin === undefined ? {} : { stdin }),
    })
  const set = await cli(['secret', 'set', 'TOK'], `${URL_SECRET}\n`)
  assert.equal(set.code, 0, set.stderr)
  await w.host.createAgent({ cwd: p.path })
  await waitFor(() => serverOf(w, p.path, 'u').lastError, { message: 'the url row never reported its failure' })
  await waitFor(() => serverOf(w, p.path, 's').lastError, { message: 'the stdio row never reported its failure' })
  await w.mcp.whenIdle()
  const hostLog = w.host.logs.map((l) => `${l.text} ${JSON.stringify(l.args ?? [])}`).join('\n')
  assert.match(hostLog, /lower-hex \/mcp\?k=\*\*\*/, 'the server echoed the url and its spellings (masked)')
  assert.match(hostLog, /java k=\*\*\*/)
  const logs = await cli(['logs', 's', '-n', '200'])
  assert.equal(logs.code, 0, logs.stderr)
  assert.match(logs.stdout, /python-lower \*\*\*/, 'the stdio server printed the spellings (masked)')
  const status = await cli(['status'])
  const statusJson = await cli(['status', '--json'])
  assert.match(status.stdout, /\bu\b/)
  const statusDir = path.join(w.home.path, 'mcp-status')
  const channels: [string, string][] = [
    ['host log', hostLog],
    ['snapshot', JSON.stringify(w.mcp.snapshot())],
    ['dsh-mcp logs s', logs.stdout + logs.stderr],
    ['dsh-mcp status', status.stdout + status.stderr],
    ['dsh-mcp status --json', statusJson.stdout + statusJson.stderr],
    ...readdirSync(statusDir).map((f): [string, string] => [
      `status ${f}`,
      readFileSync(path.join(statusDir, f), 'utf8'),
    ]),
  ]
  // Written independently of src/config/redact.ts (the fixture's own spellings).
  const forms = [URL_SECRET, ...echoedSpellings(URL_SECRET).map(([, form]) => form)]
  assert.ok(
    forms.includes('s3cr%2fet%20v%c3%a41ue%3fx%3d1(~)!*') &&
      forms.includes('S3cr%2Fet+V%C3%A41ue%3Fx%3D1%28%7E%29%21*'),
  )
  for (const [name, text] of channels)
    for (const form of forms) assert.ok(!text.includes(form), `${name} holds ${form}: ${text.slice(0, 3000)}`)
})
