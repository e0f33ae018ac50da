/**
 * A real host with the plugin, run as its own process so a test can read
 * everything that reaches its terminal (stdout and stderr, the way a user
 * running the host sees it). Usage:
 *
 *   node process-host-child.ts <dshHome> <projectDir> [umask-octal]
 *
 * Boots the rc.8 host (host logs echoed to stderr, as a terminal host
 * shows them), loads the plugin (trust: all), opens an agent in the
 * project, waits until idle and prints `READY` on stdout. On a `stop` line
 * on stdin it disposes the plugin and the host, prints `STOPPED` and exits 0.
 */
import { createInterface } from 'node:readline'
import * as plugin from '../../src/index.ts'
import type { ProjectMcp } from '../../src/index.ts'
import { createHost } from '../support/host.ts'

const [dshHome, project, mask] = process.argv.slice(2)
if (!dshHome || !project) throw new Error('usage: process-host-child.ts <dshHome> <projectDir> [umask]')
if (mask) process.umask(Number.parseInt(mask, 8))
const host = await createHost({ cwd: project, echoLogs: true })
const fiber = host.ctx.plugin(plugin, { dshHome, cwd: project, trust: 'all', debounceMs: 30 })
await fiber
const mcp = host.ctx.get('projectMcp') as ProjectMcp
await host.createAgent({ cwd: project })
await mcp.whenIdle()
process.stdout.write(`READY ${JSON.stringify(mcp.snapshot().projects.map((p) => p.servers.map((s) => [s.name, s.state])))}\n`)
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'stop') break
}
await fiber.dispose()
await host.dispose()
process.stdout.write('STOPPED\n')
process.exit(0)
