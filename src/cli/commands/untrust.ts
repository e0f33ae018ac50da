/**
 * `dsh-mcp untrust [name...]`: withdraw trust; with no names, every record
 * of the project (keyed by its canonical root).
 *
 * Contract: a name that is neither a server of the project nor a trust
 * record of it is an error (exit 1, "did you mean"); a known server without
 * a record is reported and skipped. Prints what was removed on stderr.
 * A server with a signed approval in `.dsh/mcp.trust` (named, or every one
 * with no names) also gets a withdrawal mark in the personal store: its team
 * signature no longer lets it run for this user (live in a running host)
 * until `dsh-mcp trust` trusts it again.
 *
 * @module
 */
import { suggest } from '../../config/entry.ts'
import { canonicalRoot, untrustServers } from '../../trust/store.ts'
import { readTeamTrust } from '../../trust/team.ts'
import { failure } from '../errors.ts'
import { readListing } from '../listing.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, names: string[] = []): Promise<number> {
  const listing = readListing(cli)
  const root = listing.project.root.root
  const store = listing.store
  const key = canonicalRoot(root)
  const recorded = Object.keys(Object.hasOwn(store.projects, key) ? (store.projects[key]?.servers ?? {}) : {})
  const signed = Object.keys(readTeamTrust(root).file.servers)
  const known = [...new Set([...recorded, ...listing.views.map((v) => v.name), ...signed])]
  for (const name of names) {
    if (known.includes(name)) continue
    const hint = suggest(name, known)
    throw failure(`no server or trust record named "${name}" for ${root}${hint ? `; did you mean "${hint}"?` : ''}`)
  }
  const pending = names.length > 0 ? names.filter((n) => recorded.includes(n)) : recorded
  const revoke = names.length > 0 ? [...new Set(names)].filter((n) => signed.includes(n)) : signed
  for (const name of names)
    if (!recorded.includes(name) && !signed.includes(name)) cli.out.err(`${name}: was not trusted`)
  if (pending.length === 0 && revoke.length === 0) {
    if (names.length === 0) cli.out.err(`no trust records for ${root}`)
    return 0
  }
  let removed: string[]
  try {
    removed = await untrustServers(cli.loc.dshHome, root, names.length > 0 ? [...new Set(names)] : 'all', revoke)
  } catch (err) {
    throw failure((err as Error).message)
  }
  if (pending.length > 0 || revoke.length === 0)
    cli.out.err(`no longer trusted: ${removed.length > 0 ? removed.join(', ') : '(none)'}`)
  if (revoke.length > 0) cli.out.err(`team signature no longer honoured here: ${revoke.join(', ')}`)
  return 0
}
