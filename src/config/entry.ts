/**
 * One entry, judged on its own: shape (zod), unknown keys with a "did you
 * mean", transport inference and the cross-field rules of the format.
 *
 * Contract: `checkEntry` never throws; it returns the normalized entry when
 * there is no error, and problems whose paths are relative to the entry.
 * A *partial* entry (allowed only in the local layer) has neither `command`
 * nor `url` and overrides the row it shadows.
 *
 * @module
 */
import { closest, distance } from 'fastest-levenshtein'
import type { DiagnosticCode, Severity } from './diagnostics.ts'
import { scanTemplate, templateSites } from './expand.ts'
import { capRepositoryValues, checkReconnect, unsafeValueProblems } from './entry-values.ts'
import { fieldsWhere } from './fields.ts'
import {
  ENTRY_KEYS,
  type Entry,
  EntrySchema,
  OAuthSchema,
  ReconnectSchema,
  ToolFilterSchema,
  TRANSPORT_SPELLINGS,
  type Transport,
} from './schema.ts'
import { isRecord } from './guards.ts'
import { describeZodIssue, kindOf } from './value-kind.ts'

export interface Problem {
  severity: Severity
  code: DiagnosticCode
  message: string
  /** Path relative to the entry; `[]` is the entry itself. */
  path: (string | number)[]
  /** Point at the key rather than its value (unknown keys). */
  atKey?: boolean
}

export interface CheckOptions {
  /** The entry may be a partial override (local layer). */
  allowPartial?: boolean
  /** Transports the installed official client supports (official spelling). */
  supported?: readonly Transport[]
  /** The user's own file (`$DSH_HOME/mcp.yml`): the field table's repository caps do not apply. */
  userFile?: boolean
}

export interface CheckedEntry {
  entry?: Entry
  partial: boolean
  problems: Problem[]
}

/** Known keys of the nested mappings: an unknown one warns and is dropped, like an unknown entry key. */
const NESTED_KEYS: Record<'reconnect' | 'tools' | 'oauth', readonly string[]> = {
  reconnect: Object.keys(ReconnectSchema.shape),
  tools: Object.keys(ToolFilterSchema.shape),
  oauth: Object.keys(OAuthSchema.shape),
}

const DEFAULT_SUPPORTED: readonly Transport[] = ['stdio', 'streamable-http', 'sse']

/** "did you mean" for a misspelt key among `known`. */
export function suggest(key: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined
  const best = closest(key, known as string[])
  const limit = Math.max(2, Math.floor(key.length / 3))
  return distance(key.toLowerCase(), best.toLowerCase()) <= limit ? best : undefined
}

export function unknownKeyProblem(key: string, known: readonly string[], where: string): Problem {
  const hint = suggest(key, known)
  return {
    severity: 'warning',
    code: 'unknown-key',
    message: `unknown key "${key}" in ${where} (ignored)${hint ? `; did you mean "${hint}"?` : ''}`,
    path: [key],
    atKey: true,
  }
}

/** The transport an entry resolves to; `undefined` for a partial entry. */
export function transportOf(entry: Pick<Entry, 'command' | 'url' | 'transport' | 'type'>): Transport | undefined {
  const spelled = entry.transport ?? entry.type
  if (spelled === 'stdio') return 'stdio'
  if (spelled === 'http' || spelled === 'streamable-http') return 'streamable-http'
  if (spelled === 'sse') return 'sse'
  if (entry.command !== undefined) return 'stdio'
  if (entry.url !== undefined) return 'streamable-http'
  return undefined
}

