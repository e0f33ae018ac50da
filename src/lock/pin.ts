/**
 * Which rows a lock covers, as trust sees them: the pin of a row's `.dsh/mcp.lock` entry that the trust
 * fingerprint covers (config/fingerprint.ts `rowFingerprint` reads `row.lock`), attached to the rows by the
 * edges that read the lock (the host's projects, the CLI's project view) — never read from disk here.
 *
 * Contract: pure. `lockCovers(row)` is the launcher's rule (host/launch.ts, launch/locked.ts): a row of a
 * repository file (not the user layer), not written `lock: false`, whose command is a supported package
 * runner with a registry package (lock/spec.ts). `lockPinOf(entry)` is what trust covers of an entry:
 * package, version, integrity, and every package of the tree as `version integrity`.
 * `attachLockPins(rows, root, lockOf)` returns the rows with `lock` set on each covered row whose home
 * directory's lock (`lockOf(dir)`, config/inherit.ts `rowHome`: a monorepo parent's row reads the parent's
 * lock) has an entry for its name; other rows are returned as they are (the same objects).
 * `requireLockFromEnv(env)`: `DSH_MCP_REQUIRE_LOCK=1` (or `true`) turns `requireLock` on for the host and the
 * CLI alike (the CLI does not know the host's plugin options; the variable is how `list` applies it too).
 *
 * @module
 */
import { rowHome } from '../config/inherit.ts'
import type { LockPin, Row } from '../config/layers.ts'
import type { LockEntry, LockFile } from './format.ts'
import { lockTarget } from './spec.ts'

/** Whether the launcher would start this row from a lock entry when one exists. */
export function lockCovers(row: Pick<Row, 'scope' | 'entry'>): boolean {
  if (row.scope === 'user' || !row.entry || row.entry.lock === false) return false
  const t = lockTarget(row.entry)
  return t !== undefined && 'target' in t
}

export function lockPinOf(entry: LockEntry): LockPin {
  const packages: Record<string, string> = {}
  for (const [loc, p] of Object.entries(entry.packages)) packages[loc] = `${p.version} ${p.integrity}`
  return { package: entry.package, version: entry.version, integrity: entry.integrity, packages }
}

export function attachLockPins(
  rows: readonly Row[],
  root: string,
  lockOf: (dir: string) => LockFile | undefined,
): Row[] {
  return rows.map((row) => {
    if (!lockCovers(row)) return row
    const entry = lockOf(rowHome(row, root))?.servers[row.name]
    return entry ? { ...row, lock: lockPinOf(entry) } : row
  })
}

/** `DSH_MCP_REQUIRE_LOCK=1` / `true`: `requireLock` on (the host ORs it with its plugin option). */
export function requireLockFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.DSH_MCP_REQUIRE_LOCK?.trim().toLowerCase()
  return v === '1' || v === 'true'
}
