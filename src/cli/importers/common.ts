/**
 * What every importer shares: the candidate shape, reading a source file,
 * and mapping a `.mcp.json`-style entry (`type`, `command`, `args`, `env`,
 * `url`, `headers`) onto the friendly format.
 *
 * Contract: pure except `readSource` (one file read). A candidate either has
 * an `entry` in the friendly shape (not yet validated: the import command
 * runs `checkEntry`) or an `invalid` reason; `notes` tell the user what was
 * translated or dropped. Notes and reasons name keys and variables, never a
 * value.
 *
 * @module
 */
import { checkJsonSyntax } from '../../config/json-check.ts'
import { ENTRY_KEYS } from '../../config/schema.ts'
import { FIELD_NAMES, fieldSpec, type ImportSource } from '../../config/fields.ts'
import { positionAt } from '../../config/yaml-doc.ts'
import { isRecord } from '../../config/guards.ts'
import { MAX_CONFIG_BYTES } from '../../config/parse.ts'
import { readBoundedText } from '../../files/read.ts'

export { isRecord }

export type SourceKind =
  | 'claude'
  | 'claude-user'
  | 'claude-local'
  | 'cursor'
  | 'vscode'
  | 'gemini'
  | 'codex'
  | 'friendly'

/** The layer a source's servers belong in (the scope the other client gave them). */
export type SourceScope = 'project' | 'local' | 'user'

export interface Candidate {
  name: string
  entry?: Record<string, unknown>
  invalid?: string
  notes: string[]
}

export interface SourceResult {
  kind: SourceKind
  file: string
  /** The layer its servers go to unless `-s` says otherwise. */
  scope: SourceScope
  /** Which part of the file, when it holds several (`~/.claude.json`: "this project"). */
  part?: string
  candidates: Candidate[]
  /** The source could not be read at all. */
  error?: string
}

/**
 * The file's text, or a one-line reason it cannot be read: at most the
 * config size cap, never a FIFO or a device (a repository's `.cursor/mcp.json`
 * can be either), through files/read.ts `readBoundedText`.
 */
export function readSource(file: string): { text: string } | { error: string } {
  const read = readBoundedText(file, MAX_CONFIG_BYTES)
  if ('text' in read) return { text: read.text }
  if ('absent' in read) return { error: 'not found' }
  return { error: 'failure' in read ? read.failure.message : 'cannot be read' }
}

/** `<what> at line L, column C`: a parse failure by position only (a parser's own message may quote the file, and a value may be a secret). */
export function parseFailure(
  what: string,
  text: string,
  at: { offset: number } | { line: number; col: number } | undefined,
  reason?: string,
): { error: string } {
  const pos = at === undefined ? undefined : 'offset' in at ? positionAt(text, at.offset) : at
  return { error: `${what}${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}${reason ? `: ${reason}` : ''}` }
}

/** JSON text → object, or a one-line reason with the position of the first problem (never the file's text). */
export function parseJsonObject(text: string): { value: Record<string, unknown> } | { error: string } {
  const body = text.replace(/^\uFEFF/, ' ')
  let v: unknown
  try {
    v = JSON.parse(body)
  } catch {
    const problem = checkJsonSyntax(body, 1000)
    return parseFailure('not valid JSON', body, problem ? { offset: problem.offset } : undefined, problem?.message)
  }
  if (!isRecord(v)) return { error: 'expected a JSON object' }
  return { value: v }
}

/** Apply `fn` to every string of command/args/env/cwd/url/headers. */
function mapStrings(entry: Record<string, unknown>, fn: (s: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...entry }
  for (const k of ['command', 'cwd', 'url'] as const) if (typeof out[k] === 'string') out[k] = fn(out[k] as string)
  if (Array.isArray(out.args)) out.args = out.args.map((a) => (typeof a === 'string' ? fn(a) : a))
  for (const k of ['env', 'headers'] as const) {
    if (isRecord(out[k]))
      out[k] = Object.fromEntries(
        Object.entries(out[k] as Record<string, unknown>).map(([key, v]) => [key, typeof v === 'string' ? fn(v) : v]),
      )
  }
  return out
}

export interface Mapped {
  entry?: Record<string, unknown>
  invalid?: string
  /** Keys that are neither `.mcp.json` keys nor friendly keys (dropped). */
  dropped: string[]
}

/**
 * A `.mcp.json` / `mcpServers` entry, or a friendly one, in the friendly
 * shape: `type`/`transport` kept only when they disagree with what
 * `command`/`url` imply (so `checkEntry` reports it), and `sse` as written.
 */
