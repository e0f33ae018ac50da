/**
 * `dsh-mcp export [--target claude|codex|gemini|vscode|cursor] [-o file | --write] [--include-local]`
 * (docs/guide/cli.md; `--format` is the older name of `--target`).
 *
 * Contract: the project's effective active servers (winning rows of the
 * committed project layers; user-layer servers are global and not exported)
 * in the client's format (export-targets.ts: Codex's `config.toml`, Gemini
 * CLI's `settings.json`); a disabled server is named in a note.
 * `--write` writes the client's own project-scope file (`.mcp.json`,
 * `.codex/config.toml`, `.gemini/settings.json`, `.vscode/mcp.json`,
 * `.cursor/mcp.json`) as `-o` would; into Codex's and Gemini's files, which
 * hold other settings, the servers are merged (other keys and servers kept). The local layer (`.dsh/mcp.local.yml`: personal
 * servers, overrides, secrets) is left out — its servers and overrides are
 * counted in a note — unless `--include-local`, which merges it as the host
 * does. Output goes to stdout, or atomically into `-o`.
 * Values are written as in the source, never expanded: `${VAR}` stays (as
 * `${env:VAR}` for Cursor and VS Code, which spell it so). Each field is
 * spelled as the field table says for the target (config/fields.ts
 * `export`); a written field it has no place for is dropped with a note on
 * stderr naming the keys. `-o` never targets the project's own dsh layer
 * files (`.dsh/mcp.yml`, `.dsh/mcp.json`, `.dsh/mcp.local.yml`); `.mcp.json`
 * (Claude Code's project file) may be written. No `***` is ever written into
 * a file:
 * - on stdout (a display) every written secret is `***` — env and header
 *   values other than `${VAR}` references, secret arguments, URL credentials
 *   and query values — and a note says so;
 * - `-o` into a file inside a repository (`.mcp.json`, `.vscode/mcp.json`)
 *   writes plain values as they are and every secret as a variable reference
 *   (`export-values.ts`), then prints the variables to set (names only);
 * - `-o` into a file outside every repository writes the real values.
 * Either file is written by the one atomic writer, mode 0600 when created,
 * never through a symbolic link (nor to a config file reached through one).
 *
 * @module
 */
import { lstatSync } from 'node:fs'
import path from 'node:path'
import { transportOf } from '../../config/entry.ts'
import { mergeLayers, projectLayerFiles } from '../../config/layers.ts'
import { displayArgs, displayUrl, MASK, onlyReferences } from '../../config/redact.ts'
import type { Entry } from '../../config/schema.ts'
import { FIELD_NAMES, type FieldName, fieldSpec } from '../../config/fields.ts'
import { loadProject } from '../../files/project.ts'
import { linkOutside, realPath } from '../../files/guard.ts'
import { readBoundedText } from '../../files/read.ts'
import { WriteError, writeFileSafely } from '../../files/write.ts'
import { MAX_CONFIG_BYTES } from '../../config/parse.ts'
import { failure, usage } from '../errors.ts'
import { documentText, serversKey, shapeFor, TARGET_FILES, type Target } from '../export-targets.ts'
import { referenceSecrets, repositoryHolding } from '../export-values.ts'
import type { CliContext } from '../program.ts'
import { label } from '../target.ts'

type Format = Target

/** `${VAR}` → `${env:VAR}`; `$$` → `$`. Reports a `${VAR:-default}` it cannot express. */
function editorVars(s: string, lossy: Set<string>): string {
  return s.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g,
    (m, name: string | undefined, dflt: string | undefined) => {
      if (m === '$$') return '$'
      if (dflt !== undefined) {
        lossy.add(name!)
        return m
      }
      return `\${env:${name}}`
    },
  )
}

