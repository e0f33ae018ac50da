/**
 * `dsh-mcp import [--from <client|file>] [--dry-run] [-s scope]` (spec §5).
 *
 * Contract: reads the chosen source (or every client file present: see
 * importers/sources.ts), validates each entry with `checkEntry`, and plans
 * each name: `add`; `skip` (an identical entry is already in the target file,
 * or came from an earlier source); `conflict` (same name, different config —
 * reported, never overwritten); `invalid` (with the reason). The plan goes to
 * stdout — each row with the command line or URL it runs — notes after it.
 * Trust: only entries read from a file outside every repository that the
 * user owns are trusted (and only when the effective row equals them, see
 * target.ts `trustWritten`); entries from a repository's own files
 * (`.mcp.json`, `.cursor/`, `.vscode/`, `.gemini/` in the project) are
 * imported untrusted, and the plan says so; into the user file (which needs
 * no trust) they are `refused`. All additions land in one locked atomic write of
 * the target file; `--dry-run` writes nothing. Exit 1 when a source cannot be
 * read or an entry is invalid (the valid ones are still imported), else 0.
 *
 * @module
 */
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { checkEntry } from '../../config/entry.ts'
import { canonicalJson } from '../../config/fingerprint.ts'
import { SERVER_NAME_PATTERN } from '../../config/schema.ts'
import type { ConfigEditor } from '../../files/editor.ts'
import { projectRootOf } from '../../files/read.ts'
import { failure, usage } from '../errors.ts'
import { firstEntryError, NAME_RULE } from '../flags.ts'
import type { SourceResult } from '../importers/common.ts'
import { CLIENTS, type Client, clientFile, discover, readFrom } from '../importers/sources.ts'
import { targetOf } from '../present.ts'
import type { CliContext } from '../program.ts'
import { editTarget, label, scopeLayer, trustWritten, type Written, type WriteScope } from '../target.ts'
import { canonicalRoot } from '../../trust/store.ts'

type Action = 'add' | 'skip' | 'conflict' | 'invalid' | 'refused'

interface Step {
  action: Action
  name: string
  from: string
  /** The command line or URL the entry runs (or "-"). */
  target: string
  detail: string
  notes: string[]
}

/** An added entry, and whether its source file may be trusted (outside every repository, the user's own). */
interface Added extends Written {
  file: string
  own: boolean
}

