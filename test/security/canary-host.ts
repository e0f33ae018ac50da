/**
 * A real host (rc.8 packages + this plugin) in its own process, for the
 * canary test: argv is `<dshHome> <logFile> <hostCwd> <project>...`. It
 * creates one agent per project, waits until the plugin is idle and every
 * server named in `$CANARY_HOST_WAIT` (comma-separated `name=state`) has
 * reached its state, writes every host log line to `<logFile>` (and to
 * stdout, as a terminal shows it), prints `READY`, and disposes when its
 * stdin closes. Whatever the official client lets a server print lands on
 * this process's stderr: the host's terminal.
 */
import { appendFileSync } from 'node:fs'
import type { ProjectMcp } from '../../src/index.ts'
import { createHost, waitFor } from '../support/host.ts'
import { plugin } from '../support/runtime.ts'

const [dshHome, logFile, hostCwd, ...projects] = process.argv.slice(2)
if (!dshHome || !logFile || !hostCwd) throw new Error('usage: canary-host.ts <dshHome> <logFile> <hostCwd> <project>...')

const host = await createHost({ cwd: hostCwd })
let written = 0
const flush = () => {
  for (; written < host.logs.length; written++) {
    const l = host.logs[written]!
    const line = `[${l.type} ${l.name}] ${l.text}\n`
    appendFileSync(logFile, line)
    process.stdout.write(line)
  }
}
const timer = setInterval(flush, 50)
const fiber = host.ctx.plugin(plugin, { dshHome, cwd: hostCwd, trust: 'require', debounceMs: 20 })
await fiber
const mcp = host.ctx.get('projectMcp') as ProjectMcp
for (const p of projects) await host.createAgent({ cwd: p })
const wanted = (process.env.CANARY_HOST_WAIT ?? '').split(',').filter(Boolean).map((x) => x.split('=') as [string, string])
await waitFor(
  async () => {
    await mcp.whenIdle()
    const rows = mcp.snapshot().projects.flatMap((p) => p.servers)
    return wanted.every(([name, state]) => rows.some((r) => r.name === name && r.state === state))
  },
  { timeoutMs: 60_000, intervalMs: 100, message: `servers never reached ${JSON.stringify(wanted)}: ${JSON.stringify(mcp.snapshot())}` },
)
await mcp.whenIdle()
flush()
process.stdout.write(`READY ${JSON.stringify(mcp.snapshot().projects.flatMap((p) => p.servers.map((s) => `${s.name}=${s.state}`)))}\n`)
process.stdin.resume()
process.stdin.on('end', async () => {
  await fiber.dispose()
  await host.dispose()
  flush()
  clearInterval(timer)
  process.exit(0)
})
