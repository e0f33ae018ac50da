/**
 * Canonical JSON: object keys sorted at every level, so equal values give equal text (fingerprints,
 * the lock file's stable order). A leaf module (only the plain-object guard), so the launcher can reach
 * the lock without loading the config parser.
 *
 * Contract: pure; `canonicalJson(value)` is `JSON.stringify` with every object's keys sorted.
 *
 * @module
 */
import { isRecord } from './guards.ts'

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    isRecord(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  )
}
