/**
 * `dsh-mcp lock [name...]` writes `.dsh/mcp.lock`: every repository server that launches a registry
 * package through `npx` / `npm exec` gets its resolved name, exact version, tarball integrity and
 * dependency tree (src/npm/resolve.ts: npm's own pacote and arborist, the user's npm config only). Names
 * given: only those are (re)resolved and every other entry is kept; none: every covered server is, and an
 * entry for a server that no longer launches a package is dropped. A runner the lock does not support is
 * named on stderr. `--check` writes nothing and exits 1 when the lock is missing or stale for any server,
 * or an entry is not what its spec names (another package, version, tree root or bin: lock/check.ts)
 * (for CI; lock/stale.ts says which and the command that fixes it).
 *
 * Contract: exit 0 on success; 1 on a stale/missing lock under `--check`, an unknown or uncovered name, a
 * lock file that does not parse, or a resolution failure (the package named, no credential). The file is
 * written once, atomically, after every entry resolved: a failure leaves the old lock.
 *
 * @module
 */
import { writeLockFile } from '../../files/lock-file.ts'
import type { EntryWant } from '../../lock/check.ts'
import { emptyLock, type LockFile } from '../../lock/format.ts'
import { lockFindings } from '../../lock/stale.ts'
import { npmOptions } from '../../npm/config.ts'
import { resolveEntry } from '../../npm/resolve.ts'
import { lockScope, wantedSpecs } from '../lock-view.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, names: string[] = [], opts: { check?: boolean } = {}): Promise<number> {
  const scope = lockScope(cli)
  if (scope.error) {
    cli.out.err(`dsh-mcp: .dsh/mcp.lock: ${scope.error}`)
    return 1
  }
  for (const [name, why] of scope.refused) cli.out.err(`dsh-mcp: ${name}: ${why}`)
  if (opts.check) return check(cli, scope.lock, wantedSpecs(scope), scope.targets.size)
  for (const name of names)
    if (!scope.targets.has(name)) {
      cli.out.err(
        scope.refused.has(name)
          ? `dsh-mcp: ${name}: its runner is not supported by the lock`
          : `dsh-mcp: ${name}: no repository server of that name launches a registry package through npx or npm exec`,
      )
      return 1
    }
  if (scope.root === undefined) return 0
  const chosen = names.length > 0 ? names : [...scope.targets.keys()]
  const next: LockFile = emptyLock()
  if (names.length > 0) Object.assign(next.servers, scope.lock?.servers ?? {})
  const options = npmOptions(cli.env, cli.loc.home)
  // Servers that name the same package the same way resolve once per run.
  const resolved = new Map<string, ReturnType<typeof resolveEntry>>()
  for (const name of chosen) {
    const target = scope.targets.get(name)!
    const key = JSON.stringify([target.runner, target.spec, target.bin ?? null])
    if (!resolved.has(key)) resolved.set(key, resolveEntry(target, options))
    try {
      next.servers[name] = await resolved.get(key)!
    } catch (e) {
      cli.out.err(`dsh-mcp: ${name}: cannot resolve ${target.spec}: ${(e as Error).message.split('\n')[0]}`)
      return 1
    }
  }
  writeLockFile(scope.root, next)
  for (const name of chosen) {
    const e = next.servers[name]!
    cli.out.out(`locked ${name}: ${e.package}@${e.version} (${Object.keys(e.packages).length} packages)`)
  }
  return 0
}

/** `--check` / `verify --frozen`: exit 1 when the lock is missing or stale for any server. */
export function check(
  cli: CliContext,
  lock: LockFile | undefined,
  wanted: ReadonlyMap<string, EntryWant>,
  covered: number,
  frozen = true,
): number {
  if (lock === undefined && covered === 0) return 0
  if (lock === undefined && !frozen) {
    cli.out.err(`dsh-mcp: no .dsh/mcp.lock (${covered} server(s) launch registry packages) — run: dsh-mcp lock`)
    return 0
  }
  const { fresh, findings } = lockFindings(wanted, lock)
  for (const f of findings) cli.out.err(`dsh-mcp: ${f.message}`)
  if (fresh) cli.out.out(`.dsh/mcp.lock is up to date (${covered} server(s))`)
  return fresh ? 0 : 1
}
