/**
 * `dsh-mcp verify [--frozen]`: whether `.dsh/mcp.lock` matches what the project's servers launch. With
 * `--frozen` (for CI) a missing lock or any stale, missing or extra entry exits 1; without it a missing
 * lock file only warns (a project that locks nothing yet), a stale entry still exits 1.
 *
 * Contract: reads only; the same findings as `lock --check` (lock/stale.ts), one line each on stderr
 * naming the command that fixes it. Then one stdout line per locked server with its prepared install's
 * state in the store (npm/store.ts): `prepared`, `not prepared` (not an error: CI need not prepare) or
 * `integrity mismatch` (its files changed after the install was checked: exit 1). An entry that is not what
 * its spec names (lock/check.ts: package, version, tree root, bin — for a prepared one, the installed
 * package's own bins) is a finding: exit 1 with or without `--frozen`.
 *
 * @module
 */
import { checkLockEntry, type EntryCheck } from '../../lock/check.ts'
import { storeState } from '../../npm/store.ts'
import { lockScope, wantedSpecs } from '../lock-view.ts'
import type { CliContext } from '../program.ts'
import { check } from './lock.ts'

export async function run(cli: CliContext, opts: { frozen?: boolean } = {}): Promise<number> {
  const scope = lockScope(cli)
  if (scope.error) {
    cli.out.err(`dsh-mcp: .dsh/mcp.lock: ${scope.error}`)
    return 1
  }
  for (const [name, why] of scope.refused) cli.out.err(`dsh-mcp: ${name}: ${why}`)
  const code = check(cli, scope.lock, wantedSpecs(scope), scope.targets.size, opts.frozen === true)
  // Each locked entry's prepared install in the store under $DSH_HOME: a changed one fails.
  let mismatch = false
  for (const [name, entry] of Object.entries(scope.lock?.servers ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const s = storeState(cli.loc.dshHome, entry)
    mismatch ||= s.state === 'integrity mismatch'
    const t = scope.targets.get(name)
    const c: EntryCheck =
      t && s.state === 'prepared' ? checkLockEntry(entry, { spec: t.spec, bin: t.bin }, s.bins) : { ok: true }
    if (!c.ok) {
      mismatch = true
      cli.out.err(
        `dsh-mcp: ${name}: the prepared install does not match the config (${c.message}) — run: dsh-mcp lock ${name}`,
      )
    }
    cli.out.out(
      `${name}: ${entry.package}@${entry.version} ${s.state}${'why' in s ? ` (${s.why}) — run: dsh-mcp prepare ${name}` : ''}`,
    )
  }
  return mismatch ? 1 : code
}
