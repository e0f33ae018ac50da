/**
 * Fingerprints: short stable hashes of what an entry does.
 *
 * Contract: `trustFingerprint` covers exactly what decides what runs or where
 * data goes — the fields the field table (fields.ts `trust`) marks: transport,
 * command, args, cwd, env, url, headers, and `oauth` when written (where an
 * authorization code is sent) — unexpanded,
 * so a changed `${VAR}` value does not re-ask while a changed command does.
 * `mountKey` covers everything that needs a reconnect when it changes (the
 * resolved official config); tuning keys (`tools`, `description`) are in
 * neither. Both are canonical JSON (sorted keys) through SHA-256.
 * `rowFingerprint` is the fingerprint of a row's effective (merged) entry;
 * when more than one file contributed to it (a partial local override), it
 * also covers the list of contributing layer files (scope and file name), so
 * an override that appears, moves or disappears asks again, and the merged
 * `tools` filter (an override lifting the base file's `exclude` asks again).
 * `lifecycle`/`idleTimeoutMs` are in neither (switching needs no remount).
 * `cacheFingerprint` keys the tool cache.
 *
 * @module
 */
import { createHash } from 'node:crypto'
import path from 'node:path'
import { transportOf } from './entry.ts'
import { FIELD_NAMES, fieldSpec, type ValueType } from './fields.ts'
import { contributors, type Row } from './layers.ts'
import type { Entry } from './schema.ts'
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

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** What an absent `trust: 'always'` field is written as. */
const ABSENT: Partial<Record<ValueType, unknown>> = { 'text-list': [], 'text-map': {} }

/** The fields the table marks for trust (fields.ts `trust`), `files` when overrides merged in. */
export function trustFingerprint(entry: Entry, files?: readonly string[]): string {
  const merged = files !== undefined && files.length > 1
  const identity: Record<string, unknown> = merged ? { files: [...files] } : {}
  const written = entry as Readonly<Record<string, unknown>>
  for (const name of FIELD_NAMES) {
    const spec = fieldSpec(name)
    const value = written[name]
    if (spec.trust === 'always') identity[name] = value ?? ABSENT[spec.type] ?? null
    else if (spec.trust === 'resolved') identity.transport = transportOf(entry) ?? null
    // Only when written: fingerprints of entries without it stay what they were.
    else if (spec.trust === 'written' && value !== undefined) identity[name] = value
    // A merged row: an override's `tools` filter may lift what the base row's own file hides, so it is trusted too.
    else if (spec.trust === 'merged' && merged && value !== undefined) identity[name] = value
  }
  return `sha256:${sha256(canonicalJson(identity))}`
}

/** The trust fingerprint of a row's effective entry (and, when overrides merged in, of its contributing files). Row must have an entry. */
export function rowFingerprint(row: Pick<Row, 'scope' | 'file' | 'sources'> & { entry?: Entry | undefined }): string {
  const files = contributors(row).map((s) => `${s.scope}:${path.basename(s.file)}`)
  return trustFingerprint(row.entry ?? {}, files)
}

/**
 * Key of a server's tool-metadata cache: the trust fingerprint's fields with
 * env and header *names* only (never a value, not even hashed), plus the
 * directory relative paths resolve against, so equal text in two projects
 * never shares tools. Lifecycle and tuning keys are not in it.
 */
export function cacheFingerprint(entry: Entry, origin: string): string {
  const identity = {
    origin,
    transport: transportOf(entry) ?? null,
    command: entry.command ?? null,
    args: entry.args ?? [],
    cwd: entry.cwd ?? null,
    env: Object.keys(entry.env ?? {}).sort(),
    url: entry.url ?? null,
    headers: Object.keys(entry.headers ?? {}).sort(),
  }
  return sha256(canonicalJson(identity)).slice(0, 32)
}

/** Hash of a resolved official config: equal keys ⇒ one shared mount, a changed key ⇒ remount. */
export function mountKey(official: object): string {
  return sha256(canonicalJson(official)).slice(0, 32)
}
