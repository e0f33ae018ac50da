/**
 * A real host mounting 20 projects × 3 eager stdio servers, run as its own process for row 12, so the row
 * can read the resident memory of the host and of every process below it.
 *
 *   node scale-host.ts <plugin|raw> <dir> <projects> <perProject>
 *
 * `plugin`: the plugin (trust: all) over `<projects>` project directories, each with a `.dsh/mcp.yml` of
 * `<perProject>` servers and one agent; `raw`: no plugin, the official client mounted directly
 * (`ctx.plugin(mcpClient, config)`) with the very same servers (command, arguments, cwd). The servers are
 * bench/support/slow-server.mjs with no delay (no SDK: a server about as small as a Node process gets).
 * Prints `READY <mounted>` once every server is mounted, then waits for a `stop` line on stdin, disposes
 * everything and exits.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import * as plugin from '../../src/index.ts'
import type { ProjectMcp } from '../../src/index.ts'
import { createHost } from '../../test/support/host.ts'
import { friendlyYaml } from './projects.ts'

const [mode, dir, projectsArg, perArg] = process.argv.slice(2)
if ((mode !== 'plugin' && mode !== 'raw') || !dir) throw new Error('usage: scale-host.ts <plugin|raw> <dir> <n> <m>')
const projects = Number(projectsArg ?? 20)
const per = Number(perArg ?? 3)
const server = fileURLToPath(new URL('./slow-server.mjs', import.meta.url))

const roots: string[] = []
for (let p = 0; p < projects; p++) {
  const root = path.join(dir, `project-${p}`)
  mkdirSync(path.join(root, '.dsh'), { recursive: true })
  const servers: Record<string, Record<string, unknown>> = {}
  for (let s = 0; s < per; s++) servers[`s${s}`] = { command: process.execPath, args: [server, `p${p}s${s}`, '0'] }
  writeFileSync(path.join(root, '.dsh', 'mcp.yml'), friendlyYaml(servers))
  roots.push(root)
}

const home = path.join(dir, 'dsh-home')
mkdirSync(home, { recursive: true })
const host = await createHost({ cwd: dir })
let mounted = 0
if (mode === 'plugin') {
  await host.ctx.plugin(plugin, { dshHome: home, cwd: dir, trust: 'all', debounceMs: 30 })
  const mcp = host.ctx.get('projectMcp') as ProjectMcp
  for (const root of roots) await host.createAgent({ cwd: root })
  await mcp.whenIdle()
  mounted = mcp
    .snapshot()
    .projects.flatMap((p) => p.servers)
    .filter((s) => s.state === 'mounted').length
} else {
  const forks = roots.flatMap((root, p) =>
    Array.from({ length: per }, (_, s) =>
      host.ctx.plugin(mcpClient, {
        transport: 'stdio',
        serverName: `p${p}s${s}`,
        command: process.execPath,
        args: [server, `p${p}s${s}`, '0'],
        cwd: root,
      } as never),
    ),
  )
  await Promise.all(forks)
  mounted = forks.length
}
process.stdout.write(`READY ${mounted}\n`)
for await (const line of createInterface({ input: process.stdin })) if (line.trim() === 'stop') break
await host.dispose()
process.exit(0)
