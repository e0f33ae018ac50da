/**
 * Which file a write goes to in a monorepo (docs/guide/monorepos.md): `add`,
 * `add-json` and `remove` in a package whose project inherits files of the
 * directories above it.
 *
 * Contract:
 * - `fileOption(cli, value)`: `--file <path>` (relative to the working
 *   directory) names a layer file dsh-mcp writes — `.dsh/mcp.yml`,
 *   `.dsh/mcp.json` or `.dsh/mcp.local.yml` of `-C`'s directory or of any
 *   directory above it up to the repository root, or the user file; anything
 *   else fails, listing what it may name.
 * - `addCandidates(view)`: the present project files (one per directory:
 *   `.dsh/mcp.yml`, else `.dsh/mcp.json`) of the project and the directories
 *   it inherits from, nearest first. `removeCandidates(view, name)`: per
 *   directory, the strongest writable file whose text defines `name`.
 * - `pickFile(cli, candidates, question, hint)`: one candidate is the answer;
 *   more than one is asked on a terminal (a numbered choice); with no terminal
 *   it fails with one actionable line naming every candidate (relative to the
 *   working directory) and `--file` / `-s`. Nothing is written before the
 *   answer.
 *
 * @module
 */
import path from 'node:path'
import { chainLayerFiles } from '../config/inherit.ts'
import { type LayerFile, type LayerInput, layerDirOf, userLayerFile } from '../config/layers.ts'
import type { ProjectView } from '../files/project.ts'
import { projectChainOf } from '../files/read.ts'
import { failure } from './errors.ts'
import type { CliContext } from './program.ts'
import { label } from './target.ts'

/** The layer files `--file` may name from `-C`'s directory: its chain's writable files and the user file. */
export function writableFiles(cli: CliContext): LayerFile[] {
  const chain = chainLayerFiles(projectChainOf(cli.dir, cli.loc), { legacyMcpJson: false })
  return [...chain, userLayerFile(cli.loc.dshHome)]
}

export function fileOption(cli: CliContext, value: string): LayerFile {
  const file = path.resolve(cli.cwd, value)
  const files = writableFiles(cli)
  const hit = files.find((f) => f.file === file)
  if (hit) return hit
  throw failure(
    `--file ${value}: not a config file dsh-mcp writes here; name .dsh/mcp.yml, .dsh/mcp.json or .dsh/mcp.local.yml of this directory or of one above it up to the repository root, or the user file`,
    [
      `e.g. ${files
        .slice(0, 3)
        .map((f) => label(cli, cli.dir, f.file))
        .join(', ')}`,
    ],
  )
}

/** The strongest input per project directory among `inputs` (strongest first). */
function onePerDir(inputs: readonly LayerInput[]): LayerFile[] {
  const seen = new Map<string, LayerFile>()
  for (const l of [...inputs].sort((a, b) => a.layer.rank - b.layer.rank)) {
    const dir = layerDirOf(l.layer)
    if (!seen.has(dir)) seen.set(dir, l.layer)
  }
  return [...seen.values()]
}

export function addCandidates(view: ProjectView): LayerFile[] {
  return onePerDir(view.layers.filter((l) => l.layer.scope === 'project'))
}

export function removeCandidates(view: ProjectView, name: string): LayerFile[] {
  return onePerDir(
    view.layers.filter(
      (l) =>
        (l.layer.scope === 'project' || l.layer.scope === 'local') && l.parsed.entries.some((e) => e.name === name),
    ),
  )
}

export async function pickFile(
  cli: CliContext,
  candidates: readonly LayerFile[],
  question: string,
  hint: string,
): Promise<LayerFile> {
  if (candidates.length === 1) return candidates[0]!
  const shown = candidates.map((c) => label(cli, cli.dir, c.file))
  if (!cli.interactive)
    throw failure(`${question}: ${shown.join(', ')} — no terminal to ask on; pass --file <one of them> or ${hint}`)
  const { choose } = await import('./prompt.ts')
  const at = await choose(`${question}:`, shown, { input: cli.stdin, output: cli.stderr })
  if (at === undefined) throw failure(`no file chosen; nothing written (pass --file <path> to choose without a prompt)`)
  return candidates[at]!
}
