/**
 * An eager server's tool result is redacted like the lazy wake's (red-team
 * finding 3). A real HTTP fixture mounted through the official client from a
 * URL with `alice:<canary>@` userinfo and `?key=<canary>` answers its
 * `tools/call` with HTTP 500 echoing the request (URL, every header, the bare
 * credential). The tool result the model reads — its content and its error
 * message — holds no form of the canary: raw, percent-encoded,
 * `base64(alice:<canary>)`. What must stay visible stays: that it failed, the
 * HTTP status, the header's name, where it went, the proxy's words. A call
 * that succeeds is unchanged, and another server's result is left alone.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { execTool, resultText } from '../support/host.ts'
import { lazyWorld, waitTools } from '../support/lazy.ts'
import { projectWith } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

const CANARY = 'cAnArY-eager-4b8e2c61'

test('an eager server whose tools/call answers 500 echoing the request leaks no form of its secret', async (t) => {
  const srv = await startHttpServer({
    name: 'h',
    tools: ['echo'],
    echoStatus: 500,
    echoCredential: true,
    echoToolCallsOnly: true,
  })
  const ok = await startHttpServer({ name: 'ok', tools: ['echo'] })
  t.after(() => Promise.all([srv.close(), ok.close()]))
  const home = makeTempDir('dsh-mcp-eager-result-')
  const base = srv.url.replace('http://', `http://alice:${CANARY}@`)
  const project = projectWith({
    h: { url: `${base}?key=${CANARY}`, lifecycle: 'eager', toolCallTimeoutMs: 10_000 },
    ok: { url: ok.url, lifecycle: 'eager', toolCallTimeoutMs: 10_000 },
  })
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await waitTools(w, agent, ['mcp__h__echo', 'mcp__ok__echo'], 'the eager servers never mounted')
  const result = await execTool(w.host.ctx, agent, 'mcp__h__echo', { text: 'x' })
  assert.ok(srv.requests > 0, 'the server was asked (and echoed the request)')

  const b64 = Buffer.from(`alice:${CANARY}`).toString('base64')
  const text = resultText(result) + JSON.stringify(result.error ?? null)
  for (const form of [CANARY, b64, encodeURIComponent(CANARY), b64.slice(4, 20)])
    assert.ok(!text.includes(form), `the tool result holds ${form}: ${text.slice(0, 2000)}`)

  // No over-redaction: what the model needs to act on stays.
  const said = resultText(result)
  assert.equal(result.isError, true)
  assert.match(said, /Error POSTing to endpoint/, 'the cause')
  assert.match(said, /Authorization: \*\*\*/, 'the header name, its value masked')
  assert.match(said, /host: 127\.0\.0\.1:\d+/, 'where it went')
  assert.match(said, /rejected credential \*\*\* for this endpoint/, 'the words of the proxy, the credential masked')

  // Another server's result is left as it is.
  const plain = await execTool(w.host.ctx, agent, 'mcp__ok__echo', { text: `hello ${CANARY.slice(0, 5)}` })
  assert.equal(plain.isError, false)
  assert.match(resultText(plain), /hello cAnAr/)
})
