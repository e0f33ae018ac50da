/**
 * `dsh-mcp prepare [name...]`: installs every locked package (or those named) into the prepared-install
 * store under `$DSH_HOME` (src/npm/store.ts: keyed by the lock's integrities, install scripts off, each
 * tarball checked against the lock, the user's npm config only, a temp directory renamed into place), so
 * a start runs it from there: no runner, no network, no project `.npmrc`. An entry already prepared and
 * intact is left as it is; one whose files changed (`integrity mismatch`) is installed again.
 *
 * Contract: exit 0 when every chosen entry is prepared; 1 when the lock is missing or does not parse, a
 * name has no lock entry, an entry is not what the config's spec names or is for a server the config does
 * not run through a runner (lock/check.ts; refused before anything is fetched), or an install fails (the package named, no credential; nothing is left at its
 * store name). Prints one line per entry.
 *
 * @module
 */
import { checkLockEntry } from '../../lock/check.ts'
import { npmOptions } from '../../npm/config.ts'
import { prepareEntry, storeState } from '../../npm/store.ts'
import { lockScope } from '../lock-view.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, names: string[] = []): Promise<number> {
  const scope = lockScope(cli)
  if (scope.error) {
    cli.out.err(`dsh-mcp: .dsh/mcp.lock: ${scope.error}`)
    return 1
  }
  if (!scope.lock) {
    cli.out.err('dsh-mcp: no .dsh/mcp.lock — run: dsh-mcp lock')
    return 1
  }
  const servers = scope.lock.servers
  for (const name of names)
    if (!servers[name]) {
      cli.out.err(`dsh-mcp: ${name}: not in .dsh/mcp.lock — run: dsh-mcp lock ${name}`)
      return 1
    }
  const options = npmOptions(cli.env, cli.loc.home)
  for (const name of names.length > 0 ? names : Object.keys(servers).sort()) {
    const entry = servers[name]!
    const t = scope.targets.get(name)
    if (!t) {
      cli.out.err(
        `dsh-mcp: ${name}: locked, but the config does not run it through a package runner — run: dsh-mcp lock`,
      )
      return 1
    }
    const want = { spec: t.spec, bin: t.bin }
    const c = checkLockEntry(entry, want)
    if (!c.ok) {
      cli.out.err(
        `dsh-mcp: ${name}: the lock entry does not match the config (${c.message}) — run: dsh-mcp lock ${name}`,
      )
      return 1
    }
    const before = storeState(cli.loc.dshHome, entry)
    if (before.state === 'prepared') {
      cli.out.out(`${name}: ${entry.package}@${entry.version} already prepared`)
      continue
    }
    if (before.state === 'integrity mismatch')
      cli.out.err(`dsh-mcp: ${name}: integrity mismatch (${before.why}); installing again`)
    try {
      await prepareEntry(entry, options, cli.loc.dshHome)
    } catch (e) {
      cli.out.err(
        `dsh-mcp: ${name}: cannot prepare ${entry.package}@${entry.version}: ${(e as Error).message.split('\n')[0]}`,
      )
      return 1
    }
    const after = storeState(cli.loc.dshHome, entry)
    const got =
      after.state === 'prepared' ? checkLockEntry(entry, want, after.bins) : { ok: false, message: after.state }
    if (!got.ok) {
      cli.out.err(
        `dsh-mcp: ${name}: the installed package does not match the config (${'message' in got ? got.message : ''}) — run: dsh-mcp lock ${name}`,
      )
      return 1
    }
    cli.out.out(`${name}: ${entry.package}@${entry.version} prepared`)
  }
  return 0
}
