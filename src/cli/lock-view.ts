/**
 * The lock as the CLI sees a project: which of its servers a lock covers (the repository rows — any
 * scope but `user` — not written `lock: false` — whose winning entry launches a registry package through a package runner,
 * lock/spec.ts), the runners it refuses by name, and the lock file read next to them. Shared by
 * `lock`, `verify`, `outdated`.
 *
 * Contract: `lockScope(cli)` reads the project fresh and never throws (a lock file that does not parse is
 * `{ error }`, reported by the caller); with no project root everything is empty.
 *
 * @module
 */
import { winners } from '../config/layers.ts'
import { readLockFile } from '../files/lock-file.ts'
import { loadProject } from '../files/project.ts'
import type { LockFile } from '../lock/format.ts'
import { type LockTarget, lockTarget } from '../lock/spec.ts'
import type { CliContext } from './program.ts'

export interface LockScope {
  root: string | undefined
  /** Server name → what it launches, in name order. */
  targets: Map<string, LockTarget>
  /** Servers whose runner the lock does not support: name → the one-line reason. */
  refused: Map<string, string>
  lock: LockFile | undefined
  /** Set when the lock file exists but does not read or parse. */
  error?: string
}

export function lockScope(cli: CliContext): LockScope {
  const { root, rows } = loadProject(cli.dir, cli.loc)
  const targets = new Map<string, LockTarget>()
  const refused = new Map<string, string>()
  const found = winners(rows)
    .filter((r) => r.scope !== 'user' && r.entry && (r.state === 'active' || r.state === 'disabled'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const row of found) {
    // `lock: false` (fields.ts): the server is left out of the lock and runs as written.
    if (row.entry?.lock === false) continue
    const t = lockTarget(row.entry as { command?: string; args?: string[] })
    if (!t) continue
    if ('refuse' in t) refused.set(row.name, t.refuse)
    else targets.set(row.name, t.target)
  }
  if (!root.root) return { root: undefined, targets, refused, lock: undefined }
  const r = readLockFile(root.root)
  if ('error' in r) return { root: root.root, targets, refused, lock: undefined, error: r.error }
  return { root: root.root, targets, refused, lock: 'lock' in r ? r.lock : undefined }
}

/** The package spec (and `-p` bin) each covered server runs (for lock/stale.ts and lock/check.ts). */
export function wantedSpecs(scope: LockScope): Map<string, { spec: string; bin?: string | undefined }> {
  return new Map([...scope.targets].map(([name, t]) => [name, { spec: t.spec, bin: t.bin }]))
}
