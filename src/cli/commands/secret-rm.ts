/**
 * `dsh-mcp secret rm [--user] NAME`: forget a secret of this project (or the
 * user's own, `--user`) in the backend that keeps it, and its index record.
 *
 * Contract: a name not set in that scope is an error (exit 1). Prints on
 * stderr what was removed and from where; never a value.
 *
 * @module
 */
import { openSecretStore } from '../../secrets/store.ts'
import { failure } from '../errors.ts'
import { readListing } from '../listing.ts'
import type { CliContext } from '../program.ts'
import { checkSecretName, scopeOf, whereStored } from '../secrets.ts'

export async function run(cli: CliContext, name: string, opts: { user?: boolean }): Promise<number> {
  checkSecretName(name)
  const root = opts.user ? cli.dir : readListing(cli).project.root.root
  const scope = scopeOf(root, opts.user)
  const store = openSecretStore({ dshHome: cli.loc.dshHome, env: cli.env })
  const record = store.list().find((r) => r.scope === scope.key && r.name === name)
  if (!record) throw failure(`no secret ${name} is set for ${scope.label}`)
  try {
    await store.remove(scope.key, name)
  } catch (err) {
    throw failure(`secret ${name}: ${(err as Error).message}`)
  }
  cli.out.err(`secret ${name} removed for ${scope.label} (from ${whereStored(record.backend, cli)})`)
  return 0
}
