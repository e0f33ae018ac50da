/**
 * `dsh-mcp import [--from <client|file>] [--dry-run] [-s scope]` (docs/guide/cli.md).
 *
 * Contract: reads the chosen source (or every client file present: see
 * importers/sources.ts — then, unless `--yes` or `--dry-run`, it lists what
 * it found per source and scope and asks on a terminal, or exits 2 with a
 * one-line hint: importers/ask.ts); each source's servers go to the layer of the scope
 * the other client gave them (a given file: project) unless `-s` names one.
 * It validates each entry with `checkEntry`, and plans, per target layer,
 * each name: `add`; `skip` (an identical entry is already in the target file,
 * or came from an earlier source); `conflict` (same name, different config —
 * reported, never overwritten); `invalid` (with the reason). The plan goes to
 * stdout — each row with the command line or URL it runs — notes after it.
 * Trust: only entries read from a file outside every repository that the
 * user owns are trusted (and only when the effective row equals them, see
 * trust-written.ts `trustWritten`); entries from a repository's own files
 * (`.mcp.json`, `.cursor/`, `.vscode/`, `.gemini/` in the project) are
 * imported untrusted, and the plan says so; into the user file (which needs
 * no trust) they are `refused`. All additions land in one locked atomic write of
 * each target file; `--dry-run` writes nothing. Into the committed project
 * file, a literal env/header/secret-flag value is never written: it becomes a
 * `${secret:NAME}` reference and the value goes to the user's secret store for
 * this project (importers/secrets.ts; a name already set, or used for another
 * value, is prefixed with the server's); a warning says so and which backend
 * kept it, never printing the value. Exit 1 when a source cannot be
 * read or an entry is invalid (the valid ones are still imported), else 0.
 *
 * @module
 */
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { checkEntry } from '../../config/entry.ts'
import { canonicalJson } from '../../config/fingerprint.ts'
import { displayArgs, displayUrl } from '../../config/redact.ts'
import { SERVER_NAME_PATTERN, SERVER_NAME_RULE } from '../../config/server-name.ts'
import type { ConfigEditor } from '../../files/editor.ts'
import { projectRootOf } from '../../files/read.ts'
import { failure, usage } from '../errors.ts'
import { firstEntryError } from '../flags.ts'
import type { SourceResult } from '../importers/common.ts'
import { type Moved, moveSecrets, movedNotes } from '../importers/secrets.ts'
import { openSecretStore, scopeKey } from '../../secrets/store.ts'
import { whereStored } from '../secrets.ts'
import { CLIENTS, type Client, clientSources, discover, givenSources, readFrom } from '../importers/sources.ts'
import { targetOf } from '../present-text.ts'
import type { CliContext } from '../program.ts'
import { editTarget, label, scopeLayer, type WriteScope } from '../target.ts'
import { trustWritten, type Written } from '../trust-written.ts'
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

