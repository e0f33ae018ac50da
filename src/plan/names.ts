/**
 * Effective server names (docs/guide/visibility.md).
 *
 * Contract: a server keeps the name it was written with unless a name held by
 * another mount (a different resolved config) overlaps it; then it gets
 * `<name>_<hash6 of its origin>` — the origin being its project root (or
 * `$DSH_HOME` for the user layer), so the suffix does not depend on which
 * other projects are open — kept within 32 characters and free of `__` (so
 * it cannot overlap by prefix either). A held name never changes. New names
 * are handed out in a stable order (user layer first, then by name, origin,
 * key). Pure.
 *
 * @module
 */
import { namesOverlap } from './tool-names.ts'
import { nodeCrypto } from '../config/node-crypto.ts'

export const MAX_SERVER_NAME_LENGTH = 32

export interface NameRequest {
  /** Mount identity. */
  key: string
  /** The name as written. */
  name: string
  /** What the suffix derives from: the project root, or `$DSH_HOME` for user-layer servers. */
  origin: string
  /** Lower goes first: 0 user layer, 1 project layers. */
  priority: number
}

/** `<name>_<hash6>` (a different hash per attempt), at most 32 chars, no `__`. */
export function suffixedName(name: string, origin: string, attempt = 0): string {
  const hash = nodeCrypto()
    .createHash('sha256')
    .update(attempt === 0 ? origin : `${origin}\0${attempt}`)
    .digest('hex')
    .slice(0, 6)
  const room = MAX_SERVER_NAME_LENGTH - hash.length - 1
  const base = name.replace(/_{2,}/g, '_').slice(0, room).replace(/_+$/, '')
  return `${base || 's'}_${hash}`.replace(/_{2,}/g, '_')
}

/**
 * Names for `requests`: keys already in `held` keep their name; every other
 * key gets its own name, or a suffixed one when a held or already assigned
 * name overlaps it. `held` may carry names of mounts still draining.
 */
export function assignNames(held: ReadonlyMap<string, string>, requests: readonly NameRequest[]): Map<string, string> {
  const out = new Map<string, string>()
  const taken: string[] = [...held.values()]
  const fresh: NameRequest[] = []
  for (const r of requests) {
    const kept = held.get(r.key)
    if (kept !== undefined) out.set(r.key, kept)
    else if (!out.has(r.key)) fresh.push(r)
  }
  const seen = new Set<string>()
  fresh.sort((a, b) => a.priority - b.priority || cmp(a.name, b.name) || cmp(a.origin, b.origin) || cmp(a.key, b.key))
  for (const r of fresh) {
    if (seen.has(r.key)) continue
    seen.add(r.key)
    let candidate = r.name
    for (let attempt = 0; taken.some((t) => namesOverlap(t, candidate)); attempt++)
      candidate = suffixedName(r.name, r.origin, attempt)
    taken.push(candidate)
    out.set(r.key, candidate)
  }
  return out
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
