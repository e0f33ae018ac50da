/**
 * `dsh-mcp secret list [--json]`: the secrets this project can see — its own,
 * the user's (`--user` ones), and every name its servers refer to that is not
 * set — with where each is stored and which servers use it. Never a value:
 * only the non-secret index is read.
 *
 * Contract: `--json` prints `{ secrets: [{ name, scope, stored, backend,
 * usedBy, set }] }` (scope `project` or `user`; `stored` in words; a name a
 * project secret shadows is listed once, as the project's). Exit 0.
 *
 * @module
 */
import { openSecretStore, scopeKey } from '../../secrets/store.ts'
import { readListing } from '../listing.ts'
import type { CliContext } from '../program.ts'
import { secretUses, whereStored } from '../secrets.ts'

interface SecretRow {
  name: string
  scope: 'project' | 'user' | null
  backend: 'keychain' | 'file' | null
  stored: string
  usedBy: string[]
  set: boolean
}

export async function run(cli: CliContext, opts: { json?: boolean }): Promise<number> {
  const listing = readListing(cli)
  const project = scopeKey(listing.project.root.root)
  const records = openSecretStore({ dshHome: cli.loc.dshHome }).list()
  const uses = secretUses(listing.project.rows)
  const rows = new Map<string, SecretRow>()
  for (const scope of [project, 'user'])
    for (const r of records) {
      if (r.scope !== scope || rows.has(r.name)) continue
      rows.set(r.name, {
        name: r.name,
        scope: scope === 'user' ? 'user' : 'project',
        backend: r.backend,
        stored: whereStored(r.backend, cli),
        usedBy: uses.get(r.name) ?? [],
        set: true,
      })
    }
  for (const [name, usedBy] of uses)
    if (!rows.has(name)) rows.set(name, { name, scope: null, backend: null, stored: 'not set', usedBy, set: false })
  const list = [...rows.values()].sort((a, b) => a.name.localeCompare(b.name))
  if (opts.json) {
    cli.out.json({ secrets: list })
    return 0
  }
  if (list.length === 0) {
    cli.out.err('no secrets set or used here (dsh-mcp secret set NAME)')
    return 0
  }
  cli.out.table(
    list.map((r) => [r.name, r.scope ?? '-', r.stored, r.usedBy.join(', ') || '-']),
    ['NAME', 'SCOPE', 'STORED IN', 'USED BY'],
  )
  const unset = list.filter((r) => !r.set)
  for (const r of unset) cli.out.err(`${r.name} is not set: dsh-mcp secret set ${r.name}`)
  return 0
}
