/**
 * Rows → what the CLI shows: the one view of a server that `list`, `get` and
 * `trust` print, as table cells or as stable JSON.
 *
 * Contract:
 * - This is the one place that decides what of an entry may be printed:
 *   `ServerView` is built field by field, never by spreading an entry, and
 *   carries env and header KEY names only — their values never leave here.
 *   `args` and `url` are their display forms (`config/redact-shapes.ts`):
 *   secret flag values, URL userinfo and every query value are `***`.
 * - Every row carries its one verdict (plan/verdict.ts `verdictOf`, under
 *   the CLI's environment) as `verdict` (`VerdictView`: tag, why, reason
 *   and the structured fields). `state` is that verdict's word
 *   (plan/states.ts `listState`, the one mapping): `active` (runs),
 *   `untrusted` (needs-trust: any repository contribution — a user row with
 *   a local override included — without a matching record, or a trust
 *   store that cannot be used), `skipped` (a `${VAR}` it needs is unset),
 *   `invalid` (refused), `disabled`, `shadowed`. `effectiveName` is the
 *   server's own name for active rows (the runtime may suffix it on a
 *   collision), null otherwise.
 * - `issues` are one-line strings: diagnostics as `file:line:col: …`,
 *   shadowing and override notes, then the verdict's own line
 *   (`verdictIssue`: the trust note, the unset variables, why the mapped
 *   config is refused) — rendered from the verdict's fields.
 * - `checks` (name → a doctor result) is the seam for `list --check`: when
 *   given, the winning row of that name carries it as `check`.
 * - `reviewWarnings` is the one place an env value is printed: for the trust
 *   review only, the values of env vars that can load or redirect code
 *   (config/code-env.ts) in full, flagged, and a warning with the pinned
 *   form for an unpinned package runner (config/runners.ts).
 * - `unknownServer` is the one "no server named …" failure of `get` and
 *   `trust` (a did-you-mean among the known names).
 *
 * @module
 */
import { homedir } from 'node:os'
import path from 'node:path'
import { formatDiagnostic } from '../config/diagnostics.ts'
import { isCodeEnv } from '../config/code-env.ts'
import { oneLine } from '../config/terminal-safe.ts'
import { suggest, transportOf } from '../config/entry.ts'
import { unpinnedRunner } from '../config/runners.ts'
import { contributors, type LayerInput, type Row, type Scope } from '../config/layers.ts'
import { type Verdict, type VerdictView, verdictOf, verdictView } from '../plan/verdict.ts'
import { type ListState, listState, stateColor } from '../plan/states.ts'
import { displayArgs, displayUrl } from '../config/redact.ts'
import { redactShapesIn } from '../config/redact-text.ts'
import { templateVariables } from '../config/expand.ts'
import { type FieldName, fieldSpec, fieldsWhere } from '../config/fields.ts'
import { isRecord } from '../config/guards.ts'
import { cacheKeyOf } from '../plan/desired.ts'
import { shellWord } from '../trust/command.ts'
import { canonicalRoot, loadTrustStore } from '../trust/store.ts'
import type { SecretSource } from '../config/expand.ts'
import { secretPresence } from '../secrets/store.ts'
import { needsTrust, type TrustState, type TrustStore, trustAnswerOf, trustGateOff } from '../trust/state.ts'
import { loadProject, type ProjectView } from '../files/project.ts'
import { type CacheRecord, cacheReader } from '../lazy/cache.ts'
import { readCacheSecret } from '../lazy/secret.ts'
import { type CliError, failure } from './errors.ts'
import type { CliContext } from './program.ts'
import { type LaunchView, type LaunchViewOptions, launchView } from './launch-view.ts'
import { checkoutRoots } from '../launch/resolve.ts'

export type { ListState }

/** `not-required`: user layer; `off`: the gate is off (`DSH_MCP_TRUST_ALL=1`); null: no valid entry to judge. */
export type TrustView = Exclude<TrustState, 'store-problem'> | 'not-required' | 'off' | null

