// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `doctor` on an `sse` server: a real legacy HTTP+SSE MCP server (the SDK's
 * SSEServerTransport) on 127.0.0.1 is probed with the SDK's SSE client —
 * initialize and tools/list, headers sent (a bearer it requires), the token
 * never in the result — and a streamable-http entry pointed at the same
 * server is told the endpoint may be SSE-only.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { diagnoseProject } from '../../src/doctor/index.ts'
import { loadProject } from '../../src/files/project.ts'
import { registerFixtureTools } from '../fixtures/servers/tools.ts'
import { cleanupAll } from '../support/tmp.ts'
import { cleanEnv, sandbox } from '../support/sandbox.ts'

const TOKEN = 'sse-canary-token-4242'
let http: Server
let base: string
const transports = new Map<string, SSEServerTransport>()

before(async () => {
  http = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end()
      return
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res)
      transports.set(transport.sessionId, transport)
      res.on('close', () => transports.delete(transport.sessionId))
      const server = new McpServer({ name: 'legacy', version: '1.0.0' })
      registerFixtureTools(server, { name: 'legacy', tools: ['echo', 'add'] })
      void server.connect(transport)
      return
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const t = transports.get(url.searchParams.get('sessionId') ?? '')
      if (t) void t.handlePostMessage(req, res)
      else res.writeHead(404).end()
      return
    }
    res.writeHead(405).end()
  })
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
})

after(async () => {
  http.closeAllConnections()
  await new Promise((r) => http.close(r))
  cleanupAll()
})

test('an sse server is probed over SSE; a streamable-http entry at an SSE-only endpoint gets the hint', async () => {
  const s = sandbox({
    legacy: { type: 'sse', url: `${base}/sse`, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } },
    wrong: { url: `${base}/sse`, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } },
  })
  const results = await diagnoseProject(loadProject(s.project.path, { dshHome: s.dshHome, home: s.home }), {
    env: cleanEnv(s, { SSE_TOKEN: TOKEN }),
    dshHome: s.dshHome,
    timeoutMs: 10_000,
    trustAll: true,
  })
  const legacy = results.find((r) => r.name === 'legacy')!
  assert.equal(legacy.state, 'ok', JSON.stringify(legacy))
  assert.deepEqual(legacy.tools, ['echo', 'add'])
  const wrong = results.find((r) => r.name === 'wrong')!
  assert.equal(wrong.state, 'failed')
  assert.match(`${wrong.error} ${wrong.hint}`, /sse/i, JSON.stringify(wrong))
  assert.ok(!JSON.stringify(results).includes(TOKEN), 'the token never shows')
})
