/**
 * `dsh-mcp trust [name...] [--all] [--yes]`: allow project-layer servers to run.
 *
 * Contract: shows exactly what will be allowed per server — transport, the
 * full command line, the resolved cwd, the url, env and header KEY names,
 * the defining file, and flagged: the values of env vars that can load or
 * redirect code, every file merged into the row, an unpinned package
 * runner with its pinned form — then asks on a terminal (`--yes` skips the question;
 * without a terminal and without `--yes` it refuses, exit 1). It records
 * the current fingerprint of each server under the canonical project root.
 * A trusted server whose offered tools differ from the ones pinned at trust
 * (tool-review.ts) is reviewed again: the tool-level diff is shown, and
 * accepting records the offered tools' pins. `--all`: every active project-layer server. A user-layer server needs no
 * trust (said, skipped). Unknown name: exit 1 with a "did you mean"; an
 * invalid one: exit 1. Neither names nor `--all`: usage error, exit 2.
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
import { issuesBesideVerdict, type ServerView } from '../present.ts'
import { detailLines, reviewWarnings } from '../present-text.ts'
import type { CliContext } from '../program.ts'
import { type ToolReview, toolReviewLines, toolReviewOf } from '../tool-review.ts'

export interface TrustOptions {
  all?: boolean
  yes?: boolean
}

interface Target {
  row: Row
  view: ServerView
  fingerprint: string
  /** Tools it offers beside the ones pinned (tool-review.ts): shown, and recorded on accept. */
  tools?: ToolReview
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
  const targets: Target[] = []
  const key = canonicalRoot(root)
  for (const { row, view } of picked) {
    if (!row.entry) continue
    const tools = toolReviewOf(cli.loc.dshHome, key, row, trustRecordOf(listing.store, key, row.name))
    if (view.trust === 'trusted' && !tools) {
      cli.out.err(`${view.name}: already trusted`)
      continue
    }
    targets.push({ row, view, fingerprint: rowFingerprint(row), ...(tools ? { tools } : {}) })
  }
  if (targets.length === 0) {
    if (opts.all) cli.out.err('nothing to trust: no project server waits for trust')
    return 0
  }
  cli.out.out(`These servers of ${root} will be allowed to run:`)
  for (const t of targets) {
    cli.out.out()
    // The verdict's own line ("not trusted yet: run dsh-mcp trust …") is noise in trust's own review.
    const issues = t.view.verdict.tag === 'needs-trust' ? issuesBesideVerdict(t.view) : t.view.issues
    for (const line of detailLines({ ...t.view, issues }, root, listing.display)) cli.out.out(line)
    for (const line of reviewWarnings(t.row, listing.display)) cli.out.out(line)
    if (t.view.trust === 'changed') cli.out.out('  ! changed since it was last trusted')
    if (t.view.state === 'disabled') cli.out.out('  (disabled now: trusted for when it is enabled)')
    if (t.tools) for (const line of toolReviewLines(t.tools)) cli.out.out(line)
  }
  cli.out.out()
  if (!opts.yes) {
    if (!cli.interactive)
      throw failure('not trusting without confirmation: no terminal to ask on; pass --yes to confirm')
    const { confirm } = await import('../prompt.ts')
    if (
      !(await confirm(`Trust ${targets.length === 1 ? 'this server' : `these ${targets.length} servers`}?`, {
        input: cli.stdin,
        output: cli.stderr,
      }))
    ) {
      cli.out.err('nothing trusted')
      return 1
    }
  }
  const { trustServers } = await import('../../trust/store.ts')
  try {
    // Each row under the directory it belongs to: a monorepo parent's server is trusted once for every package.
    const homes = new Map<string, Target[]>()
    for (const t of targets) {
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
          ...(t.tools ? { tools: t.tools.accept } : {}),
        })),
      )
  } catch (err) {
    throw failure((err as Error).message)
  }
  cli.out.err(`trusted: ${targets.map((t) => t.view.name).join(', ')}`)
  const { offerMissingSecrets } = await import('../secrets.ts')
  const declared = listing.project.layers.flatMap((l) => l.parsed?.secrets ?? [])
  await offerMissingSecrets(
    cli,
    root,
    targets.map((t) => t.row),
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