/** A doctor result as `list --check` attaches it (the doctor engine owns the full shape). */
export interface CheckResult {
  state: string
  [key: string]: unknown
}

export interface ServerView {
  name: string
  scope: Scope
  /** Absolute path of the file that defines the row. */
  file: string
  transport: 'stdio' | 'http' | 'sse' | null
  state: ListState
  effectiveName: string | null
  issues: string[]
  description: string | null
  command: string | null
  args: string[]
  url: string | null
  /** As written (unexpanded), relative to the project root; null = the project root. */
  cwd: string | null
  envKeys: string[]
  headerKeys: string[]
  /** Per env key / header name, the `${VAR}`s of your environment its value sends (names only; never a value). */
  envVars: Record<string, string[]>
  headerVars: Record<string, string[]>
  enabled: boolean
  shadowedBy: { scope: Scope; file: string } | null
  /** The local file whose partial override is merged into this row. */
  overriddenBy: string | null
  tools: { include?: string[]; exclude?: string[] } | null
  /** As written; null: the plugin's `defaultLifecycle` (eager unless configured). */
  lifecycle: 'eager' | 'lazy' | null
  idleTimeoutMs: number | null
  /** The written fields the table shows as detail rows (fields.ts `view: 'setting'`), in its order; strings redacted. */
  settings: Record<string, unknown>
  /** The tool-metadata cache of this row (what a lazy server offers while stopped), or null when there is none. */
  cache: { tools: number; recordedAt: string } | null
  trust: TrustView
  /** The row's one verdict (plan/verdict.ts) under the CLI's environment. */
  verdict: VerdictView
  check?: CheckResult
  /** A stdio row: the directory it really starts in and the file its command resolves to (launch-view.ts). */
  runs?: LaunchView
}

export interface PresentOptions {
  /** The project root (as found; canonicalized here). */
  root: string
  store: TrustStore
  /** Why the store cannot be used (then nothing counts as trusted). */
  storeProblem?: string | undefined
  gateOff: boolean
  /** What `${VAR}`s expand from, and where user rows resolve (the verdict's inputs). */
  env: Readonly<Record<string, string | undefined>>
  /** `$DSH_HOME`: where user rows resolve and the tool-metadata cache lives. */
  dshHome: string
  platform: string
  /** How a file path is shown inside issue strings. */
  display: (file: string) => string
  checks?: ReadonlyMap<string, CheckResult>
  /** Which secrets are set (the CLI asks the index only: `read` answers a stand-in, never a value). */
  secrets?: SecretSource
}

/**
 * A row's tool cache (read only; src/lazy/cache.ts), or null: only a row that runs here has a key
 * (its name, origin and effective launch under the per-user secret, src/lazy/secret.ts).
 */
function cacheOf(
  row: Row,
  verdict: Verdict,
  root: string,
  opts: PresentOptions,
  read: (key: string) => CacheRecord | undefined,
  secret: Uint8Array | undefined,
): ServerView['cache'] {
  if (!secret || verdict.tag !== 'runs') return null
  const record = read(cacheKeyOf(row, root, opts.dshHome, verdict.config, secret))
  return record ? { tools: record.tools.length, recordedAt: record.recordedAt } : null
}

/** Paths inside `cwd` are shown relative to it, others absolute. */
export function displayPath(cwd: string): (file: string) => string {
  return (file) => {
    const rel = path.relative(cwd, file)
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file
  }
}

/** A command line for display: arguments quoted when a shell would split or expand them. */
function commandLine(command: string, args: readonly string[] = []): string {
  return [command, ...args].map(shellWord).join(' ')
}

