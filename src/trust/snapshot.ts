/**
 * What a server looked like when it was trusted, kept beside its record so
 * the review of a changed server can say what changed, field by field.
 *
 * Contract: pure. `reviewSnapshot(entry)` is a flat map of field path →
 * display text over the fields that decide what runs: `transport`,
 * `command`, `args` (secret flags redacted), `cwd`, `url` (userinfo and query
 * values redacted), and per key `env.K` / `headers.K`. An env value that can
 * load code (config/code-env.ts) is kept in full (secret shapes inside it
 * redacted); every other env and header value is kept only as a short hash
 * (`masked:…`) — enough to tell it changed, never the value; a value written
 * as a `${VAR}` / `${secret:NAME}` reference is kept as the reference text
 * (a reference is not a value). A locked row's lock pin (`lock`, lock/pin.ts)
 * adds `lock.package`, `lock.version`, `lock.integrity` and per dependency
 * `lock.<location>` (`version integrity`), so a lock edit reads old → new. `snapshotChanges(before, after)` lists the
 * differences in path order: `added`, `removed`, or `before → after` (a
 * masked value reads `changed (value masked)`).
 *
 * @module
 */
import { isCodeEnv } from '../config/code-env.ts'
import { sha256 } from '../config/fingerprint.ts'
import { displayArgs, displayUrl } from '../config/redact-shapes.ts'
import { redactShapesIn } from '../config/redact-text.ts'
import type { LockPin } from '../config/layers.ts'
import type { Entry } from '../config/schema.ts'

export type Snapshot = Record<string, string>

/** A value made only of `${…}` references (and plain text around them is a value): kept as written. */
const REFERENCE_ONLY = /^(\$\{[^}]+\})+$/

const masked = (path: string, value: string) =>
  REFERENCE_ONLY.test(value) ? value : `masked:${sha256(`${path}\0${value}`).slice(0, 12)}`

export function reviewSnapshot(entry: Entry, lock?: LockPin): Snapshot {
  const s: Snapshot = {}
  if (lock) {
    s['lock.package'] = lock.package
    s['lock.version'] = lock.version
    s['lock.integrity'] = lock.integrity
    for (const [loc, p] of Object.entries(lock.packages)) if (loc !== '') s[`lock.${loc}`] = p
  }
  if (entry.type !== undefined) s.transport = String(entry.type)
  if (entry.command !== undefined) s.command = entry.command
  if (entry.args !== undefined) s.args = JSON.stringify(displayArgs(entry.args))
  if (entry.cwd !== undefined) s.cwd = entry.cwd
  if (entry.url !== undefined) s.url = displayUrl(entry.url)
  for (const [k, v] of Object.entries(entry.env ?? {}))
    s[`env.${k}`] = isCodeEnv(k) ? redactShapesIn(v) : masked(`env.${k}`, v)
  for (const [k, v] of Object.entries(entry.headers ?? {})) s[`headers.${k}`] = masked(`headers.${k}`, v)
  return s
}

/** Keep only string values of a decoded snapshot (anything else reads as absent). */
export function sanitizeSnapshot(value: unknown): Snapshot | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const s: Snapshot = {}
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') s[k] = v
  return s
}

const shown = (v: string) => (v.startsWith('masked:') ? null : v)

export function snapshotChanges(before: Snapshot, after: Snapshot): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
  const out: string[] = []
  for (const k of keys) {
    const a = before[k]
    const b = after[k]
    if (a === b) continue
    if (a === undefined) out.push(`${k}: added${b !== undefined && shown(b) !== null ? ` (${b})` : ''}`)
    else if (b === undefined) out.push(`${k}: removed`)
    else if (shown(a) === null || shown(b) === null) out.push(`${k}: changed (value masked)`)
    else out.push(`${k}: ${a} → ${b}`)
  }
  return out
}
