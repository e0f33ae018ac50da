/**
 * `dsh-mcp trust [name...] [--all] [--yes]`: allow project-layer servers to run.
 *
 * Contract: one screen for a handful of servers (cli/trust-review.ts): a
 * summary table, then details only for what needs attention (`--verbose`:
 * all) — transport, the full command line, the resolved cwd, the url, env and
 * header KEY names, the defining file, and flagged: the values of env vars
 * that load code, every file merged into the row, an unpinned package runner
 * with its pinned form, what changed field by field since it was trusted.
 * On a terminal it asks per server (`y/n/a/q`: yes, no, all the rest, quit;
 * one server: y/N); `--yes` skips the question; without a terminal and
 * without `--yes` it refuses, exit 1. It records the current fingerprint of
 * each accepted server (and its review snapshot, trust/snapshot.ts) under the
 * canonical project root. A trusted server whose offered tools differ from
 * the ones pinned at trust (tool-review.ts) is reviewed again: the tool-level
 * diff is a section of its details, and accepting records the offered tools'
 * pins.
 * `--all`: every active project-layer server. A user-layer server needs no
 * trust (said, skipped). Unknown name: exit 1 with a "did you mean"; an
 * invalid one: exit 1. Neither names nor `--all`: usage error, exit 2.
 * `--sign <key>`: the servers reviewed (those already trusted too) are also
 * signed into the project's committed `.dsh/mcp.trust` (cli/trust-sign.ts).
 * Then the `${secret:NAME}`s the trusted servers need that are not set: on a
 * terminal it offers to set each (hidden prompt), else prints the command.
 *
 * @module
 */
import { rowFingerprint } from '../../config/fingerprint.ts'
import { rowHome } from '../../config/inherit.ts'
import type { Row } from '../../config/layers.ts'
import { needsTrust, trustRecordOf } from '../../trust/state.ts'
import { canonicalRoot } from '../../trust/store.ts'
import { failure, usage } from '../errors.ts'
import { readListing, unknownServer } from '../listing.ts'
import { readLockFile } from '../../files/lock-file.ts'
import type { ServerView } from '../present.ts'
import { detailBlocks, type ReviewTarget, summaryTable } from '../trust-review.ts'
import type { CliContext } from '../program.ts'
import { toolReviewOf } from '../tool-review.ts'

export interface TrustOptions {
  all?: boolean
  yes?: boolean
  /** An SSH private key: also sign the approvals into `.dsh/mcp.trust` (cli/trust-sign.ts). */
  sign?: string
  /** Details for every server, not only those that need attention. */
  verbose?: boolean
}