function presentRows(rows: readonly Row[], layers: readonly LayerInput[], opts: PresentOptions): ServerView[] {
  const root = canonicalRoot(opts.root)
  const read = cacheReader(opts.dshHome)
  const secret = readCacheSecret(opts.dshHome)
  const views = rows.map((row) => presentRow(row, layers, root, opts, read, secret))
  return views
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (a.v.name < b.v.name ? -1 : a.v.name > b.v.name ? 1 : a.i - b.i))
    .map(({ v }) => v)
}

function presentRow(
  row: Row,
  layers: readonly LayerInput[],
  root: string,
  opts: PresentOptions,
  read: (key: string) => CacheRecord | undefined,
  secret: Uint8Array | undefined,
): ServerView {
  const e = row.entry
  const show = (d: Parameters<typeof formatDiagnostic>[0]) => formatDiagnostic(d, { relativeTo: opts.display })
  const issues = row.diagnostics.map(show)
  if (row.overriddenBy) {
    const override = layers
      .find((l) => l.layer.file === row.overriddenBy)
      ?.parsed.entries.find((x) => x.name === row.name)
    issues.push(`with overrides from ${opts.display(row.overriddenBy)}`, ...(override?.diagnostics ?? []).map(show))
  }
  if (row.shadowedBy) issues.push(`shadowed by ${opts.display(row.shadowedBy.file)} (${row.shadowedBy.scope})`)
  let trust: TrustView = null
  const answer = () => trustAnswerOf(opts.store, opts.storeProblem, root, row)
  if (!needsTrust(row)) trust = 'not-required'
  else if (opts.gateOff) trust = 'off'
  else if (e && !row.shadowedBy) {
    const a = answer()
    trust = a === 'store-problem' ? 'untrusted' : a
  }
  const verdict = verdictOf(row, {
    root,
    env: opts.env,
    dshHome: opts.dshHome,
    platform: opts.platform,
    trust: answer,
    gateOff: opts.gateOff,
    ...(opts.storeProblem ? { storeProblem: opts.storeProblem } : {}),
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
  })
  const state = listState(verdict.tag)
  const own = verdictIssue(verdict, row)
  issues.push(...own)
  const t = e ? transportOf(e) : undefined
  const view: ServerView = {
    name: row.name,
    scope: row.scope,
    file: row.file,
    transport: t === 'stdio' ? 'stdio' : t === 'streamable-http' ? 'http' : t === 'sse' ? 'sse' : null,
    state,
    effectiveName: state === 'active' ? row.name : null,
    issues,
    description: e?.description ?? null,
    command: e?.command ?? null,
    args: displayArgs(e?.args ?? []),
    url: e?.url !== undefined ? displayUrl(e.url) : null,
    cwd: e?.cwd ?? null,
    envKeys: Object.keys(e?.env ?? {}),
    headerKeys: Object.keys(e?.headers ?? {}),
    envVars: variablesOf(e?.env),
    headerVars: variablesOf(e?.headers),
    enabled: e?.enabled !== false,
    shadowedBy: row.shadowedBy ? { scope: row.shadowedBy.scope, file: row.shadowedBy.file } : null,
    overriddenBy: row.overriddenBy ?? null,
    tools: e?.tools
      ? {
          ...(e.tools.include ? { include: [...e.tools.include] } : {}),
          ...(e.tools.exclude ? { exclude: [...e.tools.exclude] } : {}),
        }
      : null,
    lifecycle: e?.lifecycle ?? null,
    idleTimeoutMs: e?.idleTimeoutMs ?? null,
    settings: settingsOf(e),
    cache: cacheOf(row, verdict, root, opts, read, secret),
    trust,
    verdict: verdictView(verdict),
  }
  const runs = e ? launchView(e, runsOptions(row, root, opts)) : undefined
  if (runs) view.runs = runs
  if (runs?.refused) issues.push(runs.refused)
  const check = row.state !== 'shadowed' ? opts.checks?.get(row.name) : undefined
  if (check) view.check = check
  verdictLines.set(view, own)
  return view
}

