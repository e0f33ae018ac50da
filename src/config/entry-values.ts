/**
 * Rules on an entry's values, past its shape: values no process or HTTP
 * request can carry (`unsafeValueProblems`, also run by the planner on the
 * expanded entry), the field table's repository caps (`capRepositoryValues`,
 * clamping with a warning) and the order of the reconnect delays
 * (`checkReconnect`).
 *
 * Contract: pure; problems carry paths relative to the entry, and messages
 * name the field, never the value. `capRepositoryValues` is the one rule that
 * changes the entry (the capped value applies).
 *
 * @module
 */
import type { Problem } from './entry.ts'
import { fieldSpec, fieldsWhere } from './fields.ts'
import { type Entry, OFFICIAL_RECONNECT_DEFAULTS } from './schema.ts'

/** RFC 9110 token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/**
 * Values no process or HTTP request can carry: a NUL anywhere (spawn refuses
 * it), `=` in an env name, a line break in a header (fetch refuses it). Both
 * refusals quote the value in their error, which the official client then
 * logs — so they are caught here, on the written entry and (by the planner)
 * on the expanded one. Messages name the field, never the value.
 */
export function unsafeValueProblems(entry: Entry): Problem[] {
  const out: Problem[] = []
  const bad = (path: (string | number)[], message: string, atKey = false) => {
    out.push({ severity: 'error', code: 'bad-value', message, path, ...(atKey ? { atKey } : {}) })
  }
  const nul = (v: string | undefined, path: (string | number)[]) => {
    if (v?.includes('\u0000')) bad(path, 'contains a NUL character, which no process or request can carry')
  }
  nul(entry.command, ['command'])
  for (const [i, a] of (entry.args ?? []).entries()) nul(a, ['args', i])
  nul(entry.cwd, ['cwd'])
  nul(entry.url, ['url'])
  for (const [k, v] of Object.entries(entry.env ?? {})) {
    if (k === '' || /[=\u0000]/.test(k))
      bad(['env', k], 'an environment variable name must be non-empty, without "=" or a NUL character', true)
    nul(v, ['env', k])
  }
  for (const [k, v] of Object.entries(entry.headers ?? {})) {
    if (!HEADER_NAME.test(k))
      bad(['headers', k], "a header name must be a token: letters, digits and !#$%&'*+-.^_`|~", true)
    if (/[\u0000\r\n]/.test(v))
      bad(['headers', k], 'contains a line break or a NUL character, which an HTTP header cannot carry')
  }
  return out
}

/** A value above a field's repository cap (fields.ts `repositoryMax`) is clamped to it, with a warning. */
export function capRepositoryValues(entry: Entry, problems: Problem[]): void {
  for (const key of fieldsWhere((f) => f.repositoryMax !== undefined)) {
    const max = fieldSpec(key).repositoryMax as number
    const value = entry[key]
    if (typeof value !== 'number' || value <= max) continue
    ;(entry as Record<string, unknown>)[key] = max
    problems.push({
      severity: 'warning',
      code: 'bad-value',
      message: `a repository file may not set more than ${max}; ${max} applies (set a larger value in $DSH_HOME/mcp.yml)`,
      path: [key],
    })
  }
}

/** The official client refuses (at mount) a first reconnect delay above the backoff ceiling, defaults included. */
export function checkReconnect(entry: Entry, problems: Problem[]): void {
  const rc = entry.reconnect
  if (!rc || (rc.initialDelayMs === undefined && rc.maxDelayMs === undefined)) return
  const initial = rc.initialDelayMs ?? OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs
  const max = rc.maxDelayMs ?? OFFICIAL_RECONNECT_DEFAULTS.maxDelayMs
  if (initial <= max) return
  const message =
    rc.initialDelayMs === undefined
      ? `must be at least initialDelayMs (default ${initial})`
      : `must not exceed maxDelayMs (${rc.maxDelayMs === undefined ? `default ${max}` : max})`
  problems.push({
    severity: 'error',
    code: 'bad-value',
    message,
    path: ['reconnect', rc.initialDelayMs === undefined ? 'maxDelayMs' : 'initialDelayMs'],
  })
}