/** `${secret:NAME}` → `${NAME}`: another client cannot read dsh-mcp's secret store (the names are collected). */
function secretsAsVars(s: string, names: Set<string>): string {
  return s.replace(/\$\$|\$\{secret:([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string | undefined) => {
    if (name === undefined) return m
    names.add(name)
    return `\${${name}}`
  })
}

function exportEntry(
  entry: Entry,
  format: Format,
  dropped: string[],
  lossy: Set<string>,
  secrets: Set<string>,
): Record<string, unknown> {
  const editor = format === 'cursor' || format === 'vscode'
  const vars = editor ? (s: string) => editorVars(s, lossy) : (s: string) => s.replace(/\$\$/g, '$')
  const v = (s: string) => vars(secretsAsVars(s, secrets))
  const map = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, x]) => [k, v(x)]))
  /** How a value is written (strings translated to the target's variable syntax); the rest as written. */
  const convert = (key: FieldName, value: unknown, as: string): unknown => {
    if (key === 'cwd') return format === 'vscode' ? path.posix.join(`$\{workspaceFolder}`, v(value as string)) : value
    // A spelling the table also imports with a scale (`tool_timeout_sec`) is written in that unit.
    const scale = fieldSpec(key).import?.[format as 'codex' | 'gemini']?.find((i) => i.key === as)?.scale
    if (scale !== undefined && typeof value === 'number') return value / scale
    if (typeof value === 'string' && fieldSpec(key).expand) return v(value)
    if (key === 'args') return (value as string[]).map(v)
    if (key === 'env' || key === 'headers') return map(value as Record<string, string>)
    return value
  }
  const out: Record<string, unknown> = {}
  const t = transportOf(entry)
  if (format !== 'cursor') out.type = t === 'sse' ? 'sse' : t === 'stdio' ? 'stdio' : 'http'
  // The field table spells each field per target (fields.ts `export`); a written field with no spelling is named.
  for (const key of FIELD_NAMES) {
    const value = entry[key]
    const spelling = fieldSpec(key).export
    if (value === undefined || spelling === 'implicit') continue
    const as = spelling[format]
    if (as === undefined) dropped.push(key)
    else out[as] = convert(key, value, as)
  }
  return out
}