/** Where a row's `cwd` resolves from, what expands it, and the checkout its command must not resolve into. */
function runsOptions(row: Row, root: string, opts: PresentOptions): LaunchViewOptions {
  return {
    base: row.scope === 'user' ? path.dirname(row.file) : root,
    env: opts.env,
    checkouts: checkoutRoots([root], [opts.env.HOME ?? homedir(), opts.dshHome]),
  }
}

/** Per view, the issue lines its verdict added (`verdictIssue`): the trust review leaves them out by identity, not by wording. */
const verdictLines = new WeakMap<ServerView, readonly string[]>()

/** `v.issues` without the lines its verdict added (the trust review says "will be allowed to run" itself). */
export function issuesBesideVerdict(v: ServerView): string[] {
  const own = verdictLines.get(v) ?? []
  return v.issues.filter((i) => !own.includes(i))
}

/**
 * The verdict's own issue lines, from its fields: the trust note of a
 * `needs-trust` row, the problems of a `skipped` one, the reason a row whose
 * entry validated is still refused, the notes of one that runs. A row's own
 * diagnostics (an invalid entry) and shadowing are already in its issues.
 */
export function verdictIssue(v: Verdict, row: Pick<Row, 'name' | 'state'>): string[] {
  switch (v.tag) {
    case 'needs-trust': {
      const run = `review it, then run "dsh-mcp trust ${row.name}"`
      if (v.why === 'changed') return [`changed since trusted: ${run}`]
      if (v.why === 'repository-contribution') return [`a repository file overrides this user server: ${run}`]
      if (v.why === 'store-problem') return [v.reason]
      return [`not trusted yet: ${run}`]
    }
    case 'skipped':
      return v.variables.length
        ? [`skipped: ${v.problems.join('; ')}`, ...(v.withheld.length ? [withheldNote(v.withheld)] : [])]
        : [`skipped: ${v.problems.join('; ')}`]
    case 'refused':
      return row.state === 'invalid' ? [] : [v.reason]
    case 'runs':
      return v.notes
    default:
      return []
  }
}

const withheldNote = (names: readonly string[]) =>
  `${names.map((n) => `$${n}`).join(', ')} ${names.length === 1 ? 'is' : 'are'} set only in the checkout's .env, which \${…} never reads: set ${names.length === 1 ? 'it' : 'them'} in the host's own environment`

/** What a row runs or connects to, for one table cell. */
export function targetOf(v: Pick<ServerView, 'command' | 'args' | 'url'>): string {
  if (v.command !== null) return commandLine(v.command, v.args)
  return v.url ?? '-'
}

/** Header and cells of the `list` table (a `check` column when any view carries one). */
export function tableOf(
  views: readonly ServerView[],
  paint: (c: 'green' | 'yellow' | 'red' | 'gray', s: string) => string,
): { header: string[]; rows: string[][] } {
  const withCheck = views.some((v) => v.check)
  // Lifecycle columns only once a row names one (the table of an all-eager project keeps its shape).
  const withLifecycle = views.some((v) => v.lifecycle !== null)
  const header = [
    'NAME',
    'SCOPE',
    'STATE',
    'TRANSPORT',
    'TARGET',
    'EFFECTIVE',
    ...(withLifecycle ? ['LIFECYCLE', 'CACHE'] : []),
    ...(withCheck ? ['CHECK'] : []),
    'ISSUES',
  ]
  const rows = views.map((v) => [
    v.name,
    v.scope,
    paint(stateColor(v.state), v.state),
    v.transport ?? '-',
    targetOf(v),
    v.effectiveName ?? '-',
    ...(withLifecycle ? [v.lifecycle ?? 'default', v.cache ? `${v.cache.tools} tool(s)` : '-'] : []),
    ...(withCheck ? [v.check?.state ?? '-'] : []),
    v.issues.join('; '),
  ])
  return { header, rows }
}

