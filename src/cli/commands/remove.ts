/**
 * `dsh-mcp remove <name...> [-s scope]` (docs/guide/cli.md).
 *
 * Contract: several names are removed one after the other, in the order
 * given (a name given twice counts once), each on its own: a name that is
 * missing or cannot be removed is reported on its own stderr line and the
 * others are still removed; exit 1 when any of them failed. For each name:
 * without `-s`, removes the name from the strongest layer file that
 * defines it (a partial local override counts); with `-s`, from that scope's
 * file (project: `.dsh/mcp.yml`, else `.dsh/mcp.json`). `.mcp.json` is never
 * written: when the strongest definition is there, exit 1 saying so. With
 * `--file <path>`, from that layer file. In a package of a monorepo, a name
 * that files of more than one directory define (the package's, a parent's)
 * is asked about on a terminal, else a one-line failure names the files
 * (cli/pick-file.ts). Prints
 * which file changed and which row now takes over, if any. Nothing is
 * written when a stronger file does not parse.
 *
 * @module
 */
import { type LayerFile, layerDirOf } from '../../config/layers.ts'
import { CliError, failure, usage } from '../errors.ts'
import { definingLayers, inScope, load, notFound, requireReadable, winnerOf } from '../locate.ts'
import { fileOption, pickFile, removeCandidates } from '../pick-file.ts'
import type { CliContext } from '../program.ts'
import { editTarget, label, type WriteScope } from '../target.ts'

export async function run(cli: CliContext, names: string[], opts: RemoveOptions): Promise<number> {
  if (opts.file && opts.scope) throw usage('pass --file or -s/--scope, not both')
  let code = 0
  for (const name of new Set(names)) {
    try {
      await removeOne(cli, name, opts)
    } catch (err) {
      if (!(err instanceof CliError)) throw err
      cli.out.err(`dsh-mcp: ${err.message}`)
      for (const d of err.details) cli.out.err(`  ${d}`)
      code = Math.max(code, err.exitCode)
    }
  }
  return code
}

interface RemoveOptions {
  scope?: WriteScope
  /** `--file <path>`: remove from that layer file (cli/pick-file.ts). */
  file?: string
}

async function removeOne(cli: CliContext, name: string, opts: RemoveOptions): Promise<void> {
  const view = load(cli)
  let root = view.root.root
  const show = (f: string) => label(cli, root, f)
  let target: LayerFile
  if (opts.file) {
    target = fileOption(cli, opts.file)
    const own = view.layers.find((l) => l.layer.file === target.file)
    requireReadable(cli, { ...view, layers: own ? [own] : [] })
  } else if (opts.scope) {
    const { files, hit } = inScope(cli, view, name, opts.scope)
    if (!hit) throw notFound(view, name, files.map((f) => show(f.file)).join(' or '))
    target = hit.layer
  } else {
    const hit = definingLayers(view, name)[0]
    requireReadable(cli, view, hit?.layer.rank)
    if (!hit) throw notFound(view, name)
    if (hit.layer.scope === 'legacy') {
      throw failure(
        `"${name}" is defined in ${show(hit.layer.file)}, Claude Code's file, which dsh-mcp never writes; edit it by hand, or run "dsh-mcp disable ${name}" to turn it off for you`,
      )
    }
    const candidates = removeCandidates(view, name)
    target =
      candidates.length > 1
        ? await pickFile(
            cli,
            candidates,
            `"${name}" is defined in more than one project directory`,
            '-s project|local (the nearest)',
          )
        : hit.layer
  }
  // A parent directory's file is edited as that directory's; every file is named relative to the working directory.
  if (target.scope !== 'user') root = layerDirOf(target)
  const outcome = await editTarget(cli, root, target, (editor) => editor.delete(name))
  if (!outcome.value) throw notFound(view, name, show(target.file))
  const after = winnerOf(load(cli), name)
  if (after?.diagnostics.some((d) => d.code === 'override-orphan')) {
    cli.out.err(`Removed "${name}" from ${show(target.file)}`)
    cli.out.err(
      `note: ${show(after.file)} still holds an override for "${name}" that now overrides nothing; "dsh-mcp remove ${name} -s local" removes it`,
    )
    return
  }
  const next = after
    ? `; now using ${show(after.file)}${after.state === 'invalid' ? ' (invalid: see dsh-mcp validate)' : after.state === 'disabled' ? ' (disabled)' : ''}`
    : ''
  cli.out.err(`Removed "${name}" from ${show(target.file)}${next}`)
}
