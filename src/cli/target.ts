/**
 * The write side shared by every editing command: which file a scope names,
 * how a file is edited (locked, atomic, never over a file that does not
 * parse), the local file's `.gitignore`, short labels for messages.
 *
 * Contract: `editTarget` runs `change` on a `ConfigEditor` of the file's
 * current text under the file's lock and writes the result atomically; when
 * the file does not parse, is a directory or cannot be read, it throws a
 * one-line `failure` (exit 1) and writes nothing. A created user file gets
 * mode 0600 (its directory 0700); a created local file 0600. A project or
 * local file (and `.gitignore`) reached through a symbolic link that leaves
 * the project is refused, naming the link and its target; the file itself
 * (and the local file's `.gitignore`) is refused as a link wherever it
 * points, so an edit never lands in another file of the checkout. Before the
 * local file is written, `.dsh/.gitignore` lists `mcp.local.yml`, and a
 * local file git tracks (a `.gitignore` line cannot untrack it) or does not
 * ignore (a `!` rule) is refused. A written
 * friendly file starts with `# yaml-language-server: $schema=mcp.schema.json`
 * and gets the format's JSON Schema next to it (`.dsh/mcp.schema.json`, or
 * `$DSH_HOME/mcp.schema.json`), refreshed when it differs, so the line
 * resolves for everyone who clones the repository, whatever their install.
 * `.mcp.json` is never a target. Trusting what was just written is
 * `trust-written.ts`.
 *
 * @module
 */
import path from 'node:path'
import { type LayerFile, projectLayerFiles, userLayerFile } from '../config/layers.ts'
import { shellWord } from '../trust/command.ts'
import { gitIgnores, gitTracks } from '../files/git-tracked.ts'
import { type ConfigEditor, createEditor, editProblem } from '../files/editor.ts'
import { linkOutside, linkTarget } from '../files/guard.ts'
import { readForEdit, refuseLockPath, updateFile, WriteError } from '../files/write.ts'
import { failure } from './errors.ts'
import { displayPath } from './present.ts'
import type { CliContext } from './program.ts'

export type WriteScope = 'project' | 'local' | 'user'

/** The schema file written next to a friendly layer file (the `$schema` line names it). */
export const SCHEMA_FILE = 'mcp.schema.json'

/** The file a write scope names (project: `.dsh/mcp.yml`). */
export function scopeLayer(root: string, scope: WriteScope, dshHome: string): LayerFile {
  return scopeLayers(root, scope, dshHome)[0]!
}

/** All writable layer files of a scope (project: `.dsh/mcp.yml`, then `.dsh/mcp.json`). */
export function scopeLayers(root: string, scope: WriteScope, dshHome: string): LayerFile[] {
  if (scope === 'user') return [userLayerFile(dshHome)]
  const files = projectLayerFiles(root, { legacyMcpJson: false })
  return scope === 'local' ? [files[0]!] : [files[1]!, files[2]!]
}

/**
 * A short label: relative to the working directory when it is inside the file's project directory (in a
 * package of a monorepo, a parent's file reads `../../.dsh/mcp.yml`), else relative to the project root,
 * `~/…` under home, else absolute.
 */
export function label(cli: CliContext, root: string, file: string): string {
  if (file !== userLayerFile(cli.loc.dshHome).file) {
    const dir = path.basename(path.dirname(file)) === '.dsh' ? path.dirname(path.dirname(file)) : path.dirname(file)
    const inside = path.relative(dir, cli.cwd)
    if (!inside.startsWith('..') && !path.isAbsolute(inside)) return path.relative(cli.cwd, file)
  }
  const rel = displayPath(root)(file)
  if (rel !== file) return rel
  const h = displayPath(cli.loc.home)(file)
  return h !== file ? `~${path.sep}${h}` : file
}

function header(layer: LayerFile): string | undefined {
  return layer.format === 'friendly' ? `# yaml-language-server: $schema=${SCHEMA_FILE}` : undefined
}

/**
 * `<dir>/mcp.schema.json` holds the current JSON Schema (written only when it
 * differs). `within` (the project root; none for the user file): a committed
 * link there that leaves the project is never written through.
 */
async function ensureSchemaFile(dir: string, secret: boolean, within: string | undefined): Promise<void> {
  const { friendlyJsonSchema } = await import('../config/json-schema.ts')
  const text = `${JSON.stringify(friendlyJsonSchema(), null, 2)}\n`
  await updateFile(path.join(dir, SCHEMA_FILE), (current) => (current === text ? undefined : text), {
    ...(secret ? { createMode: 0o600 } : {}),
    ...(within === undefined ? {} : { within }),
  })
}

export interface EditOutcome<T> {
  value: T
  changed: boolean
  created: boolean
}

/**
 * Edit `layer.file`: `change` gets an editor over the current text and
 * returns a value; the file is written when the editor's text changed.
 * With `dryRun`, the file is read and checked the same way and `change`
 * runs, but nothing is locked or written (no `.gitignore` either);
 * `changed` and `created` then say what a write would have done.
 */
