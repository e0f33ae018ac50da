/**
 * The one plain-object guard of the package, for every reader of untrusted
 * JSON or YAML values (config files, status files, the trust store, import
 * sources).
 *
 * Contract: pure; `isRecord(v)` holds exactly when `v` is an object that is
 * neither null nor an array.
 *
 * @module
 */

/** A plain object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}
