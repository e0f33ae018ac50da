/**
 * Staleness: whether a lock still matches what the config launches, server by server (for
 * `dsh-mcp lock --check` and `verify --frozen`, which exit non-zero on any finding, and for the review).
 *
 * Contract: pure. `lockFindings(wanted, lock)` takes the servers that need an entry (name → the
 * package spec as written, from spec.ts) and the lock (undefined: no lock file) and returns one finding
 * per problem, in name order: `missing` (no lock file, or no entry for a server), `changed` (the entry
 * was made for another spec: the config's package word changed since), `extra` (an entry for a server
 * the config no longer launches through a runner), `mismatch` (the entry is for this spec but is not what
 * it names: another package, a version the spec does not allow, a tree root or bin that differs —
 * check.ts; `wanted` may carry the `-p` bin as `{ spec, bin }`). `fresh` is true when there is none.
 * `entryChanges(old, new)` lists what differs between two entries of one server (package, version,
 * integrity, and each dependency added, removed or moved), for the trust review's old → new lines.
 *
 * @module
 */
import { checkLockEntry, type EntryWant } from './check.ts'
import type { LockEntry, LockFile } from './format.ts'

export interface LockFinding {
  name: string
  kind: 'missing' | 'changed' | 'extra' | 'mismatch'
  /** One line for a person, naming the command that fixes it. */
  message: string
}

export function lockFindings(
  wanted: ReadonlyMap<string, string | EntryWant>,
  lock: LockFile | undefined,
): { fresh: boolean; findings: LockFinding[] } {
  const findings: LockFinding[] = []
  const names = [...new Set([...wanted.keys(), ...Object.keys(lock?.servers ?? {})])].sort()
  for (const name of names) {
    const w = wanted.get(name)
    const want = typeof w === 'string' ? { spec: w } : w
    const spec = want?.spec
    const entry = lock?.servers[name]
    if (spec !== undefined && entry === undefined)
      findings.push({
        name,
        kind: 'missing',
        message: `${name}: not locked (${spec}) — run: dsh-mcp lock ${name}`,
      })
    else if (spec !== undefined && entry !== undefined && entry.spec !== spec)
      findings.push({
        name,
        kind: 'changed',
        message: `${name}: the lock was made for ${entry.spec}, the config now runs ${spec} — run: dsh-mcp lock ${name}`,
      })
    else if (want !== undefined && entry !== undefined && checkLockEntry(entry, want).ok === false) {
      const c = checkLockEntry(entry, want) as { message: string; field: string }
      findings.push({
        name,
        kind: 'mismatch',
        message: `${name}: the lock entry is not what the config runs (${c.field}: ${c.message}) — run: dsh-mcp lock ${name}`,
      })
    } else if (spec === undefined && entry !== undefined)
      findings.push({
        name,
        kind: 'extra',
        message: `${name}: locked, but the config no longer runs it through a package runner — run: dsh-mcp lock`,
      })
  }
  return { fresh: findings.length === 0, findings }
}

/** What differs between two lock entries of one server, one `field: old → new` line each. */
export function entryChanges(old: LockEntry | undefined, now: LockEntry | undefined): string[] {
  if (!old && !now) return []
  if (!old) return [`lock: none → ${now!.package}@${now!.version} (${now!.integrity})`]
  if (!now) return [`lock: ${old.package}@${old.version} → none`]
  const out: string[] = []
  if (old.package !== now.package) out.push(`package: ${old.package} → ${now.package}`)
  if (old.version !== now.version) out.push(`version: ${old.version} → ${now.version}`)
  if (old.integrity !== now.integrity) out.push(`integrity: ${old.integrity} → ${now.integrity}`)
  if (old.bin !== now.bin) out.push(`bin: ${old.bin} → ${now.bin}`)
  const locs = [...new Set([...Object.keys(old.packages), ...Object.keys(now.packages)])].sort()
  for (const loc of locs) {
    if (loc === '') continue
    const a = old.packages[loc]
    const b = now.packages[loc]
    if (a && !b) out.push(`${loc}: ${a.version} → removed`)
    else if (!a && b) out.push(`${loc}: added ${b.version} (${b.integrity})`)
    else if (a && b && (a.version !== b.version || a.integrity !== b.integrity))
      out.push(`${loc}: ${a.version} → ${b.version}${a.integrity !== b.integrity ? ` (${b.integrity})` : ''}`)
  }
  return out
}
