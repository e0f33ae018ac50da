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
 * A locked row (`row.lock`, its `.dsh/mcp.lock` entry handed in by the edge
 * that read the lock: lock/pin.ts) also covers package, version, integrity
 * and the dependency tree's versions and integrities, so a lock edit asks again.
 * `cacheFingerprint` keys the tool cache: a keyed hash (HMAC-SHA256 under a
 * per-user secret) of name, origin and the full effective launch with values.
 *
 * @module
 */
import path from 'node:path'
import { transportOf } from './entry.ts'
import { FIELD_NAMES, fieldSpec, type ValueType } from './fields.ts'
import { contributors, type LockPin, type Row } from './layers.ts'
import type { Entry } from './schema.ts'
import { canonicalJson } from './canonical-json.ts'
import { nodeCrypto } from './node-crypto.ts'

export { canonicalJson }

export function sha256(text: string): string {
  return nodeCrypto().createHash('sha256').update(text).digest('hex')
}

/** What an absent `trust: 'always'` field is written as. */
const ABSENT: Partial<Record<ValueType, unknown>> = { 'text-list': [], 'text-map': {} }

/** The fields the table marks for trust (fields.ts `trust`), `files` when overrides merged in, `lock` when locked. */
export function trustFingerprint(entry: Entry, files?: readonly string[], lock?: LockPin): string {
  const merged = files !== undefined && files.length > 1
  const identity: Record<string, unknown> = merged ? { files: [...files] } : {}
  // Only for a locked row: the fingerprints of unlocked rows stay what they were.
  if (lock !== undefined) identity.lock = lock
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
export function rowFingerprint(
  row: Pick<Row, 'scope' | 'file' | 'sources'> & { entry?: Entry | undefined; lock?: LockPin | undefined },
): string {
  const files = contributors(row).map((s) => `${s.scope}:${path.basename(s.file)}`)
  return trustFingerprint(row.entry ?? {}, files, row.lock)
}

/** What a tool-cache entry belongs to: one effective server of one project, or of the user layer. */
export interface CacheIdentity {
  /** The server's written name. */
  name: string
  /** The project root for a row with any repository contribution (a partial override included), else `$DSH_HOME`. */
  origin: string
  /** The full effective launch with values (the verdict's official config; tuning keys are left out here). */
  launch: Readonly<Record<string, unknown>>
}

/** The launch fields of an official config that decide which process or endpoint answers (values included). */
const LAUNCH_FIELDS = ['transport', 'command', 'args', 'cwd', 'env', 'url', 'headers', 'oauth'] as const

/**
 * Key of a server's tool-metadata cache: HMAC-SHA256, under the per-user
 * secret kept in `$DSH_HOME` (src/lazy/secret.ts), of the server's name, its
 * origin and its full effective launch — env and header *values* included,
 * so two servers that differ only in a value never share tools, while no
 * plain hash of a secret is ever written (a cache file name cannot be
 * brute-forced without the per-user secret). Lifecycle and tuning keys are
 * not in it. 64 hex digits.
 */
export function cacheFingerprint(id: CacheIdentity, secret: Uint8Array): string {
  if (secret.length < 16) throw new TypeError('cacheFingerprint: the cache secret is too short')
  const launch: Record<string, unknown> = {}
  for (const k of LAUNCH_FIELDS) launch[k] = id.launch[k] ?? null
  const identity = { v: 2, name: id.name, origin: id.origin, launch }
  return nodeCrypto().createHmac('sha256', secret).update(canonicalJson(identity)).digest('hex')
}

/** Hash of a resolved official config: equal keys ⇒ one shared mount, a changed key ⇒ remount. */
export function mountKey(official: object): string {
  return sha256(canonicalJson(official)).slice(0, 32)
}