/** File-level problems of the read layers (a file that does not parse, unknown top-level keys), one line each. */
function fileProblems(layers: readonly LayerInput[], display: (file: string) => string): string[] {
  return layers.flatMap((l) => l.parsed.diagnostics.map((d) => formatDiagnostic(d, { relativeTo: display })))
}

export interface Listing {
  project: ProjectView
  /** The trust store as read for the project root (empty when refused). */
  store: TrustStore
  /** The trust gate is off (`DSH_MCP_TRUST_ALL=1`). */
  gateOff: boolean
  views: ServerView[]
  /** File-level problem lines, and a note when the trust store is ignored (print on stderr). */
  fileProblems: string[]
  display: (file: string) => string
  /** What the views were presented with. */
  options: PresentOptions
  dshHome: string
}

/** Read the project of `cli.dir` (+ the user layer) and the trust store, and present every row. */
export function readListing(
  cli: Pick<CliContext, 'dir' | 'cwd' | 'loc' | 'env' | 'platform'>,
  checks?: ReadonlyMap<string, CheckResult>,
): Listing {
  const project = loadProject(cli.dir, cli.loc)
  const display = displayPath(cli.cwd)
  const gateOff = trustGateOff(cli.env)
  const { store, refused } = loadTrustStore(cli.loc.dshHome, project.root.root)
  const options: PresentOptions = {
    root: project.root.root,
    store,
    storeProblem: refused,
    gateOff,
    env: cli.env,
    dshHome: cli.loc.dshHome,
    platform: cli.platform,
    display,
    secrets: secretPresence(cli.loc.dshHome, project.root.root),
  }
  const views = presentRows(project.rows, project.layers, { ...options, ...(checks ? { checks } : {}) })
  const problems = [
    ...fileProblems(project.layers, display),
    ...(refused && !gateOff ? [`warning: ignoring the trust store (nothing counts as trusted): ${refused}`] : []),
  ]
  return { project, store, gateOff, views, fileProblems: problems, display, options, dshHome: cli.loc.dshHome }
}

/** `listing` with `checks` attached to the winning rows (`list --check`), without reading anything again. */
export function withChecks(listing: Listing, checks: ReadonlyMap<string, CheckResult>): Listing {
  const views = presentRows(listing.project.rows, listing.project.layers, { ...listing.options, checks })
  return { ...listing, views }
}

/** The table's `setting` fields of an entry, as written (strings through the one redaction of free text). */
function settingsOf(e: Row['entry']): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const shown = (v: unknown): unknown =>
    typeof v === 'string'
      ? redactShapesIn(v)
      : isRecord(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shown(x)]))
        : v
  for (const key of fieldsWhere((f) => f.view === 'setting')) {
    const value = (e as Readonly<Record<string, unknown>> | undefined)?.[key]
    if (value !== undefined) out[key] = shown(value)
  }
  return out
}