export async function run(cli: CliContext, opts: { from?: string; dryRun?: boolean; scope?: WriteScope }): Promise<number> {
  const root = projectRootOf(cli.dir, cli.loc).root
  const show = (f: string) => label(cli, root, f)
  const results = sources(cli, root, opts.from)
  const scope = opts.scope ?? 'project'
  const layer = scopeLayer(root, scope, cli.loc.dshHome)
  const where = show(layer.file)
  let failed = false
  for (const r of results) {
    if (!r.error) continue
    failed = true
    cli.out.err(`dsh-mcp: ${show(r.file)}: ${r.error}`)
  }

  const addedEntries: Added[] = []
  const plan = (editor: ConfigEditor): Step[] => {
    const steps: Step[] = []
    addedEntries.length = 0
    const seen = new Map<string, { key: string; from: string }>()
    for (const r of results) {
      const from = show(r.file)
      for (const c of r.candidates) {
        const target = c.entry ? targetOf({ command: typeof c.entry.command === 'string' ? c.entry.command : null, args: Array.isArray(c.entry.args) ? c.entry.args.map(String) : [], url: typeof c.entry.url === 'string' ? c.entry.url : null }) : '-'
        const step = (action: Action, detail: string) => steps.push({ action, name: c.name, from, target, detail, notes: c.notes })
        if (!SERVER_NAME_PATTERN.test(c.name)) {
          step('invalid', `the name is not allowed: ${NAME_RULE}`)
          continue
        }
        if (!c.entry) {
          step('invalid', c.invalid ?? 'invalid entry')
          continue
        }
        const checked = checkEntry(c.entry)
        const error = firstEntryError(checked)
        if (error !== undefined || !checked.entry) {
          step('invalid', error ?? 'invalid entry')
          continue
        }
        const key = canonicalJson(checked.entry)
        const earlier = seen.get(c.name)
        if (earlier) {
          if (earlier.key === key) step('skip', `same as in ${earlier.from}`)
          else step('conflict', `also in ${earlier.from} with a different config (first one kept)`)
          continue
        }
        seen.set(c.name, { key, from })
        if (editor.has(c.name)) {
          const existing = checkEntry(editor.get(c.name), { allowPartial: scope === 'local' }).entry
          if (existing && canonicalJson(existing) === key) step('skip', `identical entry already in ${where}`)
          else step('conflict', `${where} already has a different "${c.name}" (not overwritten)`)
          continue
        }
        const own = ownSource(r.file, root)
        if (own && scope === 'user') {
          step('refused', `${own}: the user file needs no trust, so it takes only your own entries; import it into the project instead, review it, then trust it`)
          continue
        }
        editor.set(c.name, c.entry)
        addedEntries.push({ name: c.name, entry: checked.entry, file: r.file, own: own === undefined })
        step('add', `into ${where}${own ? ` (not trusted: ${own})` : ''}`)
      }
    }
    return steps
  }

  const steps = (await editTarget(cli, root, layer, (editor) => plan(editor), { dryRun: Boolean(opts.dryRun) })).value

  if (steps.length > 0) {
    cli.out.table(
      steps.map((s) => [s.action, s.name, s.from, s.target, s.detail]),
      ['ACTION', 'NAME', 'FROM', 'TARGET', 'DETAIL'],
    )
    for (const s of steps) for (const n of s.notes) cli.out.out(`note: ${s.name}: ${n}`)
  }
  const added = steps.filter((s) => s.action === 'add').map((s) => s.name)
  if (steps.some((s) => s.action === 'invalid')) failed = true
  const count = `${added.length} server${added.length === 1 ? '' : 's'}`
  if (opts.dryRun) cli.out.err(`Dry run: would import ${count} into ${where}; nothing written`)
  else {
    cli.out.err(`Imported ${count} into ${where}`)
    const untrusted = addedEntries.filter((a) => !a.own)
    if (untrusted.length) {
      cli.out.err(`not trusted (from a file inside a repository or not yours): ${untrusted.map((a) => a.name).join(', ')}; review each (dsh-mcp get <name>), then run: dsh-mcp trust <name>`)
    }
    await trustWritten(cli, root, layer.file, addedEntries.filter((a) => a.own))
  }
  return failed ? 1 : 0
}

/**
 * Why entries read from `file` must not be trusted by the import, or
 * undefined: it lies inside the project or inside any repository (an
 * ancestor directory holds `.git`, `.hg` or `.svn`), or another user owns it.
 */
function ownSource(file: string, root: string): string | undefined {
  const real = canonicalRoot(file)
  const rootReal = canonicalRoot(root)
  if (real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep)) return 'read from a file inside the project'
  for (let dir = path.dirname(real); ; dir = path.dirname(dir)) {
    if (['.git', '.hg', '.svn'].some((m) => existsSync(path.join(dir, m)))) return `read from a file inside the repository ${dir}`
    if (path.dirname(dir) === dir) break
  }
  const uid = process.getuid?.()
  try {
    if (uid !== undefined && statSync(real).uid !== uid) return 'read from a file another user owns'
  } catch {
    return 'read from a file that cannot be checked'
  }
  return undefined
}

function sources(cli: CliContext, root: string, from: string | undefined): SourceResult[] {
  if (from === undefined) {
    const found = discover(root, cli.loc.home, cli.env)
    if (found.length === 0) {
      throw failure(`nothing to import: none of ${CLIENTS.map((c) => label(cli, root, clientFile(c, root, cli.loc.home, cli.env))).join(', ')} exists`)
    }
    return found.map((s) => readFrom(s.kind, s.file))
  }
  if ((CLIENTS as readonly string[]).includes(from)) {
    const file = clientFile(from as Client, root, cli.loc.home, cli.env)
    if (!existsSync(file)) throw failure(`--from ${from}: ${label(cli, root, file)} does not exist`)
    return [readFrom(from as Client, file)]
  }
  const file = path.resolve(cli.dir, from)
  if (!existsSync(file)) {
    if (!/[\\/.]/.test(from)) throw usage(`--from: unknown source "${from}"; expected ${CLIENTS.join(', ')} or a file path`)
    throw failure(`--from: ${from} does not exist`)
  }
  return [readFrom(undefined, file)]
}
