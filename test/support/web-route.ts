/**
 * The `dsh web` route of the plugin served by a real node:http server, for
 * tests that send requests a browser would not (forged `Host`, `Origin`,
 * `Sec-Fetch-Site`, raw sockets that never read).
 *
 * `hostWebServer(bind)` listens on `bind` (port 0) and dispatches exact routes
 * the way rc.8's `dsh-host-webserver` does (its `register({kind:'exact'})`,
 * the pathname of the request URL, 404 otherwise; its `host` getter is the
 * bind host); provide `webServer` as a service and the plugin registers its
 * routes on it. `request()` sends one GET with exactly the given headers.
 */
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { WebServerLike } from '../../src/host/web.ts'

type Route = Parameters<WebServerLike['register']>[0]

export interface HostWebServer {
  webServer: WebServerLike & { readonly port: number }
  port: number
  close(): Promise<void>
}

export async function hostWebServer(bind = '127.0.0.1'): Promise<HostWebServer> {
  const exact = new Map<string, Route>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = exact.get(new URL(req.url ?? '/', 'http://x').pathname)
    if (route) return route.handler(req, res)
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((r) => server.listen(0, bind, r))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    webServer: {
      host: bind,
      port,
      register(route: Route) {
        exact.set(route.path, route)
        return () => void exact.delete(route.path)
      },
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

export interface Answer {
  status: number
  body: string
}

/** One GET to 127.0.0.1:`port` with exactly `headers` (a `host` given replaces the real one); the first SSE event for streams. */
export function request(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers, setHost: !('host' in headers) })
    req.on('error', reject)
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      const done = () => {
        res.destroy()
        resolve({ status: res.statusCode ?? 0, body })
      }
      res.on('data', (chunk: string) => {
        body += chunk
        if ((res.headers['content-type'] ?? '').startsWith('text/event-stream') && body.includes('\n\n')) done()
      })
      res.on('end', done)
    })
    req.end()
  })
}
