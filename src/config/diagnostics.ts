/**
 * Diagnostics: every problem found in a config file, with where it is.
 *
 * Contract: a diagnostic names the file, a 1-based line and column, the
 * field path (`servers.github.args[2]`) and a stable `code`; its message never
 * contains an env or header value. `formatDiagnostic` renders the one-line form
 * `file:line:col: error: path: message` used by the CLI and the plugin logs.
 *
 * @module
 */

export type Severity = 'error' | 'warning'

export type DiagnosticCode =
  | 'read-failed'
  | 'refused'
  | 'too-large'
  | 'too-many-servers'
  | 'not-a-file'
  | 'syntax'
  | 'duplicate-key'
  | 'forbidden-tag'
  | 'alias-limit'
  | 'too-deep'
  | 'too-complex'
  | 'empty-file'
  | 'bad-root'
  | 'unknown-key'
  | 'bad-name'
  | 'bad-entry'
  | 'bad-value'
  | 'transport'
  | 'conflict'
  | 'missing-target'
  | 'bad-variable'
  | 'missing-variable'
  | 'override-orphan'
  | 'user-only'

export interface Diagnostic {
  severity: Severity
  code: DiagnosticCode
  message: string
  /** Absolute path of the file, or a label such as `<inline>`. */
  file: string
  /** 1-based; 0 when the problem concerns the whole file. */
  line: number
  col: number
  /** Dotted field path (`servers.github.args[2]`); empty for the whole file. */
  path: string
  /** The server the problem belongs to, when it belongs to one. */
  server?: string
}

/** Render a path segment list as `servers.github.args[2]` (quoting keys that are not identifiers). */
export function formatPath(segments: readonly (string | number)[]): string {
  let out = ''
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg
    else out += `[${JSON.stringify(seg)}]`
  }
  return out
}

/** `file:line:col: severity: path: message` (position and path omitted when unknown). */
export function formatDiagnostic(d: Diagnostic, opts: { relativeTo?: (file: string) => string } = {}): string {
  const file = opts.relativeTo ? opts.relativeTo(d.file) : d.file
  const where = d.line > 0 ? `${file}:${d.line}:${d.col}` : file
  const path = d.path ? `${d.path}: ` : ''
  return `${where}: ${d.severity}: ${path}${d.message}`
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error')
}
