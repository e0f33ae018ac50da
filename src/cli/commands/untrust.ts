/**
 * `dsh-mcp untrust [name...]`: withdraw trust; with no names, every record
 * of the project (keyed by its canonical root). A named server a monorepo
 * parent defines is untrusted under that parent, where `trust` recorded it.
 *
 * Contract: a name that is neither a server of the project nor a trust
 * record of it is an error (exit 1, "did you mean"); a known server without
 * a record is reported and skipped. Prints what was removed on stderr.
 *
 * @module
 */
import { suggest } from '../../config/entry.ts'
import { rowHome } from '../../config/inherit.ts'
import { winners } from '../../config/layers.ts'
import { canonicalRoot, untrustServers } from '../../trust/store.ts'
import { failure } from '../errors.ts'
import { readListing } from '../listing.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, names: string[] = []): Promise<number> {
  const listing = readListing(cli)
  const root = listing.project.root.root
  const store = listing.store
  const recordsOf = (dir: string) => {
    const key = canonicalRoot(dir)
    return Object.keys(Object.hasOwn(store.projects, key) ? (store.projects[key]?.servers ?? {}) : {})
  }
  // A name is untrusted where it is trusted: a monorepo parent's server under that parent (config/inherit.ts).
  const homeOf = (name: string) => {
    const row = winners(listing.project.rows).find((r) => r.name === name)
    return row && row.scope !== 'user' ? rowHome(row, root) : root
  }
  const recorded = recordsOf(root)
  const known = [...new Set([...recorded, ...listing.views.map((v) => v.name)])]
  for (const name of names) {
    if (known.includes(name)) continue
    const hint = suggest(name, known)
    throw failure(`no server or trust record named "${name}" for ${root}${hint ? `; did you mean "${hint}"?` : ''}`)
  }
  const homes = new Map<string, string[]>()
  for (const name of new Set(names)) {
    const home = recorded.includes(name) ? root : homeOf(name)
    if (!recordsOf(home).includes(name)) {
      cli.out.err(`${name}: was not trusted`)
      continue
    }
    homes.set(home, [...(homes.get(home) ?? []), name])
  }
  if (names.length === 0 && recorded.length > 0) homes.set(root, [])
  if (homes.size === 0) {
    if (names.length === 0) cli.out.err(`no trust records for ${root}`)
    return 0
  }
  const removed: string[] = []
  try {
    for (const [home, some] of homes)
      removed.push(...(await untrustServers(cli.loc.dshHome, home, some.length > 0 ? some : 'all')))
  } catch (err) {
    throw failure((err as Error).message)
  }
  cli.out.err(`no longer trusted: ${removed.length > 0 ? removed.join(', ') : '(none)'}`)
  return 0
}
