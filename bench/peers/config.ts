/**
 * The same N real servers written in each CLI's own format and user scope, under a private HOME.
 *
 * Contract: `realServers(n, scripts, data, hang?)` is the server list — memory, filesystem and
 * everything in turn (memory-1, filesystem-2, everything-3, memory-4, …), each launched as
 * `<absolute node> <entry script> …` with its state in `data`; with `hang`, the last one is replaced
 * by bench/peers/hang-server.mjs (never answers `initialize`). `writeHome(home, servers, cwd)`
 * writes them as Claude Code's user scope (`~/.claude.json` `mcpServers`), Codex's
 * (`~/.codex/config.toml` `[mcp_servers.<name>]`), Gemini CLI's (`~/.gemini/settings.json`
 * `mcpServers`, with `cwd` a trusted folder) and ours (`~/.dsh/mcp.yml`, the user layer), and the
 * floor's list (`<home>/floor.json`, returned).
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RealServers } from '../../test/support/peers.ts'

export interface Server {
  name: string
  command: string
  args: string[]
  env: Record<string, string>
}

const HANG = fileURLToPath(new URL('./hang-server.mjs', import.meta.url))
const KINDS = ['memory', 'filesystem', 'everything'] as const

export function realServers(n: number, node: string, scripts: RealServers, data: string, hang = false): Server[] {
  return Array.from({ length: n }, (_, i): Server => {
    const kind = KINDS[i % KINDS.length] as (typeof KINDS)[number]
    const name = `${kind}-${i + 1}`
    if (hang && i === n - 1) return { name: `hang-${i + 1}`, command: node, args: [HANG], env: {} }
    if (kind === 'memory')
      return { name, command: node, args: [scripts.memory], env: { MEMORY_FILE_PATH: path.join(data, `${name}.json`) } }
    if (kind === 'filesystem') return { name, command: node, args: [scripts.filesystem, data], env: {} }
    return { name, command: node, args: [scripts.everything], env: {} }
  })
}

const toml = (s: string) => JSON.stringify(s)

export function writeHome(home: string, servers: readonly Server[], cwd: string): string {
  mkdirSync(cwd, { recursive: true })
  const std = (s: Server) => ({ command: s.command, args: s.args, env: s.env })
  const json = Object.fromEntries(servers.map((s) => [s.name, { type: 'stdio', ...std(s) }]))
  writeFileSync(path.join(home, '.claude.json'), `${JSON.stringify({ mcpServers: json }, null, 2)}\n`)
  mkdirSync(path.join(home, '.codex'), { recursive: true })
  const codex = servers.map((s) =>
    [
      `[mcp_servers.${toml(s.name)}]`,
      `command = ${toml(s.command)}`,
      `args = [${s.args.map(toml).join(', ')}]`,
      ...(Object.keys(s.env).length
        ? [
            `env = { ${Object.entries(s.env)
              .map(([k, v]) => `${k} = ${toml(v)}`)
              .join(', ')} }`,
          ]
        : []),
    ].join('\n'),
  )
  writeFileSync(path.join(home, '.codex', 'config.toml'), `${codex.join('\n\n')}\n`)
  mkdirSync(path.join(home, '.gemini'), { recursive: true })
  const gemini = Object.fromEntries(servers.map((s) => [s.name, std(s)]))
  writeFileSync(path.join(home, '.gemini', 'settings.json'), `${JSON.stringify({ mcpServers: gemini }, null, 2)}\n`)
  writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), `${JSON.stringify({ [cwd]: 'TRUST_FOLDER' })}\n`)
  mkdirSync(path.join(home, '.dsh'), { recursive: true })
  const ours = Object.fromEntries(servers.map((s) => [s.name, std(s)]))
  writeFileSync(path.join(home, '.dsh', 'mcp.yml'), `${JSON.stringify({ servers: ours }, null, 2)}\n`)
  const floor = path.join(home, 'floor.json')
  writeFileSync(floor, `${JSON.stringify(servers)}\n`)
  return floor
}