export async function run(
  cli: CliContext,
  opts: { from?: string; dryRun?: boolean; scope?: WriteScope; yes?: boolean },
): Promise<number> {
  const root = projectRootOf(cli.dir, cli.loc).root
  const show = (f: string) => label(cli, root, f)
  const results = sources(cli, root, opts.from)
  if (opts.from === undefined && !opts.yes && !opts.dryRun) {
    const { askDiscovered } = await import('../importers/ask.ts')
    const stop = await askDiscovered(cli, results, show, opts.scope)
    if (stop !== undefined) return stop
  }
  let failed = false
  for (const r of results) {
    if (!r.error) continue
    failed = true
    cli.out.err(`dsh-mcp: ${show(r.file)}: ${r.error}`)
  }
  // Each source keeps its own scope (Claude Code's user and local servers, Codex's user file…) unless -s names one.
  const groups = new Map<WriteScope, SourceResult[]>()
  for (const r of results) {
    const scope = opts.scope ?? r.scope
    groups.set(scope, [...(groups.get(scope) ?? []), r])
  }
  if (groups.size === 0) groups.set(opts.scope ?? 'project', [])

  const steps: Step[] = []
  const summary: string[] = []
  /** Per written project/local file: what it took, trusted after the summary line. */
  const trusts: { file: string; added: Added[] }[] = []
  for (const scope of (['project', 'local', 'user'] as const).filter((s) => groups.has(s))) {
    const group = groups.get(scope)!
    const layer = scopeLayer(root, scope, cli.loc.dshHome)
    const where = show(layer.file)
    const local = scope === 'project' ? scopeLayer(root, 'local', cli.loc.dshHome) : undefined
    const secrets = new Map<string, Moved>()
    // A secret name is taken when this project already has it set, or this import gave it another value.
    const assigned = new Map<string, string>()
    const stored = local ? new Set(storedSecretNames(cli, root)) : new Set<string>()
    const taken = (n: string, v: string) => stored.has(n) || (assigned.has(n) && assigned.get(n) !== v)
    const addedEntries: Added[] = []
    const plan = (editor: ConfigEditor): Step[] => {
      const steps: Step[] = []
      addedEntries.length = 0
      assigned.clear()
      const seen = new Map<string, { key: string; from: string }>()
      for (const r of group) {
        const from = r.part ? `${show(r.file)} (${r.part})` : show(r.file)
        for (const c of r.candidates) {
          const e = c.entry
          // Shown in display form: a secret flag value, URL credentials and query values print as ***.
          const target = e
            ? targetOf({
                command: typeof e.command === 'string' ? e.command : null,
                args: displayArgs(Array.isArray(e.args) ? e.args.map(String) : []),
                url: typeof e.url === 'string' ? displayUrl(e.url) : null,
              })
            : '-'
          const step = (action: Action, detail: string) =>
            steps.push({ action, name: c.name, from, target, detail, notes: c.notes })
          if (!SERVER_NAME_PATTERN.test(c.name)) {
            step('invalid', `the name is not allowed: ${SERVER_NAME_RULE}`)
            continue
          }
          if (!c.entry) {
            step('invalid', c.invalid ?? 'invalid entry')
            continue
          }
          const moved = local ? moveSecrets(c.name, c.entry, taken) : undefined
          const entry = moved?.entry ?? c.entry
          const checked = checkEntry(entry)
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
            step(
              'refused',
              `${own}: the user file needs no trust, so it takes only your own entries; import it into the project instead, review it, then trust it`,
            )
            continue
          }
          editor.set(c.name, entry)
          addedEntries.push({ name: c.name, entry: checked.entry, file: r.file, own: own === undefined })
          step('add', `into ${where}${own ? ` (not trusted: ${own})` : ''}`)
          if (moved && Object.keys(moved.secrets).length) {
            secrets.set(c.name, moved)
            for (const [n, v] of Object.entries(moved.secrets)) assigned.set(n, v)
            steps[steps.length - 1]!.notes = [...c.notes, ...movedNotes(moved, Boolean(opts.dryRun))]
          }
        }
      }
      return steps
    }

    const planned = (await editTarget(cli, root, layer, (editor) => plan(editor), { dryRun: Boolean(opts.dryRun) }))
      .value
    if (local && !opts.dryRun) await storeSecrets(cli, root, secrets)
    steps.push(...planned)
    const added = planned.filter((s) => s.action === 'add').map((s) => s.name)
    summary.push(`${added.length} server${added.length === 1 ? '' : 's'} into ${where}`)
    if (!opts.dryRun && scope !== 'user') trusts.push({ file: layer.file, added: addedEntries })
  }

  if (steps.length > 0) {
    cli.out.table(
      steps.map((s) => [s.action, s.name, s.from, s.target, s.detail]),
      ['ACTION', 'NAME', 'FROM', 'TARGET', 'DETAIL'],
    )
    for (const s of steps) for (const n of s.notes) cli.out.out(`note: ${s.name}: ${n}`)
  }
  if (failed && steps.length === 0) return 1
  if (steps.some((s) => s.action === 'invalid')) failed = true
  if (opts.dryRun) cli.out.err(`Dry run: would import ${summary.join(', ')}; nothing written`)
  else {
    cli.out.err(`Imported ${summary.join(', ')}`)
    const untrusted = trusts.flatMap((t) => t.added.filter((a) => !a.own))
    if (untrusted.length) {
      cli.out.err(
        `not trusted (from a file inside a repository or not yours): ${untrusted.map((a) => a.name).join(', ')}; review each (dsh-mcp get <name>), then run: dsh-mcp trust <name>`,
      )
    }
    for (const t of trusts)
      await trustWritten(
        cli,
        root,
        t.file,
        t.added.filter((a) => a.own),
      )
  }
  return failed ? 1 : 0
}