export function fromMcpJsonEntry(raw: unknown): Mapped {
  if (!isRecord(raw)) return { invalid: 'the entry is not an object', dropped: [] }
  const out: Record<string, unknown> = {}
  const dropped: string[] = []
  for (const [k, v] of Object.entries(raw)) {
    if (ENTRY_KEYS.includes(k)) out[k] = v
    else dropped.push(k)
  }
  for (const key of ['type', 'transport'] as const) {
    const t = out[key]
    if (t === undefined) continue
    const agrees =
      (t === 'stdio' && out.command !== undefined && out.url === undefined) ||
      ((t === 'http' || t === 'streamable-http') && out.url !== undefined && out.command === undefined)
    if (agrees) delete out[key]
  }
  return { entry: out, dropped }
}

/** A candidate from a mapped entry: its entry, or why it is invalid. */
export function candidateFrom(name: string, mapped: Pick<Mapped, 'entry' | 'invalid'>, notes: string[]): Candidate {
  return mapped.entry
    ? { name, entry: mapped.entry, notes }
    : { name, invalid: mapped.invalid ?? 'invalid entry', notes }
}

/**
 * The fields the table spells differently in `source` (config/fields.ts `import`), moved to their friendly
 * key: a value in seconds (a scale) must be a number and becomes whole milliseconds; the first spelling
 * present wins.
 */
export function tableImports(
  raw: Readonly<Record<string, unknown>>,
  source: ImportSource,
): { body: Record<string, unknown> } | { invalid: string } {
  const body: Record<string, unknown> = { ...raw }
  for (const name of FIELD_NAMES) {
    for (const { key, scale } of fieldSpec(name).import?.[source] ?? []) {
      if (!(key in body)) continue
      const value = body[key]
      delete body[key]
      if (scale !== undefined && typeof value !== 'number') return { invalid: `"${key}" is not a number` }
      if (body[name] === undefined) body[name] = scale === undefined ? value : Math.round((value as number) * scale)
    }
  }
  return { body }
}

export function droppedNote(keys: readonly string[]): string[] {
  return keys.length ? [`ignored ${keys.map((k) => `"${k}"`).join(', ')} (not part of the dsh format)`] : []
}

/** Candidates from an `mcpServers`-style object with a per-entry mapper. */
export function candidatesOf(
  servers: unknown,
  map: (name: string, raw: unknown) => Candidate,
): Candidate[] | { error: string } {
  if (servers === undefined) return []
  if (!isRecord(servers)) return { error: 'the server list is not an object' }
  return Object.entries(servers).map(([name, raw]) => map(name, raw))
}

/** The VS Code / Cursor variable forms → `${VAR}`; unknown forms make the entry invalid. */
export function translateEditorVars(
  entry: Record<string, unknown>,
  notes: string[],
  inputs: Map<string, string | undefined> = new Map(),
): { entry: Record<string, unknown> } | { invalid: string } {
  let bad: string | undefined
  let folder = false
  const set = new Set<string>()
  const mapped = mapStrings(entry, (s) =>
    s.replace(
      /\$\{([A-Za-z]+):([^}]*)\}|\$\{(workspaceFolder|userHome|workspaceFolderBasename|pathSeparator)\}/g,
      (m, ns: string | undefined, arg: string | undefined, plain: string | undefined) => {
        if (plain === 'workspaceFolder') {
          folder = true
          return '.'
        }
        if (plain === 'userHome') return `$\{HOME}`
        if (plain === 'pathSeparator') return '/'
        if (plain) {
          bad ??= `uses \${${plain}}, which dsh cannot expand`
          return m
        }
        if (ns === 'env') return `\${${arg}}`
        if (ns === 'input' && arg !== undefined) {
          const v = arg
            .toUpperCase()
            .replace(/[^A-Z0-9_]/g, '_')
            .replace(/^(\d)/, '_$1')
          if (!set.has(v)) {
            set.add(v)
            const d = inputs.get(arg)
            notes.push(`set ${v} in the environment (it was the input "${arg}"${d ? `: ${d}` : ''})`)
          }
          return `\${${v}}`
        }
        bad ??= `uses \${${ns}:…}, which dsh cannot expand`
        return m
      },
    ),
  )
  if (folder) notes.push(`\${workspaceFolder} became "." (servers start in the project root)`)
  return bad ? { invalid: bad } : { entry: mapped }
}
