/**
 * Literal secrets read from another client's config stay out of committed
 * files.
 *
 * Contract: pure. `moveSecrets` takes an imported entry in the friendly shape
 * and returns the entry to commit, in which every literal `env` value and
 * every literal `headers` value (one with no `${…}` reference, at least
 * {@link MIN_SECRET_LENGTH} long: the values dsh never prints) is replaced by
 * a `${VAR}` reference — `env` keeps its key as the variable name, a header
 * becomes `${<SERVER>_<HEADER>}` (after its auth scheme, `Bearer ${…}`, when
 * it has one). The moved env values come back in `localEnv` (for the
 * gitignored local layer, where a partial `env:` row overrides the committed
 * one); header variables come back in `exportVars` (the local layer cannot
 * carry headers, so the user exports them). So do the values of secret-named
 * flags in `args` (`--api-key sk-…`, `--token=…`): they become
 * `${<SERVER>_<FLAG>}`, to export. Notes name keys and variables, never a
 * value.
 *
 * @module
 */
import { MIN_SECRET_LENGTH } from '../../config/redact.ts'
import { isRecord } from './common.ts'

export interface Moved {
  entry: Record<string, unknown>
  /** env key → literal value, for the local layer. */
  localEnv: Record<string, string>
  /** Variables the user must export (moved header values). */
  exportVars: string[]
}

const SCHEME = /^(Bearer|Basic|Token|Bot)\s+(\S.*)$/i

/** A flag whose value is a credential (`--api-key`, `--token`, `--password`, `--secret`, `--auth`, …). */
const SECRET_FLAG =
  /^--?((?:[a-z0-9]+[-_])*(?:api[-_]?key|key|token|secret|password|passwd|pass|auth|bearer|credentials?|pat))$/i

function literal(v: unknown): v is string {
  return typeof v === 'string' && !v.includes('${') && v.length >= MIN_SECRET_LENGTH
}

/** `parts` joined as one environment variable name (`docs`, `X-Api-Key` → `DOCS_X_API_KEY`). */
export function variableName(...parts: string[]): string {
  return parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^(\d)/, '_$1')
}

/** The entry to commit, and where its literal secrets go instead. */
export function moveSecrets(name: string, entry: Record<string, unknown>): Moved {
  const out: Record<string, unknown> = { ...entry }
  const localEnv: Record<string, string> = {}
  const exportVars: string[] = []
  if (isRecord(entry.env)) {
    const env: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(entry.env)) {
      if (literal(v) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) {
        env[k] = `\${${k}}`
        localEnv[k] = v
      } else env[k] = v
    }
    out.env = env
  }
  if (Array.isArray(entry.args)) {
    const args = [...entry.args]
    for (let i = 0; i < args.length; i++) {
      const a = args[i]
      if (typeof a !== 'string') continue
      const eq = a.indexOf('=')
      const flag = eq > 0 ? a.slice(0, eq) : a
      const m = SECRET_FLAG.exec(flag)
      if (!m) continue
      const variable = variableName(name, m[1]!)
      if (eq > 0) {
        if (!literal(a.slice(eq + 1))) continue
        args[i] = `${flag}=\${${variable}}`
      } else if (literal(args[i + 1]) && !String(args[i + 1]).startsWith('-')) {
        args[i + 1] = `\${${variable}}`
        i++
      } else continue
      if (!exportVars.includes(variable)) exportVars.push(variable)
    }
    out.args = args
  }
  if (isRecord(entry.headers)) {
    const headers: Record<string, unknown> = {}
    for (const [h, v] of Object.entries(entry.headers)) {
      if (!literal(v)) {
        headers[h] = v
        continue
      }
      const scheme = SCHEME.exec(v)
      const variable = variableName(name, /^authorization$/i.test(h) && scheme ? 'TOKEN' : h)
      headers[h] = scheme ? `${scheme[1]} \${${variable}}` : `\${${variable}}`
      exportVars.push(variable)
    }
    out.headers = headers
  }
  return { entry: out, localEnv, exportVars }
}

/** The warning notes for what `moveSecrets` moved (keys and variables only). */
export function movedNotes(moved: Moved, localFile: string | undefined): string[] {
  const notes: string[] = []
  const keys = Object.keys(moved.localEnv)
  if (keys.length) {
    const list = keys.map((k) => `"${k}"`).join(', ')
    notes.push(
      localFile
        ? `warning: env ${list} held literal values: the committed entry reads \${VAR}, the values went to ${localFile} (not committed)`
        : `warning: env ${list} held literal values: the entry reads \${VAR}; export ${keys.join(', ')} before starting dsh`,
    )
  }
  if (moved.exportVars.length) {
    notes.push(
      `warning: headers or secret flags held literal values: the entry reads ${moved.exportVars.map((v) => `\${${v}}`).join(', ')}; export ${moved.exportVars.join(', ')} before starting dsh (copy the value from the source file; it was not written)`,
    )
  }
  return notes
}