export async function editTarget<T>(
  cli: CliContext,
  root: string,
  layer: LayerFile,
  change: (editor: ConfigEditor, exists: boolean) => T,
  opts: { dryRun?: boolean } = {},
): Promise<EditOutcome<T>> {
  if (layer.scope === 'legacy')
    throw failure(`${label(cli, root, layer.file)} is Claude Code's file; dsh-mcp never writes it`)
  const show = (f: string) => label(cli, root, f)
  if (layer.scope !== 'user') {
    // Before anything is read (a dry run too): a link out of the project is never read or written through.
    for (const f of layer.scope === 'local'
      ? [layer.file, path.join(path.dirname(layer.file), '.gitignore')]
      : [layer.file]) {
      const out = linkOutside(f, root)
      if (out)
        throw failure(
          `refusing to write ${show(f)}: ${out.link} is a symbolic link to ${out.target}, outside the project; dsh-mcp never writes through it (replace the link with a regular file or directory)`,
        )
      // A link in the checkout, even one that stays in it, names another file: the write would land in that one
      // (`.dsh/mcp.yml` → a CI workflow; the local file's secrets → a committed file), and git reads no `.gitignore`
      // that is a link.
      const target = linkTarget(f)
      if (target !== undefined) {
        const why =
          layer.scope === 'local'
            ? 'the local file holds secrets and must be a regular file git ignores'
            : 'the edit would land in that file, not in the one named'
        throw failure(
          `refusing to write ${show(f)}: it is a symbolic link (to ${target}); ${why}, so dsh-mcp never writes it through a link (remove the link)`,
        )
      }
    }
    if (layer.scope === 'local' && !opts.dryRun) await secureLocalFile(cli, root, layer.file)
  }
  let value: T | undefined
  const edit = (current: string | undefined): string | undefined => {
    if (current !== undefined) {
      const problem = editProblem(current, layer.file, layer.format, show)
      if (problem) throw failure(problem)
    }
    const h = header(layer)
    const editor = createEditor(current, layer.format, h ? { header: h } : {})
    value = change(editor, current !== undefined)
    const next = editor.text()
    return current === undefined && editor.names().length === 0 ? undefined : next
  }
  const secret = layer.scope === 'user' || layer.scope === 'local'
  let result: Awaited<ReturnType<typeof updateFile>>
  try {
    if (opts.dryRun) {
      const current = readForEdit(layer.file)
      const next = edit(current)
      return {
        value: value as T,
        changed: next !== undefined && next !== current,
        created: current === undefined && next !== undefined,
      }
    }
    result = await updateFile(layer.file, edit, {
      ...(secret ? { createMode: 0o600 } : {}),
      ...(layer.scope === 'user' ? { dirMode: 0o700 } : { within: root }),
    })
  } catch (err) {
    throw asFailure(err, show)
  }
  if (result.changed && layer.format === 'friendly') {
    try {
      await ensureSchemaFile(
        path.dirname(layer.file),
        layer.scope === 'user',
        layer.scope === 'user' ? undefined : root,
      )
    } catch (err) {
      cli.out.err(
        `dsh-mcp: warning: could not write ${show(path.join(path.dirname(layer.file), SCHEMA_FILE))} (${(err as Error).message}); editors will not find the schema`,
      )
    }
  }
  return { value: value as T, changed: result.changed, created: result.created }
}

/** A `WriteError` as the one-line failure the CLI prints (its file shown as `show` labels it); anything else as it is. */
function asFailure(
  err: unknown,
  show: (file: string) => string,
  wrap: (line: string) => string = (line) => line,
): unknown {
  return err instanceof WriteError ? failure(wrap(`${show(err.file)}${err.message.slice(err.file.length)}`)) : err
}

/**
 * Before the local file gets a secret: git must not track it (a committed one stays tracked whatever
 * `.gitignore` says), `.dsh/.gitignore` must list it, and git must then ignore it (a later `!` rule can
 * un-ignore it). Outside a repository (or without git) only the `.gitignore` line is made.
 */
async function secureLocalFile(cli: CliContext, root: string, file: string): Promise<void> {
  const show = (f: string) => label(cli, root, f)
  const rel = shellWord(path.relative(root, file))
  try {
    // A lock that cannot be one refuses the write anyway: before anything (the `.gitignore`) is created.
    refuseLockPath(file)
  } catch (err) {
    throw asFailure(err, show)
  }
  const tracked = gitTracks(file, cli.env)
  if (tracked === true) {
    throw failure(
      `refusing to write ${show(file)}: git tracks it, so the secrets it holds would be committed; run git rm --cached ${rel} (your copy stays), then try again`,
    )
  }
  try {
    await ensureLocalGitignore(path.dirname(file), root)
  } catch (err) {
    throw asFailure(
      err,
      show,
      (line) => `refusing to write ${show(file)}: ${line}, so it cannot list the local file (which holds secrets)`,
    )
  }
  const ignored = gitIgnores(file, cli.env)
  if (ignored === false) {
    throw failure(
      `refusing to write ${show(file)}: git does not ignore it, so the secrets it holds could be committed (a .gitignore rule un-ignores it: git check-ignore -v --no-index ${rel} names it); remove that rule, then try again`,
    )
  }
  // Inside a repository (git answered about tracking) yet no answer about ignoring: not written on a guess.
  if (ignored === undefined && tracked === false) {
    throw failure(
      `refusing to write ${show(file)}: git cannot tell whether it ignores it (git check-ignore -v --no-index ${rel}), so the secrets it holds could be committed`,
    )
  }
}

/** `.dsh/.gitignore` lists `mcp.local.yml` (created, or appended to). */
async function ensureLocalGitignore(dshDir: string, root: string): Promise<void> {
  const file = path.join(dshDir, '.gitignore')
  await updateFile(
    file,
    (current) => {
      if (current === undefined) return 'mcp.local.yml\n'
      const listed = current
        .split(/\r?\n/)
        .some((l) => ['mcp.local.yml', '/mcp.local.yml', '*.local.yml', '/*.local.yml'].includes(l.trim()))
      if (listed) return undefined
      const eol = current.includes('\r\n') ? '\r\n' : '\n'
      return current + (current === '' || current.endsWith('\n') ? '' : eol) + 'mcp.local.yml' + eol
    },
    { within: root },
  )
}
