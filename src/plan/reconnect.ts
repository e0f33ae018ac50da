/**
 * How a repository file may tune reconnects: never faster nor more persistent
 * than the official client's defaults.
 *
 * Contract: pure. `reconnectFromRepository(row)` is whether the row's
 * `reconnect` comes from a repository file (the winner's own, or an
 * override's); `clampReconnect(entry)` bounds `reconnect` by
 * `REPOSITORY_RECONNECT_LIMITS` and returns a note when anything changed
 * (verdict.ts applies it to a `runs` verdict's entry).
 *
 * @module
 */
import { contributors, type Row } from '../config/layers.ts'
import { type Entry, OFFICIAL_RECONNECT_DEFAULTS } from '../config/schema.ts'

/** How a repository file may tune reconnects: never faster nor more persistent than the official client's defaults. */
export const REPOSITORY_RECONNECT_LIMITS = {
  minInitialDelayMs: OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs,
  maxAttempts: 10,
} as const

/** Whether the row's `reconnect` comes from a repository file (the winner's own, or an override's). */
export function reconnectFromRepository(row: Row): boolean {
  return contributors(row).some((s, i) => s.scope !== 'user' && (i === 0 || s.keys?.includes('reconnect') === true))
}

/** `reconnect` bounded by `REPOSITORY_RECONNECT_LIMITS` (a note when anything changed). */
export function clampReconnect(entry: Entry): { entry: Entry; note?: string } {
  const rc = entry.reconnect
  if (!rc) return { entry }
  const out = { ...rc }
  if (out.initialDelayMs !== undefined && out.initialDelayMs < REPOSITORY_RECONNECT_LIMITS.minInitialDelayMs)
    out.initialDelayMs = REPOSITORY_RECONNECT_LIMITS.minInitialDelayMs
  if (out.maxAttempts !== undefined && out.maxAttempts > REPOSITORY_RECONNECT_LIMITS.maxAttempts)
    out.maxAttempts = REPOSITORY_RECONNECT_LIMITS.maxAttempts
  if (
    out.maxDelayMs !== undefined &&
    out.maxDelayMs < (out.initialDelayMs ?? OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs)
  )
    out.maxDelayMs = out.initialDelayMs ?? OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs
  const same =
    out.initialDelayMs === rc.initialDelayMs && out.maxAttempts === rc.maxAttempts && out.maxDelayMs === rc.maxDelayMs
  if (same) return { entry }
  return {
    entry: { ...entry, reconnect: out },
    note: `reconnect from a repository file bounded (first delay >= ${REPOSITORY_RECONNECT_LIMITS.minInitialDelayMs} ms, at most ${REPOSITORY_RECONNECT_LIMITS.maxAttempts} attempts)`,
  }
}
