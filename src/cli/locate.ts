/**
 * Finding a server across a project's layers for the editing commands
 * (remove, enable, disable).
 *
 * Contract: reads the project fresh (`loadProject`). `definingLayers` lists
 * the layer files whose text defines the name (full, partial or invalid
 * entries), strongest first. `requireReadable` fails (exit 1, file:line:col)
 * when a file stronger than the one about to be edited does not parse — it
 * might define the name, so the command cannot tell what it would change.
 * `inScope` is the same lookup limited to one `-s` scope's files (each must
 * parse). `notFound` is the one-line "no such server" failure with a
 * did-you-mean (`get` and `trust` use listing.ts `unknownServer`, which
 * loads no writer library).
 *
 * @module
 */
import { formatDiagnostic } from '../config/diagnostics.ts'
import { suggest } from '../config/entry.ts'
import { type LayerFile, type LayerInput, type Row, winners } from '../config/layers.ts'
import type { ParsedEntry } from '../config/parse.ts'
import { loadProject, type ProjectView } from '../files/project.ts'
import { type CliError, failure } from './errors.ts'
import { displayPath } from './present.ts'
import type { CliContext } from './program.ts'
import { label, scopeLayers, type WriteScope } from './target.ts'

export function load(cli: CliContext): ProjectView {
  return loadProject(cli.dir, cli.loc)
}

export function definingLayers(view: ProjectView, name: string): LayerInput[] {
  return [...view.layers]
    .sort((a, b) => a.layer.rank - b.layer.rank)
    .filter((l) => l.parsed.entries.some((e) => e.name === name))
}

export function ownEntry(view: ProjectView, file: string, name: string): ParsedEntry | undefined {
  return view.layers.find((l) => l.layer.file === file)?.parsed.entries.find((e) => e.name === name)
}

export function winnerOf(view: ProjectView, name: string): Row | undefined {
  return winners(view.rows).find((r) => r.name === name)
}

/**
 * `-s scope`: the scope's writable files, and the strongest of them whose text
 * defines `name` (undefined when none does). Fails when one of them does not parse.
 */
export function inScope(
  cli: CliContext,
  view: ProjectView,
  name: string,
  scope: WriteScope,
): { files: LayerFile[]; hit: LayerInput | undefined } {
  const files = scopeLayers(view.root.root, scope, cli.loc.dshHome)
  const ofScope = (l: LayerInput) => files.some((f) => f.file === l.layer.file)
  requireReadable(cli, { ...view, layers: view.layers.filter(ofScope) })
  return { files, hit: definingLayers(view, name).find(ofScope) }
}

/** Fail when a layer file stronger than `rank` (all files when undefined) does not parse. */
export function requireReadable(cli: CliContext, view: ProjectView, rank?: number): void {
  for (const l of view.layers) {
    if (l.parsed.ok || (rank !== undefined && l.layer.rank >= rank)) continue
    const d = l.parsed.diagnostics.find((x) => x.severity === 'error')
    const where = d
      ? formatDiagnostic(d, { relativeTo: (f) => label(cli, view.root.root, f) })
      : label(cli, view.root.root, l.layer.file)
    throw failure(`${where} (fix this file first: it may define the server)`)
  }
}

export function notFound(view: ProjectView, name: string, where?: string): CliError {
  const elsewhere = view.rows.find((r) => r.name === name)
  if (where && elsewhere)
    return failure(`"${name}" is not in ${where} (it is defined in ${displayPath(view.root.root)(elsewhere.file)})`)
  const names = [...new Set(view.rows.map((r) => r.name))]
  const hint = suggest(name, names)
  return failure(
    `no server "${name}"${where ? ` in ${where}` : ' in this project or the user file'}${hint ? `; did you mean "${hint}"?` : ''}`,
  )
}
