/**
 * `dsh-mcp get <name> [--json]`: one server — its winning row and the rows
 * it shadows.
 *
 * Contract: exit 1 with a one-line error and a "did you mean" among known
 * names when no layer defines the name. `--json` prints the winning row's
 * `ServerView` with `shadowed: ServerView[]`. Values of env and headers are
 * never printed.
 *
 * @module
 */
import { readListing, unknownServer } from '../listing.ts'
import { detailLines, targetOf } from '../present-text.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, name: string, opts: { json?: boolean }): Promise<number> {
  const listing = readListing(cli)
  for (const line of listing.fileProblems) cli.out.err(line)
  const mine = listing.views.filter((v) => v.name === name)
  const winner = mine.find((v) => v.state !== 'shadowed')
  if (!winner) {
    throw unknownServer(name, [...new Set(listing.views.map((v) => v.name))], listing.project.root.root)
  }
  const shadowed = mine.filter((v) => v !== winner)
  if (opts.json) {
    cli.out.json({ ...winner, shadowed })
    return 0
  }
  for (const line of detailLines(winner, listing.project.root.root, listing.display)) cli.out.out(line)
  if (shadowed.length > 0) {
    cli.out.out('shadowed rows:')
    for (const v of shadowed)
      cli.out.out(`  ${v.scope}  ${listing.display(v.file)}  ${v.transport ?? '-'}  ${targetOf(v)}`)
  }
  return 0
}
