/**
 * `dsh-mcp add [options] <name> <commandOrUrl> [args...]` (docs/guide/cli.md).
 *
 * Contract: validates everything before touching a file (name, flags, the
 * entry through `checkEntry`), then writes the entry as typed (`${VAR}`
 * literal) to the scope's file under its lock (`--file <path>`: that layer
 * file; no `-s`/`--file` in a package of a monorepo whose project and parent
 * directories hold more than one project file: asked on a terminal, else a
 * one-line failure naming them — pick-file.ts). The file is named relative
 * to the working directory. An existing name in that file
 * fails (exit 1) unless `--force`, which replaces it in place. Success prints
 * one line on stderr; notes follow when another layer wins over the new row,
 * or when win32 runs the command through `cmd /c`. The row the user just
 * wrote is trusted only when its effective entry is exactly what was typed
 * (trust-written.ts `trustWritten`): a committed local file merging fields into it
 * leaves it untrusted, with a note saying why.
 *
 * @module
 */
import { existsSync, statSync } from 'node:fs'
import { formatPath } from '../../config/diagnostics.ts'
import { checkEntry, transportOf } from '../../config/entry.ts'
import { type LayerFile, layerDirOf } from '../../config/layers.ts'
import type { Entry } from '../../config/schema.ts'
import { loadProject } from '../../files/project.ts'
import { projectRootOf } from '../../files/read.ts'
import { failure, usage } from '../errors.ts'
import { type AddFlags, checkName, entryFromAdd, firstEntryError, windowsNote } from '../flags.ts'
import { winnerOf } from '../locate.ts'
import { addCandidates, fileOption, pickFile } from '../pick-file.ts'
import type { CliContext } from '../program.ts'
import { editTarget, label, scopeLayer, type WriteScope } from '../target.ts'
import { trustWritten } from '../trust-written.ts'

export async function run(
  cli: CliContext,
  name: string,
  commandOrUrl: string,
  args: string[],
  opts: AddFlags,
): Promise<number> {
  checkName(name)
  const entry = entryFromAdd(commandOrUrl, args ?? [], opts)
  return writeEntry(cli, name, entry, {
    ...(opts.scope ? { scope: opts.scope as WriteScope } : {}),
    ...(opts.file ? { file: opts.file } : {}),
    force: Boolean(opts.force),
  })
}

/** Validate `entry` with `checkEntry`; throws a one-line failure naming the first error. */
export function validated(name: string, entry: unknown): Entry {
  const checked = checkEntry(entry)
  const first = firstEntryError(checked)
  if (first !== undefined || !checked.entry) {
    const errors = checked.problems.filter((p) => p.severity === 'error')
    throw failure(
      `server "${name}" is not valid: ${first}`,
      errors.slice(1).map((e) => `${formatPath(e.path) || '(entry)'}: ${e.message}`),
    )
  }
  return checked.entry
}

/** Shared by add and add-json: write one full entry to a scope's file. */
export async function writeEntry(
  cli: CliContext,
  name: string,
  entry: Record<string, unknown>,
  opts: { scope?: WriteScope; file?: string; force: boolean },
): Promise<number> {
  const checked = validated(name, entry)
  if (!existsSync(cli.dir) || !statSync(cli.dir).isDirectory()) throw failure(`${cli.dir}: no such directory`)
  const project = projectRootOf(cli.dir, cli.loc).root
  const layer = await targetLayer(cli, name, project, opts)
  // A parent directory's file is edited as that directory's (links, the local file's .gitignore).
  const root = layer.scope === 'user' ? project : layerDirOf(layer)
  const where = label(cli, root, layer.file)
  const outcome = await editTarget(cli, root, layer, (editor) => {
    const existed = editor.has(name)
    if (existed && !opts.force)
      throw failure(`server "${name}" already exists in ${where}; use -f/--force to replace it`)
    editor.set(name, entry)
    return existed
  })
  const kind = transportOf(checked) === 'stdio' ? 'stdio' : 'http'
  cli.out.err(
    `${outcome.value ? 'Replaced' : 'Added'} ${kind} server "${name}" ${outcome.value ? 'in' : 'to'} ${where}`,
  )
  const view = loadProject(cli.dir, cli.loc)
  const winner = winnerOf(view, name)
  if (winner && winner.file !== layer.file)
    cli.out.err(`note: "${name}" in ${label(cli, root, winner.file)} takes precedence; this entry is shadowed`)
  else if (winner?.disabledBy)
    cli.out.err(`note: "${name}" is turned off by disable: in ${label(cli, root, winner.disabledBy.file)}`)
  const note = windowsNote(entry, cli.platform)
  if (note) cli.out.err(note)
  await trustWritten(cli, root, layer.file, [{ name, entry: checked }], view)
  return 0
}

/** `--file`, else `-s`, else the project file — asked (or refused) when a monorepo offers more than one (pick-file.ts). */
async function targetLayer(
  cli: CliContext,
  name: string,
  project: string,
  opts: { scope?: WriteScope; file?: string },
): Promise<LayerFile> {
  if (opts.file && opts.scope) throw usage('pass --file or -s/--scope, not both')
  if (opts.file) return fileOption(cli, opts.file)
  if (opts.scope) return scopeLayer(project, opts.scope, cli.loc.dshHome)
  const candidates = addCandidates(loadProject(cli.dir, cli.loc))
  if (candidates.length <= 1) return scopeLayer(project, 'project', cli.loc.dshHome)
  return pickFile(cli, candidates, `more than one project file could hold "${name}"`, '-s project (the nearest)')
}