/** Judge one raw entry value. */
export function checkEntry(raw: unknown, opts: CheckOptions = {}): CheckedEntry {
  const problems: Problem[] = []
  if (!isRecord(raw)) {
    problems.push({
      severity: 'error',
      code: 'bad-entry',
      message: `a server entry must be a mapping, got ${kindOf(raw)}`,
      path: [],
      atKey: true,
    })
    return { partial: false, problems }
  }
  const record = raw
  for (const key of Object.keys(record)) {
    if (!ENTRY_KEYS.includes(key)) problems.push(unknownKeyProblem(key, ENTRY_KEYS, 'a server entry'))
  }
  const known: Record<string, unknown> = Object.fromEntries(
    Object.entries(record).filter(([k]) => ENTRY_KEYS.includes(k)),
  )
  for (const [field, keys] of Object.entries(NESTED_KEYS)) {
    const inner = known[field]
    if (!isRecord(inner)) continue
    const kept: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(inner)) {
      if (keys.includes(k)) kept[k] = v
      else problems.push({ ...unknownKeyProblem(k, keys, `"${field}"`), path: [field, k] })
    }
    known[field] = kept
  }
  let parsed = EntrySchema.safeParse(known)
  let schemaFailed = false
  if (!parsed.success) {
    schemaFailed = true
    const bad = new Set<PropertyKey>()
    for (const issue of parsed.error.issues) {
      problems.push({
        severity: 'error',
        code: 'bad-value',
        message: describeZodIssue(issue, known),
        path: issue.path as (string | number)[],
      })
      if (issue.path[0] !== undefined) bad.add(issue.path[0])
    }
    // Judge the rest of the entry too (every problem at once): the fields that did parse.
    const rest = Object.fromEntries(Object.entries(known).filter(([k]) => !bad.has(k)))
    // A broken command/url/transport would only cause follow-on "needs command or url" noise: stop there.
    const target = ['command', 'url', 'transport', 'type'].some((k) => bad.has(k))
    parsed = bad.size > 0 && !target ? EntrySchema.safeParse(rest) : parsed
    if (!parsed.success) return { partial: false, problems }
  }
  const entry = parsed.data
  const partial = entry.command === undefined && entry.url === undefined
  checkTransport(entry, partial, opts, problems)
  if (partial && !opts.allowPartial) {
    problems.push({
      severity: 'error',
      code: 'missing-target',
      message: 'needs "command" (a local process, stdio) or "url" (streamable-http)',
      path: [],
      atKey: true,
    })
  }
  if (partial && opts.allowPartial) {
    for (const key of fieldsWhere((f, n) => !f.override && n !== 'command' && n !== 'url')) {
      if (entry[key] !== undefined) {
        problems.push({
          severity: 'error',
          code: 'conflict',
          message: `"${key}" in a partial override needs "command" or "url" as well (an override may set only env, headers, enabled and tuning keys)`,
          path: [key],
          atKey: true,
        })
      }
    }
  }
  for (const site of templateSites(entry)) {
    const scanned = scanTemplate(site.template)
    if (!Array.isArray(scanned))
      problems.push({ severity: 'error', code: 'bad-variable', message: scanned.message, path: site.path })
  }
  if (entry.url !== undefined && !entry.url.includes('${')) {
    let ok = false
    try {
      const u = new URL(entry.url)
      ok = u.protocol === 'http:' || u.protocol === 'https:'
    } catch {
      // not parseable as a URL: `ok` stays false
    }
    if (!ok)
      problems.push({
        severity: 'error',
        code: 'bad-value',
        message: 'must be an http:// or https:// URL',
        path: ['url'],
      })
  }
  problems.push(...unsafeValueProblems(entry))
  checkReconnect(entry, problems)
  if (!opts.userFile) capRepositoryValues(entry, problems)
  const failed = schemaFailed || problems.some((p) => p.severity === 'error')
  return failed ? { partial, problems } : { entry, partial, problems }
}

function checkTransport(entry: Entry, partial: boolean, opts: CheckOptions, problems: Problem[]): void {
  const supported = opts.supported ?? DEFAULT_SUPPORTED
  const supportedText = supported.map((t) => (t === 'streamable-http' ? 'http (streamable-http)' : t)).join(', ')
  const both = entry.command !== undefined && entry.url !== undefined
  if (both) {
    problems.push({
      severity: 'error',
      code: 'conflict',
      message: 'has both "command" and "url": use "command" for a local process or "url" for a remote server, not both',
      path: ['url'],
      atKey: true,
    })
  }
  if (entry.transport !== undefined && entry.type !== undefined && entry.transport !== entry.type) {
    problems.push({
      severity: 'error',
      code: 'conflict',
      message: `"transport: ${entry.transport}" and "type: ${entry.type}" disagree; keep one`,
      path: ['type'],
      atKey: true,
    })
    return
  }
  const key = entry.transport !== undefined ? 'transport' : 'type'
  const spelled = entry.transport ?? entry.type
  if (spelled !== undefined) {
    if (!(TRANSPORT_SPELLINGS as readonly string[]).includes(spelled)) {
      problems.push({
        severity: 'error',
        code: 'transport',
        message: `unknown transport "${spelled}"; supported: ${supportedText}`,
        path: [key],
      })
      return
    }
  }
  if (both) return
  const t = transportOf(entry)
  if (t === undefined) return
  if (!supported.includes(t)) {
    problems.push({
      severity: 'error',
      code: 'transport',
      message: `transport "${t}" is not supported by the installed MCP client; supported: ${supportedText}`,
      path: [spelled ? key : t === 'stdio' ? 'command' : 'url'],
    })
    return
  }
  if (partial) return
  if (t === 'stdio' && entry.command === undefined) {
    problems.push({
      severity: 'error',
      code: 'conflict',
      message: `needs "command" for the ${spelled} transport (found "url"; write "${key}: http" for a URL)`,
      path: [key],
    })
  } else if (t !== 'stdio' && entry.url === undefined) {
    problems.push({
      severity: 'error',
      code: 'conflict',
      message: `needs "url" for the ${spelled} transport (found "command"; write "${key}: stdio" for a local process)`,
      path: [key],
    })
  }
  // The field table says which transport each field applies to (fields.ts `transport`).
  const [other, has] = t === 'stdio' ? (['http', 'command'] as const) : (['stdio', 'url'] as const)
  for (const k of fieldsWhere((f, n) => f.transport === other && n !== 'command' && n !== 'url')) {
    if (entry[k] !== undefined)
      problems.push({
        severity: 'error',
        code: 'conflict',
        message: `"${k}" applies only to ${other} servers (this one has "${has}")`,
        path: [k],
        atKey: true,
      })
  }
}