/** The servers with every written secret as `***`: env and header values (unless only \${VAR} references), secret arguments, URL credentials and query values. */
function maskSecrets(servers: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const mask = (v: string) => (onlyReferences(v.replace(/\$\{env:/g, '${')) ? v : MASK)
  const out: Record<string, Record<string, unknown>> = {}
  for (const [name, e] of Object.entries(servers)) {
    const m: Record<string, unknown> = { ...e }
    for (const k of ['env', 'headers', 'http_headers'] as const)
      if (e[k]) m[k] = Object.fromEntries(Object.entries(e[k] as Record<string, string>).map(([x, v]) => [x, mask(v)]))
    if (Array.isArray(e.args)) m.args = displayArgs(e.args as string[])
    for (const k of ['url', 'httpUrl'] as const) if (typeof e[k] === 'string') m[k] = displayUrl(e[k] as string)
    out[name] = m
  }
  return out
}

export async function run(
  cli: CliContext,
  opts: { format?: Format; target?: Format; output?: string; write?: boolean; includeLocal?: boolean },
): Promise<number> {
  if (opts.format !== undefined && opts.target !== undefined && opts.format !== opts.target)
    throw usage(`--format ${opts.format} and --target ${opts.target} disagree; --format is the older name of --target`)
  if (opts.write && opts.output !== undefined) throw usage("--write writes the client's own file; give -o or --write")
  const format = opts.target ?? opts.format ?? 'claude'
  const view = loadProject(cli.dir, cli.loc)
  const root = view.root.root
  const servers: Record<string, unknown> = {}
  const lossy = new Set<string>()
  const secrets = new Set<string>()
  const localLayers = view.layers.filter((l) => l.layer.scope === 'local')
  const rows = opts.includeLocal ? view.rows : mergeLayers(view.layers.filter((l) => l.layer.scope !== 'local'))
  const leftOut = opts.includeLocal ? 0 : localLayers.reduce((n, l) => n + l.parsed.entries.length, 0)
  if (leftOut > 0) {
    cli.out.err(
      `note: left out ${leftOut} server${leftOut === 1 ? '' : 's'} and override${leftOut === 1 ? '' : 's'} of ${localLayers.map((l) => label(cli, root, l.layer.file)).join(', ')} (personal, not committed); pass --include-local to export them`,
    )
  }
  const disabled: string[] = []
  for (const row of rows) {
    if (row.state === 'disabled' && row.scope !== 'user') disabled.push(row.name)
    if (row.state !== 'active' || row.scope === 'user' || !row.entry) continue
    const dropped: string[] = []
    servers[row.name] = exportEntry(row.entry, format, dropped, lossy, secrets)
    if (dropped.length)
      cli.out.err(
        `note: ${row.name}: ${format} has no place for ${dropped.map((k) => `"${k}"`).join(', ')} (not exported)`,
      )
  }
  if (disabled.length)
    cli.out.err(
      `note: left out ${disabled.join(', ')}: disabled (enabled: false); enable ${disabled.length === 1 ? 'it' : 'them'} to export`,
    )
  if (lossy.size)
    cli.out.err(`note: ${format} has no \${VAR:-default} form; kept as written for ${[...lossy].join(', ')}`)
  if (secrets.size)
    cli.out.err(
      `note: ${format} cannot read dsh-mcp's secret store: \${secret:NAME} is exported as \${NAME}; set ${[...secrets].join(', ')} in the environment that starts it`,
    )
  if (Object.keys(servers).length === 0) cli.out.err('note: this project has no active servers to export')
  const built = servers as Record<string, Record<string, unknown>>
  const shapeNotes: string[] = []
  const shaped = (s: Record<string, Record<string, unknown>>) => shapeFor(format, s, shapeNotes)
  const say = () => {
    for (const n of new Set(shapeNotes)) cli.out.err(`note: ${n}`)
  }
  const output = opts.write ? path.join(root, TARGET_FILES[format]) : opts.output
  if (output === undefined) {
    // stdout is a display (a terminal, a CI log): written secrets are masked there; -o writes them.
    const plain = shaped(built)
    say()
    const masked = maskSecrets(plain)
    const text = (s: Record<string, Record<string, unknown>>) => (documentText(format, s) as { text: string }).text
    cli.out.out(text(masked).trimEnd())
    if (JSON.stringify(masked) !== JSON.stringify(plain))
      cli.out.err('note: secret values written in the config are shown as *** on stdout; use -o <file> to export them')
    return 0
  }
  const file = path.resolve(cli.dir, output)
  // Judged by real paths too: a link (or a linked directory) to a config file is that file.
  const real = path.join(realPath(path.dirname(file)), path.basename(file))
  if (
    projectLayerFiles(root, { legacyMcpJson: false }).some(
      (l) => l.file === file || realPath(l.file) === real || realPath(l.file) === realPath(file),
    )
  ) {
    throw failure(
      `-o ${label(cli, root, file)}: that is one of this project's own dsh config files; dsh-mcp export never writes it`,
    )
  }
  // The export holds secret values: never written through a link (a committed `.vscode/mcp.json` pointing elsewhere), and private.
  const out = linkOutside(file, path.dirname(file)) ?? linkOutside(file, root)
  let isLink = false
  try {
    isLink = lstatSync(file).isSymbolicLink()
  } catch {
    // absent: not a link
  }
  if (isLink || out) {
    const link = out?.link ?? file
    throw failure(
      `-o ${label(cli, root, file)}: ${label(cli, root, link)} is a symbolic link; dsh-mcp export never writes through one (remove it, or name the file it points to)`,
    )
  }
  // Inside a repository a file may be committed: secrets become references there, plain values stay.
  const repository = repositoryHolding(file)
  const written = repository
    ? referenceSecrets({ mcpServers: built }, format)
    : { doc: { mcpServers: built }, vars: [] }
  const final = shaped(written.doc.mcpServers as Record<string, Record<string, unknown>>)
  say()
  const existing = readBoundedText(file, MAX_CONFIG_BYTES)
  const doc = documentText(format, final, 'text' in existing ? existing.text : undefined)
  if ('error' in doc)
    throw failure(`-o ${label(cli, root, file)}: ${doc.error}; nothing written (fix or move it, then export again)`)
  try {
    await writeFileSafely(file, doc.text, { createMode: 0o600 })
  } catch (err) {
    if (err instanceof WriteError) throw failure(err.message)
    throw err
  }
  const n = Object.keys(final).length
  cli.out.err(
    `Exported ${n} server${n === 1 ? '' : 's'} to ${label(cli, root, file)}${doc.kept ? ` (kept its ${doc.kept} other server${doc.kept === 1 ? '' : 's'} under ${serversKey(format)})` : ''}`,
  )
  if (written.vars.length > 0)
    cli.out.err(
      `note: ${label(cli, root, file)} is inside a repository, so its secret values are written as variable references, never as values; set ${written.vars.join(', ')} where the client runs`,
    )
  else if (!repository) cli.out.err(`note: outside every repository: the real values are written (mode 0600)`)
  return 0
}
