/**
 * A locked server's start: when the project's `.dsh/mcp.lock` has an entry for the server and the entry
 * was made for the package the command names, the start runs the prepared install from the store with
 * the host's own node — the package runner is not invoked, nothing is fetched, no project `.npmrc`
 * applies. Imports the lock file reader (files/lock-file.ts), the pure lock target (lock/spec.ts: which
 * package a runner command names — the lock's own pure half) and the store's check (npm/store.ts: the
 * installed files against the digest taken when they were checked against the lock).
 *
 * Contract: `lockedStart(ref, command, args, node)` never throws and starts nothing. undefined: the
 * server is not locked (no package runner, no lock file, no entry for it) — start it as written.
 * `{ file, args }`: run `node <bin in the store> <args after the package>`. `{ refuse }`: one line why
 * it must not start and the command that fixes it — a stale entry (made for another package spec), an
 * entry that is not what the spec names (another package, a version the spec does not allow, a tree whose
 * root is not the entry, a bin the installed package does not declare or npx would not run: lock/check.ts), an
 * install not prepared yet, an `integrity mismatch` in the store, or a lock file that does not parse.
 *
 * @module
 */
import { readLockFile } from '../files/lock-file.ts'
import { checkLockEntry } from '../lock/check.ts'
import { lockTarget } from '../lock/spec.ts'
import { storeState } from '../npm/store.ts'

/** Which lock a start consults: the server's project root and name, and `$DSH_HOME` (the store). */
export interface LockedRef {
  root: string
  name: string
  dshHome: string
}

export function lockedStart(
  ref: LockedRef,
  command: string,
  args: readonly string[],
  node: string,
): { file: string; args: string[] } | { refuse: string } | undefined {
  const t = lockTarget({ command, args })
  if (!t || 'refuse' in t) return undefined
  const read = readLockFile(ref.root)
  if ('absent' in read) return undefined
  if ('error' in read) return { refuse: `.dsh/mcp.lock does not read (${read.error}); fix it or run: dsh-mcp lock` }
  const entry = read.lock.servers[ref.name]
  if (!entry) return undefined
  if (entry.spec !== t.target.spec)
    return {
      refuse: `the lock was made for ${entry.spec}, the config now runs ${t.target.spec}; run: dsh-mcp lock ${ref.name}`,
    }
  // The entry must be what the spec names (lock/check.ts): a lock-only edit never swaps the package.
  const want = { spec: t.target.spec, bin: t.target.bin }
  const c = checkLockEntry(entry, want)
  if (!c.ok)
    return {
      refuse: `the lock entry does not match the config (${c.message}); refused — run: dsh-mcp lock ${ref.name}`,
    }
  const s = storeState(ref.dshHome, entry)
  if (s.state === 'not prepared')
    return { refuse: `${entry.package}@${entry.version} is locked but not prepared; run: dsh-mcp prepare ${ref.name}` }
  if (s.state === 'integrity mismatch')
    return {
      refuse: `integrity mismatch in the prepared install of ${entry.package}@${entry.version} (${s.why}); refused — run: dsh-mcp prepare ${ref.name}`,
    }
  const installed = checkLockEntry(entry, want, s.bins)
  if (!installed.ok)
    return {
      refuse: `the prepared install does not match the config (${installed.message}); refused — run: dsh-mcp lock ${ref.name}`,
    }
  return { file: node, args: [s.bin, ...t.target.rest] }
}
