/**
 * A lazy streamable-HTTP server on a real host (real official client, the
 * HTTP fixture on 127.0.0.1): with a warm cache no request reaches the
 * server at agent start while its cached tools are offered; the first call
 * connects and returns the real result; concurrent first calls open one
 * session; idle release disconnects and brings the cached tools back.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { execTool, resultText } from '../support/host.ts'
import { projectWith } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { lazyWorld, row, waitRow, waitTools, warm } from '../support/lazy.ts'

after(() => cleanupAll())

test('lazy HTTP server: no request at agent start, first calls share one session, idle release disconnects', async (t) => {
  const http = await startHttpServer({ name: 'web', tools: ['echo', 'add'] })
  t.after(() => http.close())
  const home = makeTempDir('dsh-mcp-lazy-home-')
  const project = projectWith({ web: { url: http.url, lifecycle: 'lazy', idleTimeoutMs: 400 } })
  await warm(home, project.path, 'web')
  // The official client ends a connection without deleting its session: count sessions opened from here on.
  const sessions0 = http.sessions

  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const before = http.requests
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await w.mcp.whenIdle()
  await waitTools(w, agent, ['mcp__web__add', 'mcp__web__echo'], 'the cached HTTP tools were never offered')
  assert.equal(http.requests, before, 'no request reached the server at agent start')
  assert.equal(row(w, project.path, 'web')?.state, 'dormant')

  const results = await Promise.all([1, 2, 3].map((i) => execTool(w.host.ctx, agent, 'mcp__web__add', { a: i, b: 1 })))
  assert.deepEqual(results.map(resultText), ['[web] add: 2', '[web] add: 3', '[web] add: 4'])
  assert.equal(http.sessions, sessions0 + 1, 'concurrent first calls opened one session')

  await waitRow(w, project.path, 'web', (s) => s.state === 'dormant', 'the idle HTTP server was never released')
  await waitTools(w, agent, ['mcp__web__add', 'mcp__web__echo'], 'the cached tools did not come back')
  assert.equal(resultText(await execTool(w.host.ctx, agent, 'mcp__web__echo', { text: 'again' })), '[web] echo: again')
  assert.equal(http.sessions, sessions0 + 2, 'the call after the release connected anew')
})
