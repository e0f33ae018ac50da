/**
 * Import sources: where each client keeps its config and in which scope,
 * which are present, and what a given file is (sniffed), dispatching to one
 * importer per client.
 *
 * Contract: `clientSources` lists a client's files with the scope the client
 * gives them — Claude Code: the project's `.mcp.json` (project) and
 * `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`): top-level servers
 * (user) and this project's (local); Claude Desktop: its
 * `claude_desktop_config.json` on each OS (user); Cursor:
 * `.cursor/mcp.json` (project) and `~/.cursor/mcp.json` (user); VS Code:
 * `.vscode/mcp.json` (project); Gemini CLI: `.gemini/settings.json` (project)
 * and `~/.gemini/settings.json` (user); Codex: the project's
 * `.codex/config.toml` (project: Codex reads it in a project it trusts) and
 * `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`, user). `discover`
 * lists every one that exists. `sniff` decides a given file's dialect from its
 * name and content (a given file goes to the project scope); `givenSources`
 * reads a given Claude Code `.claude.json` as `--from claude` reads it (its
 * user servers and this project's local ones). `readFrom` never throws.
 *
 * @module
 */
import { existsSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { yamlMessage } from '../../config/yaml-doc.ts'
import { importClaude, importClaudeProject } from './claude.ts'
import { importCodex } from './codex.ts'
import {
  type Candidate,
  candidateFrom,
  candidatesOf,
  droppedNote,
  fromMcpJsonEntry,
  isRecord,
  parseFailure,
  readSource,
  type SourceKind,
  type SourceResult,
  type SourceScope,
} from './common.ts'
import { importCursor } from './cursor.ts'
import { importGemini } from './gemini.ts'
import { importVscode, stripJsonc } from './vscode.ts'

export const CLIENTS = ['claude', 'claude-desktop', 'cursor', 'vscode', 'gemini', 'codex'] as const
export type Client = (typeof CLIENTS)[number]

export interface SourceSpec {
  kind: SourceKind
  file: string
  scope: SourceScope
  part?: string
}

export interface Where {
  root: string
  home: string
  env: NodeJS.ProcessEnv
  platform: NodeJS.Platform
}

/** Claude Desktop's config file on each OS. */
export function desktopConfig(w: Where): string {
  const file = 'claude_desktop_config.json'
  if (w.platform === 'darwin') return path.join(w.home, 'Library', 'Application Support', 'Claude', file)
  if (w.platform === 'win32') return path.join(w.env.APPDATA || path.join(w.home, 'AppData', 'Roaming'), 'Claude', file)
  return path.join(w.env.XDG_CONFIG_HOME || path.join(w.home, '.config'), 'Claude', file)
}

/** A client's config files, each with the scope the client gives it. */
export function clientSources(client: Client, w: Where): SourceSpec[] {
  const { root, home, env } = w
  switch (client) {
    case 'claude': {
      const user = path.join(env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : home, '.claude.json')
      return [
        { kind: 'claude', file: path.join(root, '.mcp.json'), scope: 'project' },
        { kind: 'claude-user', file: user, scope: 'user' },
        { kind: 'claude-local', file: user, scope: 'local', part: 'this project' },
      ]
    }
    case 'claude-desktop':
      return [{ kind: 'claude', file: desktopConfig(w), scope: 'user' }]
    case 'cursor':
      return unique([
        { kind: 'cursor', file: path.join(root, '.cursor', 'mcp.json'), scope: 'project' },
        { kind: 'cursor', file: path.join(home, '.cursor', 'mcp.json'), scope: 'user' },
      ])
    case 'vscode':
      return [{ kind: 'vscode', file: path.join(root, '.vscode', 'mcp.json'), scope: 'project' }]
    case 'gemini':
      return unique([
        { kind: 'gemini', file: path.join(root, '.gemini', 'settings.json'), scope: 'project' },
        { kind: 'gemini', file: path.join(home, '.gemini', 'settings.json'), scope: 'user' },
      ])
    case 'codex':
      return unique([
        { kind: 'codex', file: path.join(root, '.codex', 'config.toml'), scope: 'project' },
        {
          kind: 'codex',
          file: path.join(env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex'), 'config.toml'),
          scope: 'user',
        },
      ])
  }
}

/** A project at the home directory: its project file is its user file; read it once, as the project's. */
function unique(specs: SourceSpec[]): SourceSpec[] {
  return specs.filter((s, i) => specs.findIndex((o) => o.file === s.file) === i)
}

/** Every client source that exists (a client's file read once per part). */
export function discover(w: Where): SourceSpec[] {
  return CLIENTS.flatMap((c) => clientSources(c, w)).filter((s) => existsSync(s.file))
}

/** A given file's sources: Claude Code's `.claude.json` is its user part and this project's local part. */
export function givenSources(file: string): SourceSpec[] | undefined {
  if (path.basename(file) !== '.claude.json') return undefined
  return [
    { kind: 'claude-user', file, scope: 'user' },
    { kind: 'claude-local', file, scope: 'local', part: 'this project' },
  ]
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
  if (
    isRecord(value.mcpServers) &&
    Object.values(value.mcpServers).some(
      (e) => isRecord(e) && ('httpUrl' in e || 'includeTools' in e || 'excludeTools' in e),
    )
  )
    return 'gemini'
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

function importers(root: string): Record<SourceKind, (text: string) => Candidate[] | { error: string }> {
  let real = root
  try {
    real = realpathSync(root)
  } catch {
    // a root that cannot be resolved is matched as given
  }
  return {
    claude: importClaude,
    'claude-user': importClaude,
    'claude-local': (text) => importClaudeProject(text, [...new Set([root, real])]),
    cursor: importCursor,
    vscode: importVscode,
    gemini: importGemini,
    codex: importCodex,
    friendly: importFriendly,
  }
}

/** Whether a parsed source names a server list at all (an explicit file without one is an error, not "0 servers"). */
const LIST = /"mcpServers"\s*:|"servers"\s*:|^\s*servers\s*:|^\s*\[mcp_servers\b/m

/** Read one source: a client's (`spec.kind` set) or a given file (`kind` sniffed, project scope). */
export function readFrom(
  spec: { kind?: SourceKind; file: string; scope?: SourceScope; part?: string },
  root: string,
): SourceResult {
  const { file } = spec
  const scope = spec.scope ?? 'project'
  const part = spec.part !== undefined ? { part: spec.part } : {}
  const src = readSource(file)
  if ('error' in src) return { kind: spec.kind ?? 'claude', file, scope, ...part, candidates: [], error: src.error }
  const k = spec.kind ?? sniff(file, src.text)
  const result = importers(root)[k](src.text)
  if (!Array.isArray(result)) return { kind: k, file, scope, ...part, candidates: [], error: result.error }
  if (spec.kind === undefined && result.length === 0 && !LIST.test(src.text)) {
    return {
      kind: k,
      file,
      scope,
      ...part,
      candidates: [],
      error: 'no server list found (expected "mcpServers", "servers:" or [mcp_servers.<name>])',
    }
  }
  return { kind: k, file, scope, ...part, candidates: result }
}