/**
 * Why entries read from `file` must not be trusted by the import, or
 * undefined: it lies inside the project (as named, or once links are
 * resolved) or inside any repository (an
 * ancestor directory holds `.git`, `.hg` or `.svn`), or another user owns it.
 */
function ownSource(file: string, root: string): string | undefined {
  // As named first: a link committed in the project (`.cursor` → ~/.cursor) is the project's, wherever it points.
  const named = path.resolve(file)
  const rootNamed = path.resolve(root)
  if (named === rootNamed || named.startsWith(rootNamed + path.sep)) return 'read from a file inside the project'
  const real = canonicalRoot(file)
  const rootReal = canonicalRoot(root)
  if (real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep))
    return 'read from a file inside the project'
  for (let dir = path.dirname(real); ; dir = path.dirname(dir)) {
    if (['.git', '.hg', '.svn'].some((m) => existsSync(path.join(dir, m))))
      return `read from a file inside the repository ${dir}`
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
  const w = { root, home: cli.loc.home, env: cli.env, platform: cli.platform }
  if (from === undefined) {
    const found = discover(w)
    if (found.length === 0) {
      const files = [...new Set(CLIENTS.flatMap((c) => clientSources(c, w).map((s) => label(cli, root, s.file))))]
      throw failure(`nothing to import: none of ${files.join(', ')} exists`)
    }
    return found.map((s) => readFrom(s, root))
  }
  if ((CLIENTS as readonly string[]).includes(from)) {
    const specs = clientSources(from as Client, w)
    const found = specs.filter((s) => existsSync(s.file))
    const files = [...new Set(specs.map((s) => label(cli, root, s.file)))]
    if (found.length === 0)
      throw failure(
        `--from ${from}: ${files.length === 1 ? `${files[0]} does not exist` : `none of ${files.join(', ')} exists`}`,
      )
    return found.map((s) => readFrom(s, root))
  }
  const file = path.resolve(cli.dir, from)
  if (!existsSync(file)) {
    if (!/[\\/.]/.test(from))
      throw usage(`--from: unknown source "${from}"; expected ${CLIENTS.join(', ')} or a file path`)
    throw failure(`--from: ${from} does not exist`)
  }
  // Claude Code's own ~/.claude.json given as a path reads as --from claude reads it: user and local servers.
  const given = givenSources(file)
  return given ? given.map((s) => readFrom(s, root)) : [readFrom({ file }, root)]
}

/** Names of the secrets already set for this project (the index only). */
function storedSecretNames(cli: CliContext, root: string): string[] {
  const key = scopeKey(root)
  return openSecretStore({ dshHome: cli.loc.dshHome })
    .list()
    .filter((r) => r.scope === key)
    .map((r) => r.name)
}

/** The moved literal values, into the secret store of this project; says where each went. */
async function storeSecrets(cli: CliContext, root: string, moved: ReadonlyMap<string, Moved>): Promise<void> {
  const store = openSecretStore({ dshHome: cli.loc.dshHome, env: cli.env })
  for (const m of moved.values())
    for (const [name, value] of Object.entries(m.secrets)) {
      try {
        const r = await store.set(scopeKey(root), name, value)
        cli.out.err(`secret ${name} stored in ${whereStored(r.backend, cli)}`)
      } catch (err) {
        throw failure(
          `secret ${name}: ${(err as Error).message}; the entry reads \${secret:${name}}: set it with dsh-mcp secret set ${name}`,
        )
      }
    }
}
