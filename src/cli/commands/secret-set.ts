/**
 * `dsh-mcp secret set [--user] NAME`: store a secret's value for this project
 * (or, with `--user`, for every project).
 *
 * Contract: the value comes from a hidden prompt on a terminal, else from
 * stdin (one trailing line break dropped) — never from an argument. Prints
 * on stderr which backend kept it (cli/secrets.ts `setSecret`). Exit 1 when
 * the store refuses (a keychain that once held the name and does not answer).
 *
 * @module
 */
import { readListing } from '../listing.ts'
import type { CliContext } from '../program.ts'
import { checkSecretName, scopeOf, setSecret } from '../secrets.ts'

export async function run(cli: CliContext, name: string, opts: { user?: boolean }): Promise<number> {
  checkSecretName(name)
  const root = opts.user ? cli.dir : readListing(cli).project.root.root
  await setSecret(cli, name, scopeOf(root, opts.user))
  return 0
}
