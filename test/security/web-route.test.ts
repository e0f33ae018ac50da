/**
 * The `dsh web` route answers its own page only (issue 24, item 2). The
 * plugin runs on a real host in process and registers its route on a real
 * node:http server dispatching like rc.8's web server (test/support/web-route.ts);
 * project P (a home-like path, a server) is known through an agent in it.
 * Requests a browser sends under DNS rebinding (a `Host` naming the
 * attacker's domain) and from another site's page (`Origin`,
 * `Sec-Fetch-Site`) are refused with 403 and bytes that hold no root;
 * a `cwd` that resolves on disk to P (`/proc/self/fd/N`, `/proc/<pid>/cwd`, a
 * link) names no project (string match only), a 14 kB `cwd` is refused 400;
 * streams are bounded in count (503), and a stream that never reads is
 * closed while others get every change, from one view per change.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { closeSync, openSync, symlinkSync } from 'node:fs'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { after, before, test } from 'node:test'
import { EVENTS_PATH, STATUS_PATH, serveWeb, type WebView } from '../../src/host/web.ts'
import { type RuntimeWorld, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir, type TempDir } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'
import { type HostWebServer, hostWebServer, request } from '../support/web-route.ts'

let w: RuntimeWorld
let web: HostWebServer
let p: TempDir
let port: number
const PATHS = [STATUS_PATH, EVENTS_PATH]

before(async () => {
  w = await startWorld()
  web = await hostWebServer()
  port = web.port
  w.host.ctx.provide('webServer', web.webServer)
  p = projectWith({ alpha: stdioEntry('alpha') })
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  await waitFor(async () => (await request(port, STATUS_PATH)).body.includes(p.path), { message: 'the route serves P' })
})

after(async () => {
  await w?.dispose()
  await web?.close()
  cleanupAll()
})

const q = (cwd: string) => `${STATUS_PATH}?cwd=${encodeURIComponent(cwd)}`
const current = async (cwd: string) => (JSON.parse((await request(port, q(cwd))).body) as WebView).current

test('rebinding: a Host naming another domain is refused on both paths, bytes hold no root', async () => {
  for (const host of [
    `evil.example:${port}`,
    `rebind.127.0.0.1.nip.io:${port}`,
    `127.0.0.1.evil.example:${port}`,
    `localhost.evil.example:${port}`,
    'evil.example',
  ]) {
    for (const path of PATHS) {
      const a = await request(port, path, { host })
      assert.equal(a.status, 403, `${host} ${path}`)
      assert.ok(!a.body.includes(p.path) && !a.body.includes('alpha'), `${host} ${path}: ${a.body}`)
    }
  }
  // Control: the loopback names and the bound literal answer.
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
    const a = await request(port, STATUS_PATH, { host })
    assert.equal(a.status, 200, host)
    assert.ok(a.body.includes(p.path))
  }
})

test('cross origin: another page (Origin, Sec-Fetch-Site) is refused; the own origin answers', async () => {
  const own = `127.0.0.1:${port}`
  for (const headers of [
    { origin: 'http://evil.example' },
    { origin: `http://127.0.0.1:${port + 1}` },
    { origin: `http://localhost:${port}` },
    { origin: 'null' },
    { origin: `https://127.0.0.1:${port}` },
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
  ]) {
    for (const path of PATHS) {
      const a = await request(port, path, { host: own, ...headers })
      assert.equal(a.status, 403, `${JSON.stringify(headers)} ${path}`)
      assert.ok(!a.body.includes(p.path))
    }
  }
  const ok = await request(port, EVENTS_PATH, {
    host: own,
    origin: `http://${own}`,
    'sec-fetch-site': 'same-origin',
  })
  assert.equal(ok.status, 200)
  assert.ok(ok.body.startsWith('data: ') && ok.body.includes(p.path))
})

test('cwd is matched as a string: /proc/self/fd, /proc/<pid>/cwd and a link resolving to P name no project', async () => {
  const fd = openSync(p.path, 'r')
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { cwd: p.path, stdio: 'ignore' })
  const links = makeTempDir('dsh-mcp-web-link-')
  symlinkSync(p.path, links.join('p'))
  try {
    for (const cwd of [
      `/proc/self/fd/${fd}`,
      `/proc/${process.pid}/fd/${fd}`,
      `/proc/${child.pid}/cwd`,
      links.join('p'),
      `/proc/self/fd/${fd}/${'x/../'.repeat(50)}`,
    ])
      assert.equal(await current(cwd), null, cwd)
    // Control: P itself, inside it, and a normalised spelling of it.
    assert.equal(await current(p.path), p.path)
    assert.equal(await current(`${p.path}/src/deep`), p.path)
    assert.equal(await current(`${p.path}//src/../`), p.path)
    assert.equal(await current(`${p.path}-other`), null)
  } finally {
    closeSync(fd)
    child.kill()
  }
})

test('a 14 kB cwd is refused 400 on both paths without a root in the bytes; a long valid one still matches', async () => {
  // Slashes stay raw in the query, as a browser sends them (node's 16 kB header bound would refuse more).
  const raw = (cwd: string) => encodeURIComponent(cwd).replaceAll('%2F', '/')
  for (const cwd of ['/'.concat('a'.repeat(14_000)), `${p.path}/${'x/'.repeat(7_000)}`, `${p.path}/\0`]) {
    for (const path of PATHS) {
      const a = await request(port, `${path}?cwd=${raw(cwd)}`)
      assert.equal(a.status, 400, `${cwd.length} chars on ${path}`)
      assert.ok(!a.body.includes(p.path))
    }
  }
  assert.equal(await current(`${p.path}/${'d/'.repeat(1_500)}`), p.path)
})

function openStream(path = EVENTS_PATH): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path })
    req.on('error', reject)
    req.on('response', resolve)
    req.end()
  })
}

test('streams are bounded: one more than the bound is answered 503, and a closed one frees its place', async () => {
  const open: IncomingMessage[] = []
  try {
    for (let i = 0; i < 32; i++) {
      const res = await openStream()
      assert.equal(res.statusCode, 200, `stream ${i}`)
      open.push(res)
    }
    for (let i = 0; i < 3; i++) {
      const extra = await request(port, EVENTS_PATH)
      assert.equal(extra.status, 503)
      assert.ok(!extra.body.includes(p.path))
    }
    open.pop()?.destroy()
    await waitFor(async () => (await request(port, EVENTS_PATH)).status === 200, { message: 'a place is free again' })
  } finally {
    for (const res of open) res.destroy()
  }
})

test('a stream that never reads is closed with its bytes bounded, while the others get every change from one view per change', async () => {
  const server = await hostWebServer()
  const changes = new Set<() => void>()
  let n = 0
  let views = 0
  const PAD = 400_000
  const pad = 'x'.repeat(PAD)
  const stop = serveWeb(
    server.webServer,
    {
      view: () => {
        views++
        const files = [{ file: 'f', words: pad, fix: '' }]
        return { current: null, projects: [{ root: `/p/${n}`, agents: 0, servers: [], files, notRunning: 0 }] }
      },
      onChange: (l) => {
        changes.add(l)
        return () => void changes.delete(l)
      },
    },
    { maxStreams: 8, maxQueuedBytes: 64 * 1024, maxMissed: 3 },
  )
  // The slow client: a raw socket with a small receive buffer that never reads.
  const slow = connect({ host: '127.0.0.1', port: server.port })
  slow.pause()
  let slowClosed = false
  slow.on('close', () => {
    slowClosed = true
  })
  slow.write(`GET ${EVENTS_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`)
  const fast: string[] = []
  const readers = await Promise.all(
    [0, 1, 2].map(async (i) => {
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const r = httpRequest({ host: '127.0.0.1', port: server.port, path: EVENTS_PATH })
        r.on('error', reject)
        r.on('response', resolve)
        r.end()
      })
      let buf = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        buf += c
        for (let at = buf.indexOf('\n\n'); at >= 0; at = buf.indexOf('\n\n')) {
          const m = /"root":"\/p\/(\d+)"/.exec(buf.slice(0, at))
          if (m) fast[i] = m[1] as string
          buf = buf.slice(at + 2)
        }
      })
      return res
    }),
  )
  try {
    const ROUNDS = 60
    for (let i = 1; i <= ROUNDS; i++) {
      n = i
      for (const l of changes) l()
      await waitFor(() => [0, 1, 2].every((k) => fast[k] === String(i)), { message: `every reader got change ${i}` })
    }
    // One view per change (and the first), however many streams.
    assert.ok(views <= ROUNDS + 1, `${views} views for ${ROUNDS} changes`)
    // The slow stream was closed: reading now, it ends after what the kernel's socket buffers held
    // (a few MB on loopback), far below what was pushed to the others.
    let got = 0
    slow.on('data', (c: Buffer) => {
      got += c.length
    })
    slow.resume()
    await waitFor(() => slowClosed, { message: 'the slow stream is closed' })
    assert.ok(got < (ROUNDS * PAD) / 2, `the slow client got ${got} bytes of ${ROUNDS * PAD} pushed to the others`)
  } finally {
    for (const r of readers) r.destroy()
    slow.destroy()
    stop()
    await server.close()
  }
})
