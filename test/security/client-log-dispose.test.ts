/**
 * The official client's log records stay redacted while its fork is being
 * disposed. Cordis sets a fiber's uid to `null` the moment its dispose
 * starts, but a fork still activating goes on (its `apply` awaits the first
 * connection): an HTTP server that answers only after the server was removed
 * from the project file gets its error body — echoing the request's URL and
 * every header — logged by the client (`connection attempt failed: …`) and,
 * with `failOnStartupError`, by cordis itself (the activation error, its
 * cause). On a real host in process, three servers (a header literal, a
 * `?token=` query value, URL userinfo sent as `Authorization: Basic`): the
 * responses are held until each mount was withdrawn, then released; every
 * host log record holds 0 canaries (nor any 8-character piece). Control: the
 * echo of each request reached the host's log.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, test } from 'node:test'
import { waitFor } from '../support/wait.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { cleanupAll, makeProject } from '../support/tmp.ts'

const canary = (tag: string) => `${randomBytes(9).toString('base64url')}${tag}`
const C = { header: canary('hdr'), query: canary('qry'), userinfo: canary('uinf') }
const CANARIES: Record<string, string> = { ...C, basic: Buffer.from(`alice:${C.userinfo}`).toString('base64') }

function hits(text: string): string[] {
  const out: string[] = []
  for (const [which, secret] of Object.entries(CANARIES))
    for (let i = 0; i + 8 <= secret.length; i++)
      if (text.includes(secret.slice(i, i + 8))) {
        out.push(which)
        break
      }
  return out
}

/** An HTTP server that holds every request until `release()`, then answers 500 with the request echoed. */
async function heldEcho(path: string) {
  const held: [IncomingMessage, ServerResponse][] = []
  let released = false
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(500, { 'content-type': 'text/plain' })
    res.end(`${req.method} ${req.url}\n${JSON.stringify({ url: req.url, headers: req.headers })}\n`)
  }
  const server = createServer((req, res) => {
    req.resume()
    if (released) answer(req, res)
    else held.push([req, res])
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  return {
    url,
    requests: () => held.length,
    release() {
      released = true
      for (const [req, res] of held.splice(0)) answer(req, res)
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

after(() => cleanupAll())

for (const failOnStartupError of [false, true]) {
  test(`an HTTP error body logged while the fork is disposed is redacted (failOnStartupError: ${failOnStartupError})`, async () => {
    const servers = {
      hdr: await heldEcho('/mcp-hdr'),
      qry: await heldEcho('/mcp-qry'),
      usr: await heldEcho('/mcp-usr'),
    }
    const base = { failOnStartupError, reconnect: { maxAttempts: 1 } }
    const entries = {
      hdr: { ...base, url: servers.hdr.url, headers: { 'X-Api-Key': C.header } },
      qry: { ...base, url: `${servers.qry.url}?token=${C.query}` },
      usr: { ...base, url: servers.usr.url.replace('http://', `http://alice:${C.userinfo}@`) },
    }
    const project = makeProject({ '.dsh/mcp.yml': friendly(entries) })
    const w = await startWorld()
    try {
      await w.host.createAgent({ cwd: project.path })
      await waitFor(() => Object.values(servers).every((s) => s.requests() > 0), {
        message: 'each server got a request',
      })
      // Withdraw every mount while it is still activating: the forks' dispose starts (uids turn null).
      project.write('.dsh/mcp.yml', friendly({}))
      await w.mcp.reload()
      await waitFor(() => w.mcp.snapshot().projects.every((p) => p.servers.length === 0), {
        message: 'the servers are withdrawn',
      })
      for (const s of Object.values(servers)) s.release()
      // Control: the echo of every request reached the host's log.
      for (const s of Object.values(servers)) {
        const path = new URL(s.url).pathname
        await waitFor(() => w.host.logsMatching(`POST ${path}`).length > 0, { message: `the echo of ${path} logged` })
      }
      if (failOnStartupError)
        await waitFor(() => w.host.logsMatching('initial connection or tool synchronization failed').length >= 3, {
          message: 'the activation errors logged',
        })
      await w.mcp.whenIdle()
      const found = w.host.logs.flatMap((l) =>
        hits(`${l.text}\n${l.args.map(String).join(' ')}`).map((h) => `${h}: ${l.text}`),
      )
      assert.deepEqual(found, [])
    } finally {
      await w.dispose()
      for (const s of Object.values(servers)) await s.close()
    }
  })
}
