/**
 * Self-tests of the MCP fixture flags other integration tests rely on
 * (--crash, --marker, --init-delay-ms, --hang, --exit-after-ms, --pidfile-dir).
 *
 * Run: node_modules/.bin/node --test test/host/fixtures.test.ts
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { after, test } from 'node:test'
import { createHost, execTool, mcpToolNames, resultText, stdioFixtureArgs, stdioFixtureConfig, waitFor } from '../support/host.ts'
import { countLive, isAlive, livePids, readMarker, reapAll } from '../support/procs.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

const pidDirs: string[] = []
after(() => {
  for (const dir of pidDirs) reapAll(dir)
  cleanupAll()
})

function pidDir(): string {
  const dir = makeTempDir('fixture-pids-').path
  pidDirs.push(dir)
  return dir
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '0' } },
})}\n`

test('--crash exits 1 at once (after writing the marker); mcp-client keeps respawning it', async (t) => {
  const dir = makeTempDir()
  const marker = dir.join('marker')
  const host = await createHost()
  t.after(() => host.dispose())
  const fiber = await host.mountMcp(
    stdioFixtureConfig({ serverName: 'crashy', crash: true, marker, reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 3 } }),
  )
  assert.equal(fiber.state, 2, 'failOnStartupError:false → active with 0 tools')
  assert.deepEqual(mcpToolNames(host.ctx), [])
  await waitFor(() => readMarker(marker).length >= 2, { message: 'respawned' })

  const child = spawn(process.execPath, stdioFixtureArgs({ serverName: 'c2', crash: true }), { stdio: ['pipe', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c
  })
  const [code] = await once(child, 'exit')
  assert.equal(code, 1)
  assert.match(stderr, /\[c2\] fixture crash requested/)
})

test('--init-delay-ms delays the handshake; tools appear after it', async (t) => {
  const pids = pidDir()
  const host = await createHost()
  t.after(() => host.dispose())
  const started = Date.now()
  await host.mountMcp(stdioFixtureConfig({ serverName: 'slow', tools: ['echo', 'pid'], initDelayMs: 250, pidfileDir: pids }))
  assert.ok(Date.now() - started >= 250)
  assert.deepEqual(mcpToolNames(host.ctx), ['mcp__slow__echo', 'mcp__slow__pid'])
  const [pid] = livePids(pids)
  assert.equal(resultText(await execTool(host.ctx, undefined, 'mcp__slow__pid')), `[slow] pid: ${pid}`)
})

test('--hang never answers initialize and exits 0 when stdin closes; pidfile removed', async () => {
  const pids = pidDir()
  const child = spawn(process.execPath, stdioFixtureArgs({ serverName: 'hang', hang: true, pidfileDir: pids }), {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c
  })
  child.stdin.write(INITIALIZE)
  await waitFor(() => countLive(pids) === 1, { message: 'pidfile written' })
  // Compare with a normal fixture answering the same request: once it has answered,
  // the hanging one (sent earlier) has had at least as long and stayed silent.
  const normal = spawn(process.execPath, stdioFixtureArgs({ serverName: 'ok' }), { stdio: ['pipe', 'pipe', 'inherit'] })
  // Listen for its exit now: it may exit before the hanging one is checked.
  const normalExited = once(normal, 'exit')
  let normalOut = ''
  normal.stdout.setEncoding('utf8').on('data', (c: string) => {
    normalOut += c
  })
  normal.stdin.write(INITIALIZE)
  await waitFor(() => normalOut.includes('"result"'), { message: 'normal fixture answered' })
  normal.stdin.end()
  assert.equal(stdout, '', 'hanging fixture wrote nothing')
  const exited = once(child, 'exit')
  child.stdin.end()
  const [code] = await exited
  assert.equal(code, 0)
  assert.equal(countLive(pids), 0)
  await normalExited
})

test('--exit-after-ms ends the server after connecting; SIGTERM exits cleanly and removes the pidfile', async () => {
  const pids = pidDir()
  const quitter = spawn(process.execPath, stdioFixtureArgs({ serverName: 'q', exitAfterMs: 50, pidfileDir: pids }), {
    stdio: ['pipe', 'ignore', 'inherit'],
  })
  const [code] = await once(quitter, 'exit')
  assert.equal(code, 0)

  const termed = spawn(process.execPath, stdioFixtureArgs({ serverName: 't', pidfileDir: pids }), { stdio: ['pipe', 'ignore', 'inherit'] })
  await waitFor(() => livePids(pids).includes(termed.pid ?? -1), { message: 'pidfile written' })
  const exited = once(termed, 'exit')
  termed.kill('SIGTERM')
  await exited
  assert.equal(isAlive(termed.pid ?? -1), false)
  assert.equal(countLive(pids), 0)
})