/** A setting's detail-row text: milliseconds with their unit, a mapping as `key value` pairs. */
function settingText(key: FieldName, value: unknown): string {
  if (isRecord(value))
    return Object.entries(value)
      .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : String(v)}`)
      .join(', ')
  return fieldSpec(key).type === 'millis' ? `${String(value)} ms` : String(value)
}

/** Per key, the distinct `${VAR}` names its value refers to (keys without any are left out). */
function variablesOf(values: Readonly<Record<string, string>> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [key, value] of Object.entries(values ?? {})) {
    const names = [...new Set(templateVariables(value).map((v) => v.name))]
    if (names.length > 0) out[key] = names
  }
  return out
}

/** `get` and `trust`: no winning row is named `name` (a did-you-mean among `known`). */
export function unknownServer(name: string, known: readonly string[], root: string): CliError {
  const hint = suggest(name, [...known])
  return failure(`no server named "${name}" in ${root} or the user file${hint ? `; did you mean "${hint}"?` : ''}`)
}

/** The trust review's flagged lines for a row: env vars that can load or redirect code (in full), the contributing files, an unpinned package runner. */
export function reviewWarnings(row: Row, display: (file: string) => string): string[] {
  const e = row.entry
  if (!e) return []
  const lines: string[] = []
  for (const [key, value] of Object.entries(e.env ?? {})) {
    // Shown in full but for what is a secret in any value (a proxy URL's userinfo, a `--token=` inside NODE_OPTIONS).
    if (isCodeEnv(key))
      lines.push(
        `  ! env ${oneLine(key)}=${oneLine(shellWord(redactShapesIn(value)))}  (can load or redirect code: shown in full)`,
      )
  }
  const from = contributors(row)
  if (from.length > 1) lines.push(`  ! merged from ${from.map((s) => `${display(s.file)} (${s.scope})`).join(' + ')}`)
  const runner = unpinnedRunner(e.command, e.args)
  if (runner) {
    lines.push(
      `  ! ${runner.runner} fetches "${oneLine(runner.pkg)}" as it is on the registry at each start: trust covers the name, not the code`,
    )
    lines.push(`    pin an exact version instead: ${oneLine(commandLine(runner.pinned[0]!, runner.pinned.slice(1)))}`)
  }
  return lines
}

/** The text block describing one server (`get`, and `trust`'s review). */
export function detailLines(v: ServerView, root: string, display: (file: string) => string): string[] {
  // Every value on one line: a config string with line breaks cannot forge or hide lines of the review.
  const lines = [oneLine(v.name)]
  const field = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(13)}${oneLine(value)}`)
  field('state', v.state)
  field('scope', `${v.scope} (${display(v.file)})`)
  if (v.overriddenBy) field('overrides', display(v.overriddenBy))
  if (v.description) field('description', v.description)
  field('transport', v.transport ?? '-')
  if (v.command !== null) {
    field('command', targetOf(v))
    if (v.runs) field('runs', v.runs.command)
    field('cwd', v.runs?.cwd ?? path.resolve(v.scope === 'user' ? path.dirname(v.file) : root, v.cwd ?? '.'))
  }
  if (v.url !== null) field('url', v.url)
  // The variables a key's value is built from are named (they say what of yours the server is sent); values never print.
  const keyed = (keys: string[], vars: Record<string, string[]>) =>
    keys.map((k) => (vars[k]?.length ? `${k} (← ${vars[k].map((n) => `$${n}`).join(' ')})` : k)).join(', ')
  if (v.envKeys.length) field('env keys', keyed(v.envKeys, v.envVars))
  if (v.headerKeys.length) field('header keys', keyed(v.headerKeys, v.headerVars))
  if (v.tools?.include) field('tools in', v.tools.include.join(', '))
  if (v.tools?.exclude) field('tools out', v.tools.exclude.join(', '))
  field(
    'lifecycle',
    `${v.lifecycle ?? 'default (eager unless the plugin says otherwise)'}${v.idleTimeoutMs !== null ? `, idle timeout ${v.idleTimeoutMs === 0 ? 'never' : `${v.idleTimeoutMs} ms`}` : ''}`,
  )
  for (const [key, value] of Object.entries(v.settings))
    field(fieldSpec(key as FieldName).label ?? key, settingText(key as FieldName, value))
  field(
    'tool cache',
    v.cache
      ? `${v.cache.tools} tool(s), recorded ${v.cache.recordedAt}`
      : 'none (recorded the first time a host mounts it)',
  )
  if (v.trust !== null) field('trust', v.trust)
  if (v.state !== 'shadowed') field('verdict', `${v.verdict.tag}${v.verdict.why ? ` (${v.verdict.why})` : ''}`)
  if (v.effectiveName) field('effective', v.effectiveName)
  for (const issue of v.issues) lines.push(`  - ${oneLine(issue)}`)
  return lines
}
