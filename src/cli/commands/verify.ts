/**
 * `dsh-mcp verify [--frozen]`: whether `.dsh/mcp.lock` matches what the project's servers launch. With
 * `--frozen` (for CI) a missing lock or any stale, missing or extra entry exits 1; without it a missing
 * lock file only warns (a project that locks nothing yet), a stale entry still exits 1.
 *
 * Contract: reads only; the same findings as `lock --check` (lock/stale.ts), one line each on stderr
 * naming the command that fixes it.
 *
 * @module
 */
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
  return check(cli, scope.lock, wantedSpecs(scope), scope.targets.size, opts.frozen === true)
}
