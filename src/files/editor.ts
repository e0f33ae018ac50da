/**
 * One editor over both file dialects: the friendly YAML file (`servers:`)
 * and the JSON file (`mcpServers`).
 *
 * Contract: `createEditor(text, format)` edits in memory; `text()` returns
 * the new file text. Every operation keeps all bytes it does not need to
 * change (see edit-yaml.ts / edit-json.ts), the file's line endings and its
 * BOM. `editProblem` tells whether a file's current text may be edited at
 * all: it must parse (`parseConfigText` ok: a file that does not parse is
 * never written) and a JSON file must be strict JSON. A new friendly file
 * starts with `header` (the schema comment) and `servers:`.
 *
 * @module
 */
import { parseDocument } from 'yaml'
import { formatDiagnostic } from '../config/diagnostics.ts'
import { type FileFormat, parseConfigText } from '../config/parse.ts'
import { rootKeyOf } from '../config/read-document.ts'
import { deleteMember, jsonEditable, setMember } from './edit-json.ts'
import { deletePair, setPair } from './edit-yaml.ts'
import { isRecord } from '../config/guards.ts'

export interface ConfigEditor {
  readonly format: FileFormat
  /** Server names in file order. */
  names(): string[]
  has(name: string): boolean
  /** The entry as plain data (`undefined` when absent). */
  get(name: string): unknown
  /** Add the entry at the end, or replace an existing entry in place. */
  set(name: string, entry: Record<string, unknown>): void
  /** Set one key of an existing entry (appended when new). */
  setField(name: string, key: string, value: unknown): void
  /** Remove one key of an entry; no-op when absent. */
  deleteField(name: string, key: string): void
  /** Remove the entry; false when it was absent. */
  delete(name: string): boolean
  /** The file text now. */
  text(): string
}

export interface EditorOptions {
  /** First line(s) of a new friendly file, without a trailing newline. */
  header?: string
}

/** Why `text` must not be edited (one line with file:line:col), or undefined when it may. */
export function editProblem(
  text: string,
  file: string,
  format: FileFormat,
  relativeTo?: (f: string) => string,
): string | undefined {
  const parsed = parseConfigText(text, { file, format, allowPartial: true })
  if (!parsed.ok) {
    const d = parsed.diagnostics.find((x) => x.severity === 'error') ?? parsed.diagnostics[0]
    const where = d ? formatDiagnostic(d, relativeTo ? { relativeTo } : {}) : file
    return `${where} (fix the file first; it was not changed)`
  }
  if (format === 'mcpServers' && !jsonEditable(text)) {
    return `${relativeTo ? relativeTo(file) : file}: is not strict JSON (comments or trailing commas?); edit it by hand`
  }
  return undefined
}

export function createEditor(text: string | undefined, format: FileFormat, opts: EditorOptions = {}): ConfigEditor {
  const rootKey = rootKeyOf(format)
  const original =
    text ??
    (format === 'friendly' ? `${opts.header ? `${opts.header}\n` : ''}servers: {}\n` : '{\n  "mcpServers": {}\n}\n')
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : ''
  const crlf = /\r\n/.test(original)
  let body = (bom ? original.slice(1) : original).replace(/\r\n/g, '\n')
  const unchanged = body

  const servers = (): Record<string, unknown> => {
    const v: unknown = parseDocument(body, { uniqueKeys: false }).toJS({ maxAliasCount: 100 })
    const s = isRecord(v) ? v[rootKey] : undefined
    return isRecord(s) ? s : {}
  }
  const set = (path: readonly string[], key: string, value: unknown) => {
    body = format === 'friendly' ? setPair(body, path, key, value) : setMember(body, path, key, value)
  }
  const del = (path: readonly string[], key: string) => {
    body = format === 'friendly' ? deletePair(body, path, key) : deleteMember(body, path, key)
  }

  return {
    format,
    names: () => Object.keys(servers()),
    has: (name) => Object.hasOwn(servers(), name),
    get: (name) => (Object.hasOwn(servers(), name) ? servers()[name] : undefined),
    set: (name, entry) => set([rootKey], name, entry),
    setField(name, key, value) {
      const cur = servers()[name]
      if (isRecord(cur)) set([rootKey, name], key, value)
      else set([rootKey], name, { [key]: value })
    },
    deleteField: (name, key) => del([rootKey, name], key),
    delete(name) {
      if (!Object.hasOwn(servers(), name)) return false
      del([rootKey], name)
      return true
    },
    text() {
      if (text !== undefined && body === unchanged) return text
      return bom + (crlf ? body.replace(/\n/g, '\r\n') : body)
    },
  }
}
