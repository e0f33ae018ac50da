/**
 * `dsh-mcp outdated [--json]`: for every locked server, the version locked and the registry's `latest`
 * today (npm/resolve.ts, the user's npm config only). Changes nothing: update by `dsh-mcp lock <name>`
 * (for a `latest` or range spec) or by editing the pinned version, then review and commit the lock.
 *
 * Contract: exit 0 whether or not anything is newer; 1 when the lock does not parse or the registry
 * cannot answer for a package (named, no credential). `--json` prints
 * `[{ name, package, locked, latest, outdated }]` in name order.
 *
 * @module
 */
import { npmOptions } from '../../npm/config.ts'
import { latestVersion } from '../../npm/resolve.ts'
import { lockScope } from '../lock-view.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, opts: { json?: boolean } = {}): Promise<number> {
  const scope = lockScope(cli)
  if (scope.error) {
    cli.out.err(`dsh-mcp: .dsh/mcp.lock: ${scope.error}`)
    return 1
  }
  const options = npmOptions(cli.env, cli.loc.home)
  const rows: { name: string; package: string; locked: string; latest: string; outdated: boolean }[] = []
  for (const [name, entry] of Object.entries(scope.lock?.servers ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    try {
      const latest = await latestVersion(entry.package, options)
      rows.push({ name, package: entry.package, locked: entry.version, latest, outdated: latest !== entry.version })
    } catch (e) {
      cli.out.err(
        `dsh-mcp: ${name}: cannot read ${entry.package} from the registry: ${(e as Error).message.split('\n')[0]}`,
      )
      return 1
    }
  }
  if (opts.json) {
    cli.out.json(rows)
    return 0
  }
  if (rows.length === 0) {
    cli.out.err('dsh-mcp: nothing is locked — run: dsh-mcp lock')
    return 0
  }
  cli.out.table(
    rows.map((r) => [r.name, r.package, r.locked, r.outdated ? r.latest : `${r.latest} (current)`]),
    ['NAME', 'PACKAGE', 'LOCKED', 'LATEST'],
    { keep: [0] },
  )
  return 0
}
