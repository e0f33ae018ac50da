/**
 * `dsh-mcp list [--json] [-s scope]`: every row of every layer of the
 * project found from `-C/--dir` plus the user layer, with its state.
 *
 * Contract: exit 0 even when files are broken — a file that does not parse
 * has no rows and is reported on stderr, one `file:line:col` line per
 * problem. `--json` prints an array of `ServerView` (see present.ts).
 * Reads files only: no host package, no network, no child process.
 * `--check` is the doctor engine's seam (`checksFor`).
 *
 * @module
 */
import { failure } from '../errors.ts'
import { type CheckResult, type Listing, readListing, type ServerView, tableOf } from '../present.ts'
import type { CliContext } from '../program.ts'

export interface ListOptions {
  json?: boolean
  check?: boolean
  timeout?: string
  scope?: 'local' | 'project' | 'legacy' | 'user'
}

export async function run(cli: CliContext, opts: ListOptions): Promise<number> {
  let listing = readListing(cli)
  if (opts.check) listing = readListing(cli, await checksFor(cli, listing, opts))
  for (const line of listing.fileProblems) cli.out.err(line)
  const views = opts.scope ? listing.views.filter((v) => v.scope === opts.scope) : listing.views
  if (opts.json) {
    cli.out.json(views)
    return 0
  }
  printTable(cli, views, listing)
  return 0
}

function printTable(cli: CliContext, views: readonly ServerView[], listing: Listing): void {
  if (views.length === 0) {
    cli.out.out(`no MCP servers for ${listing.project.root.root} (add one: dsh-mcp add <name> <command> [args...])`)
    return
  }
  const { header, rows } = tableOf(views, cli.out.paint)
  cli.out.table(rows, header)
}

/** Seam for `list --check`: name → doctor result of each winning row. Wired by the doctor engine. */
async function checksFor(_cli: CliContext, _listing: Listing, _opts: ListOptions): Promise<Map<string, CheckResult>> {
  throw failure('list --check is not available in this build; run "dsh-mcp doctor"')
}
