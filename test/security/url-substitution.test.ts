// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} / ${secret:NAME} templates
/**
 * A value substituted into a `url` cannot move the request (issue 24, red-team leftover). A `${VAR}` or
 * `${secret:NAME}` value holding `@`, `/`, `?`, `#` or `&` is percent-encoded for the component it lands
 * in (src/config/url-expand.ts), on the real host with two real HTTP servers: the one the author wrote
 * (`good`) and the one the value names (`evil`). Proof by the servers' own request logs: `evil` is never
 * asked, and `good` sees the value inside the component it was written for. Three variants: userinfo
 * (`@` + a new host), the host from the secret store (`/` and `?`), a query value (`&`, `#`).
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { type HttpServerHandle, startHttpServer } from '../fixtures/servers/http-server.ts'
import { runCli } from '../support/cli.ts'
import { projectWith, startWorld } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'
import { serverOf, untilTools } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())

const port = (s: HttpServerHandle) => new URL(s.url).port

async function pair(t: { after: (f: () => Promise<void>) => void }) {
  const good = await startHttpServer({ name: 'good', tools: ['echo'] })
  const evil = await startHttpServer({ name: 'evil', tools: ['echo'] })
  t.after(() => good.close())
  t.after(() => evil.close())
  return { good, evil }
}

test('userinfo: a ${VAR} holding "@host:port/#" stays the user name; the written host is asked', async (t) => {
  const { good, evil } = await pair(t)
  const value = `x@127.0.0.1:${port(evil)}/mcp#`
  process.env.URL_SUBST_USER = value
  t.after(() => delete process.env.URL_SUBST_USER)
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({ u: { url: `http://\${URL_SUBST_USER}:pw@127.0.0.1:${port(good)}/mcp` } })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await untilTools(w, agent, ['mcp__u__echo'], 'the server the author wrote was mounted')
  assert.ok(good.requests > 0, 'the written host was asked')
  assert.equal(evil.requests, 0, 'the host named inside the value was never asked')
})

test('host from the secret store: "127.0.0.1:<evil>/mcp?h=" is not a host; nothing is asked', async (t) => {
  const { good, evil } = await pair(t)
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({ h: { url: `http://\${secret:URL_SUBST_HOST}/mcp` } })
  const set = await runCli(['secret', 'set', 'URL_SUBST_HOST', '-C', p.path], {
    cwd: w.hostDir.path,
    dshHome: w.home.path,
    home: w.home.path,
    env: { DSH_MCP_SECRET_BACKEND: 'file' },
    stdin: `127.0.0.1:${port(evil)}/mcp?h=\n`,
  })
  assert.equal(set.code, 0, set.stderr)
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  await waitFor(() => serverOf(w, p.path, 'h').lastError, { message: 'the row never reported its failure' })
  assert.notEqual(serverOf(w, p.path, 'h').state, 'mounted')
  assert.equal(evil.requests, 0, 'the host:port/path inside the secret was never asked')
  assert.equal(good.requests, 0)
})

test('query: a ${VAR} holding "&role=admin#x" stays one parameter value', async (t) => {
  const { good, evil } = await pair(t)
  const value = 'a&role=admin#x'
  process.env.URL_SUBST_TENANT = value
  t.after(() => delete process.env.URL_SUBST_TENANT)
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({ q: { url: `http://127.0.0.1:${port(good)}/mcp?tenant=\${URL_SUBST_TENANT}` } })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await untilTools(w, agent, ['mcp__q__echo'], 'mounted')
  assert.ok(good.paths.length > 0)
  for (const target of good.paths) {
    const q = new URL(target, 'http://x').searchParams
    assert.equal(q.get('tenant'), value, target)
    assert.equal(q.has('role'), false, `no parameter smuggled in: ${target}`)
  }
  assert.equal(evil.requests, 0)
})
