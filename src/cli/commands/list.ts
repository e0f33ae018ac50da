/**
 * `dsh-mcp list [--json] [-s scope]`: every row of every layer of the
 * project found from `-C/--dir` plus the user layer, with its state.
 *
 * Contract: a config file that does not parse (or was refused unread) has
 * no rows: it is reported on stderr, one `file:line:col` line per problem.
 * One that does not parse (plan/verdict.ts `fileVerdictOf`: `refused`
 * `invalid`) also makes the exit code 1, and the table says how many files
 * could not be read (never "no MCP servers … add one" while a file is
 * broken); one refused unread (another user's, a link out of the project)
 * is the protection working: exit 0. Rows of the other files are listed. `--json` prints an array of `ServerView` (see
 * present.ts), whose `state` is the verdict's word (plan/states.ts).
 * Without --check it reads files only: no host package, no network, no child process.
 * `--check` runs the doctor engine (`checksFor`): the table gains a CHECK
 * column, each JSON row a `check` object, and the exit code is 1 when a
 * checked server is broken.
 *
 * @module
 */
import { type DoctorResult, isBroken } from '../../doctor/types.ts'
import { fileVerdictOf } from '../../plan/verdict.ts'
import { type Listing, readListing, withChecks } from '../listing.ts'
import type { CheckResult, ServerView } from '../present.ts'
import { tableOf } from '../present-text.ts'
import type { CliContext } from '../program.ts'
import { checkTimeoutMs, paintState, resultSummary, runChecks } from './doctor.ts'

export interface ListOptions {
  json?: boolean
  check?: boolean
  timeout?: string
  scope?: 'local' | 'project' | 'legacy' | 'user'
}

export async function run(cli: CliContext, opts: ListOptions): Promise<number> {
  let listing = readListing(cli)
  if (opts.check) {
    const checks = await checksFor(cli, listing, opts)
    if (typeof checks === 'number') return checks
    listing = withChecks(listing, checks)
  }
  for (const line of listing.fileProblems) cli.out.err(line)
  const views = opts.scope ? listing.views.filter((v) => v.scope === opts.scope) : listing.views
  const files = listing.project.layers.flatMap((l) => fileVerdictOf(l.parsed) ?? [])
  // A file refused unread (another user's, a link out) is a warning on stderr: the refusal is the protection working.
  const refused = files.filter((f) => f.why === 'invalid')
  // A file that does not parse is a failure; with --check, so is a broken server, as for doctor (disabled ones are not).
  const broken = views.some((v) => v.check && isBroken(v.check.state as DoctorResult['state']))
  const code = broken || refused.length > 0 ? 1 : 0
  if (opts.json) {
    cli.out.json(views)
    return code
  }
  printTable(cli, views, listing, refused.length)
  if (opts.check) printCheckDetails(cli, views)
  return code
}

function printTable(cli: CliContext, views: readonly ServerView[], listing: Listing, refused: number): void {
  if (views.length === 0 && refused > 0) {
    cli.out.out(
      `no servers listed for ${listing.project.root.root}: ${refused} config file${refused === 1 ? '' : 's'} could not be read (see above; dsh-mcp validate)`,
    )
    return
  }
  if (views.length === 0) {
    cli.out.out(`no MCP servers for ${listing.project.root.root} (add one: dsh-mcp add <name> <command> [args...])`)
    return
  }
  const { header, rows } = tableOf(views, cli.out.paint)
  // A server name is never cut, at any width: the other columns give way first.
  const keep = ['NAME', 'EFFECTIVE'].map((h) => header.indexOf(h)).filter((i) => i >= 0)
  cli.out.table(rows, header, { keep })
}

/**
 * `list --check`: name → doctor result of each winning row (the doctor
 * engine, same launch and timeout rules). The `check` object is a
 * DoctorResult without `name`, `scope` and `file` (the row has them).
 * Returns an exit code instead when a signal interrupted the checks.
 */
async function checksFor(
  cli: CliContext,
  listing: Listing,
  opts: ListOptions,
): Promise<Map<string, CheckResult> | number> {
  const timeoutMs = checkTimeoutMs(opts.timeout)
  const names = opts.scope
    ? listing.views.filter((v) => v.scope === opts.scope && v.state !== 'shadowed').map((v) => v.name)
    : undefined
  if (names && names.length === 0) return new Map()
  const { results, signalled } = await runChecks(cli, listing.project, { ...(names ? { names } : {}), timeoutMs })
  if (signalled) return signalled
  const checks = new Map<string, CheckResult>()
  for (const { name: _n, scope: _s, file: _f, ...check } of results) checks.set(_n, check)
  return checks
}

/** Under the table: one line per checked server that is not ok, with its hint and the last lines of its stderr. */
function printCheckDetails(cli: CliContext, views: readonly ServerView[]): void {
  for (const v of views) {
    if (!v.check || v.check.state === 'ok' || v.check.state === 'disabled') continue
    const r = { ...(v.check as unknown as DoctorResult), name: v.name }
    cli.out.out(`${paintState(r.state, cli.out.paint)} ${v.name}: ${resultSummary(r)}`)
    if (r.hint) cli.out.out(`  hint: ${r.hint}`)
    const tail = Array.isArray(r.stderrTail) ? r.stderrTail.slice(-3) : []
    if (tail.length) cli.out.out(`  stderr (last lines):\n${tail.map((l) => `  │ ${l}`).join('\n')}`)
  }
}
