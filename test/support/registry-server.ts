/**
 * A verdaccio npm registry as a child process (started by test/support/registry.ts): storage in the
 * directory given, no uplinks (nothing is fetched from anywhere else), anyone may read and publish,
 * listening on 127.0.0.1 on a free port. Prints `port <n>` as its first stdout line once listening and
 * runs until SIGTERM or stdin closes.
 *
 * `node registry-server.ts <dir>`
 */
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { runServer } from 'verdaccio'

const dir = process.argv[2]
if (!dir) throw new Error('usage: registry-server.ts <dir>')
const config = {
  self_path: path.join(dir, 'config.yaml'),
  storage: path.join(dir, 'storage'),
  uplinks: {},
  packages: { '**': { access: '$all', publish: '$all', unpublish: '$all' } },
  auth: { htpasswd: { file: path.join(dir, 'htpasswd'), max_users: 100 } },
  web: { enable: false },
  log: { type: 'stdout', format: 'pretty', level: 'fatal' },
  server: { keepAliveTimeout: 0 },
}
// biome-ignore lint/suspicious/noExplicitAny: verdaccio's config type is looser than its declaration
const app = await runServer(config as any)
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port ${(server.address() as AddressInfo).port}\n`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGTERM', stop)
process.stdin.on('end', stop)
process.stdin.resume()
