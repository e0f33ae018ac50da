/**
 * Import sources: where each client keeps its config, which are present,
 * and what a given file is (sniffed), dispatching to one importer per client.
 *
 * Contract: `discover` lists the project's client files that exist
 * (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`,
 * `.gemini/settings.json`) plus Codex's `$CODEX_HOME/config.toml`
 * (default `~/.codex/config.toml`). `sniff` decides a given file's dialect
 * from its name and content. `readFrom` never throws.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { importClaude } from './claude.ts'
import { importCodex } from './codex.ts'
import { yamlMessage } from '../../config/yaml-doc.ts'
import { type Candidate, candidateFrom, candidatesOf, droppedNote, fromMcpJsonEntry, isRecord, parseFailure, readSource, type SourceKind, type SourceResult } from './common.ts'
import { importCursor } from './cursor.ts'
import { importGemini } from './gemini.ts'
import { importVscode, stripJsonc } from './vscode.ts'

export const CLIENTS = ['claude', 'cursor', 'vscode', 'gemini', 'codex'] as const
export type Client = (typeof CLIENTS)[number]

export function clientFile(client: Client, root: string, home: string, env: NodeJS.ProcessEnv): string {
  switch (client) {
    case 'claude':
      return path.join(root, '.mcp.json')
    case 'cursor':
      return path.join(root, '.cursor', 'mcp.json')
    case 'vscode':
      return path.join(root, '.vscode', 'mcp.json')
    case 'gemini':
      return path.join(root, '.gemini', 'settings.json')
    case 'codex':
      return path.join(env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex'), 'config.toml')
  }
}

export function discover(root: string, home: string, env: NodeJS.ProcessEnv): { kind: Client; file: string }[] {
  return CLIENTS.map((kind) => ({ kind, file: clientFile(kind, root, home, env) })).filter((s) => existsSync(s.file))
}

/** The dialect of a given file. */
function sniff(file: string, text: string): SourceKind {
  const base = path.basename(file).toLowerCase()
  const dir = path.basename(path.dirname(file)).toLowerCase()
  if (base.endsWith('.toml')) return 'codex'
  if (base.endsWith('.yml') || base.endsWith('.yaml')) return 'friendly'
  if (dir === '.vscode') return 'vscode'
  if (dir === '.cursor') return 'cursor'
  if (dir === '.gemini' || base === 'settings.json') return 'gemini'
  let value: unknown
  try {
    value = JSON.parse(stripJsonc(text))
  } catch {
    // A .json file (or JSON-looking text) that does not parse is broken JSON, never YAML.
    if (base.endsWith('.json') || /^\s*[{[]/.test(text.replace(/^\uFEFF/, ''))) return 'claude'
    return /^\s*\[mcp_servers/m.test(text) ? 'codex' : 'friendly'
  }
  if (!isRecord(value)) return 'claude'
  if (isRecord(value.servers)) return 'vscode'
  if (isRecord(value.mcpServers) && Object.values(value.mcpServers).some((e) => isRecord(e) && ('httpUrl' in e || 'includeTools' in e || 'excludeTools' in e))) return 'gemini'
  return 'claude'
}

function importFriendly(text: string): Candidate[] | { error: string } {
  let doc: unknown
  try {
    doc = parseYaml(text, { maxAliasCount: 100 })
  } catch (err) {
    const pos = (err as { linePos?: { line: number; col: number }[] }).linePos?.[0]
    return parseFailure('not valid YAML', text, pos, yamlMessage((err as Error).message, 64))
  }
  if (!isRecord(doc)) return { error: 'expected a mapping with "servers:"' }
  return candidatesOf(doc.servers, (name, raw) => {
    const m = fromMcpJsonEntry(raw)
    return candidateFrom(name, m, droppedNote(m.dropped))
  })
}

const IMPORTERS: Record<SourceKind, (text: string) => Candidate[] | { error: string }> = {
  claude: importClaude,
  cursor: importCursor,
  vscode: importVscode,
  gemini: importGemini,
  codex: importCodex,
  friendly: importFriendly,
}

/** Whether a parsed source names a server list at all (an explicit file without one is an error, not "0 servers"). */
const LIST = /"mcpServers"\s*:|"servers"\s*:|^\s*servers\s*:|^\s*\[mcp_servers\b/m

export function readFrom(kind: SourceKind | undefined, file: string): SourceResult {
  const src = readSource(file)
  if ('error' in src) return { kind: kind ?? 'claude', file, candidates: [], error: src.error }
  const k = kind ?? sniff(file, src.text)
  const result = IMPORTERS[k](src.text)
  if (!Array.isArray(result)) return { kind: k, file, candidates: [], error: result.error }
  if (kind === undefined && result.length === 0 && !LIST.test(src.text)) {
    return { kind: k, file, candidates: [], error: 'no server list found (expected "mcpServers", "servers:" or [mcp_servers.<name>])' }
  }
  return { kind: k, file, candidates: result }
}
