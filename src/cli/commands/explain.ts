/**
 * `dsh-mcp explain <name> [--json]`: which layer files defined, overrode,
 * disabled or shadowed a server, and which one decided — rendered from the
 * one pure trace (plan/trace.ts `layerTrace`) over the project as read now
 * (its own files, its parents' up to the repository root, the user file).
 * `status --explain` appends the same trace for every server (`explainAll`).
 *
 * Contract: file paths are relative to the working directory (the user's
 * file as `~/…` when under home); a directory above the project says how
 * many levels up. Exit 1 with a "did you mean" when no layer names the
 * server. `--json`: `{ name, outcome, root, steps: [{ action, scope, file,
 * path, level, decides, applies, keys, by, note }] }` (`file` relative,
 * `path` absolute). Names, files and keys only — never a value.
 *
 * @module
 */
import path from 'node:path'
import { loadProject, type ProjectView } from '../../files/project.ts'
import { type LayerTrace, layerTrace, type TraceStep, traceNames } from '../../plan/trace.ts'
import { unknownServer } from '../listing.ts'
import type { CliContext } from '../program.ts'

/** A file as the user at `cwd` names it: relative to it; the user's own file as `~/…` when under home. */
export function relativeFile(cli: Pick<CliContext, 'cwd' | 'loc'>, file: string, scope?: string): string {
  if (scope === 'user') {
    const home = path.relative(cli.loc.home, file)
    return home && !home.startsWith('..') && !path.isAbsolute(home) ? `~${path.sep}${home}` : file
  }
  return path.relative(cli.cwd, file) || '.'
}

const VERB: Record<TraceStep['action'], string> = {
  disables: 'disables',
  overrides: 'overrides',
  defines: 'defines',
  shadowed: 'shadowed',
}

function where(step: TraceStep): string {
  if (step.scope === 'user') return 'user'
  if (!step.level) return step.scope
  return `${step.scope}, ${step.level} level${step.level === 1 ? '' : 's'} up`
}

function detail(cli: CliContext, step: TraceStep): string {
  switch (step.action) {
    case 'disables':
      return step.applies
        ? 'disable: lists it — turned off here'
        : 'disable: lists it — no effect (not from a weaker layer)'
    case 'overrides':
      return `merges ${step.keys?.join(', ') ?? 'fields'} onto it`
    case 'defines':
      return step.decides ? (step.note ? `wins (${step.note})` : 'wins') : 'defined here (turned off above)'
    case 'shadowed':
      return step.by ? `by ${relativeFile(cli, step.by)}` : ''
  }
}

/** The trace as text lines: a heading, then one line per step (`→` marks the step that decided). */
export function traceLines(cli: CliContext, trace: LayerTrace): string[] {
  const decider = trace.steps.find((s) => s.decides)
  const outcome =
    trace.outcome === 'disabled' && decider?.action === 'disables'
      ? `disabled by ${relativeFile(cli, decider.file, decider.scope)}`
      : trace.outcome
  const rows = trace.steps.map((s) => [
    s.decides ? '→' : ' ',
    VERB[s.action],
    relativeFile(cli, s.file, s.scope),
    `(${where(s)})`,
    detail(cli, s),
  ])
  const widths = [1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)))
  return [
    `${cli.out.paint('bold', trace.name)}: ${outcome}`,
    ...rows.map((r) =>
      `  ${r[0]} ${r[1]!.padEnd(widths[0]!)}  ${r[2]!.padEnd(widths[1]!)}  ${r[3]!.padEnd(widths[2]!)}  ${r[4]}`.trimEnd(),
    ),
  ]
}

/** The trace in its JSON form (`file` relative to the cwd, `path` absolute). */
export function traceJson(cli: CliContext, trace: LayerTrace): Record<string, unknown> {
  return {
    name: trace.name,
    outcome: trace.outcome,
    steps: trace.steps.map((s) => ({ ...s, file: relativeFile(cli, s.file, s.scope), path: s.file })),
  }
}

/** Every server's trace of the project of `-C`, by name (for `status --explain`). */
export function explainAll(cli: CliContext, view: ProjectView = loadProject(cli.dir, cli.loc)): LayerTrace[] {
  return traceNames(view.rows)
    .sort()
    .map((n) => layerTrace(n, view.rows, view.layers))
}

export async function run(cli: CliContext, name: string, opts: { json?: boolean } = {}): Promise<number> {
  const view = loadProject(cli.dir, cli.loc)
  const trace = layerTrace(name, view.rows, view.layers)
  if (trace.steps.length === 0) throw unknownServer(name, traceNames(view.rows), view.root.root)
  if (opts.json) {
    cli.out.json({ ...traceJson(cli, trace), root: view.root.root })
    return 0
  }
  for (const line of traceLines(cli, trace)) cli.out.out(line)
  return 0
}