export async function run(cli: CliContext, names: string[] = [], opts: TrustOptions = {}): Promise<number> {
  if (names.length === 0 && !opts.all)
    throw usage('name the servers to trust, or pass --all', ['see what would run first: dsh-mcp list'])
  const listing = readListing(cli)
  for (const line of listing.fileProblems) cli.out.err(line)
  const root = listing.project.root.root
  const winners = new Map<string, { row: Row; view: ServerView }>()
  for (const row of listing.project.rows) {
    if (row.state === 'shadowed') continue
    const view = listing.views.find((v) => v.name === row.name && v.file === row.file && v.state !== 'shadowed')
    if (view) winners.set(row.name, { row, view })
  }
  const picked = opts.all
    ? [...winners.values()].filter((w) => needsTrust(w.row) && w.row.state === 'active')
    : pickNamed(cli, names, winners, root, listing.display)
  const key = canonicalRoot(root)
  const recorded = Object.hasOwn(listing.store.projects, key) ? listing.store.projects[key]?.servers : undefined
  const targets: ReviewTarget[] = []
  // The lock (.dsh/mcp.lock) a locked server's review shows: package, version, integrity.
  const read = readLockFile(root)
  const lock = 'lock' in read ? read.lock : undefined
  for (const { row, view } of picked) {
    if (!row.entry) continue
    const tools = toolReviewOf(cli.loc.dshHome, key, row, trustRecordOf(listing.store, key, row.name))
    if (view.trust === 'trusted' && !tools && !opts.sign) {
      cli.out.err(`${view.name}: already trusted`)
      continue
    }
    const previous = recorded && Object.hasOwn(recorded, view.name) ? recorded[view.name]?.fields : undefined
    targets.push({
      row,
      view,
      fingerprint: rowFingerprint(row),
      previous,
      ...(tools ? { tools } : {}),
      ...(lock ? { lock } : {}),
    })
  }
  if (targets.length === 0) {
    if (opts.all) cli.out.err('nothing to trust: no project server waits for trust')
    return 0
  }
  if (opts.sign) {
    const { checkSignable } = await import('../trust-sign.ts')
    checkSignable(
      cli,
      targets.map((t) => ({ name: t.view.name, row: t.row })),
    )
  }
  const paint = cli.out.paint
  cli.out.out(`These servers of ${root} will be allowed to run:`)
  cli.out.out()
  const { header, rows } = summaryTable(targets, paint)
  cli.out.table(rows, header, { keep: [0] })
  for (const line of detailBlocks(targets, { root, display: listing.display, verbose: opts.verbose === true, paint }))
    cli.out.out(line)
  cli.out.out()
  let accepted = targets
  if (!opts.yes) {
    if (!cli.interactive)
      throw failure('not trusting without confirmation: no terminal to ask on; pass --yes to confirm')
    const streams = { input: cli.stdin, output: cli.stderr }
    if (targets.length === 1) {
      const { confirm } = await import('../prompt.ts')
      if (!(await confirm('Trust this server?', streams))) accepted = []
    } else {
      const { chooseEach } = await import('../prompt.ts')
      const yes = await chooseEach(
        targets.map((t) => t.view.name),
        (name) => `Trust ${name}?`,
        streams,
      )
      accepted = targets.filter((t) => yes.has(t.view.name))
    }
    if (accepted.length === 0) {
      cli.out.err('nothing trusted')
      return 1
    }
  }
  const { reviewSnapshot } = await import('../../trust/snapshot.ts')
  const { trustServers } = await import('../../trust/store.ts')
  try {
    // Each row under the directory it belongs to: a monorepo parent's server is trusted once for every package.
    const homes = new Map<string, typeof accepted>()
    for (const t of accepted) {
      const home = rowHome(t.row, root)
      homes.set(home, [...(homes.get(home) ?? []), t])
    }
    for (const [home, group] of homes)
      await trustServers(
        cli.loc.dshHome,
        home,
        group.map((t) => ({
          name: t.view.name,
          fingerprint: t.fingerprint,
          ...(t.row.entry ? { fields: reviewSnapshot(t.row.entry, t.row.lock) } : {}),
          ...(t.tools ? { tools: t.tools.accept } : {}),
        })),
      )
  } catch (err) {
    throw failure((err as Error).message)
  }
  cli.out.err(`trusted: ${accepted.map((t) => t.view.name).join(', ')}`)
  if (opts.sign) {
    const { signApprovals } = await import('../trust-sign.ts')
    signApprovals(
      cli,
      root,
      opts.sign,
      accepted.map((t) => ({ name: t.view.name, fingerprint: t.fingerprint, row: t.row })),
    )
  }
  const { offerMissingSecrets } = await import('../secrets.ts')
  const declared = listing.project.layers.flatMap((l) => l.parsed?.secrets ?? [])
  await offerMissingSecrets(
    cli,
    root,
    accepted.map((t) => t.row),
    declared,
  )
  return 0
}

function pickNamed(
  cli: CliContext,
  names: string[],
  winners: Map<string, { row: Row; view: ServerView }>,
  root: string,
  display: (file: string) => string,
): { row: Row; view: ServerView }[] {
  const picked: { row: Row; view: ServerView }[] = []
  for (const name of [...new Set(names)]) {
    const w = winners.get(name)
    if (!w) throw unknownServer(name, [...winners.keys()], root)
    if (!needsTrust(w.row)) {
      cli.out.err(`${name}: a user-layer server (${display(w.view.file)}) needs no trust`)
      continue
    }
    if (!w.row.entry) throw failure(`"${name}" is invalid; fix it first (dsh-mcp validate)`, w.view.issues)
    picked.push(w)
  }
  return picked
}
