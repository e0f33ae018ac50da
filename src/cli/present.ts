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
 *   (`verdict-issue.ts` `verdictIssue`: the trust note, the unset
 *   variables, why the mapped config is refused) — rendered from the
 *   verdict's fields.
 * - `checks` (name → a doctor result) is the seam for `list --check`: when
 *   given, the winning row of that name carries it as `check`.
 * - `presentRows` builds the views; reading a project into them is
 *   `listing.ts`, their text forms are `present-text.ts`, a verdict's issue
 *   lines are `verdict-issue.ts`.
 *
 * @module
 */
import { toolTokens } from '../budget/tokens.ts'
import { homedir } from 'node:os'
import path from 'node:path'
import { formatDiagnostic } from '../config/diagnostics.ts'
import { transportOf } from '../config/entry.ts'
import { rowHome } from '../config/inherit.ts'
import type { LayerInput, Row, Scope } from '../config/layers.ts'
import { type Verdict, type VerdictView, verdictOf, verdictView } from '../plan/verdict.ts'
import { type ListState, listState } from '../plan/states.ts'
import { displayArgs, displayUrl } from '../config/redact.ts'
import { redactShapesIn } from '../config/redact-text.ts'
import { templateVariables } from '../config/expand.ts'
import { fieldsWhere } from '../config/fields.ts'
import { isRecord } from '../config/guards.ts'
import { cacheKeyOf } from '../plan/desired.ts'
import { canonicalRoot } from '../trust/store.ts'
import type { SecretSource } from '../config/expand.ts'
import {
  needsTrust,
  type SignatureAnswer,
  type TrustState,
  type TrustStore,
  trustAnswerOf,
  trustRecordOf,
} from '../trust/state.ts'
import type { RowDetail } from '../plan/states.ts'
import { toolReviewOf } from './tool-review.ts'
import { type CacheRecord, cacheReader } from '../lazy/cache.ts'
import { readCacheSecret } from '../lazy/secret.ts'
import { verdictIssue } from './verdict-issue.ts'
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
  /** The tool cache: tool count, when recorded, and the tools' schema tokens as the host sends them (src/budget/tokens.ts). */
  cache: { tools: number; recordedAt: string; tokens: number } | null
  trust: TrustView
  /** A detail beside its state (plan/states.ts `ROW_DETAILS`): `tools-changed` when a review of its tools waits. */
  detail: RowDetail | null
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
  /** `requireLock` (plan/verdict.ts), from `DSH_MCP_REQUIRE_LOCK` (lock/pin.ts `requireLockFromEnv`). */
  requireLock?: boolean
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
  /** Signed team approvals, verified (cli/team.ts): the verdict's `team` seam. */
  team?: (row: Row) => SignatureAnswer | undefined
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
  return record
    ? {
        tools: record.tools.length,
        recordedAt: record.recordedAt,
        tokens: record.tools.reduce((n, t) => n + toolTokens(t), 0),
      }
    : null
}

/** Paths inside `cwd` are shown relative to it, others absolute. */
export function displayPath(cwd: string): (file: string) => string {
  return (file) => {
    const rel = path.relative(cwd, file)
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file
  }
}

/** Every row as its view, sorted by name (rows of one name keep their layer order). */
export function presentRows(rows: readonly Row[], layers: readonly LayerInput[], opts: PresentOptions): ServerView[] {
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
  if (row.disabledBy) issues.push(`turned off by disable: in ${opts.display(row.disabledBy.file)}`)
  let trust: TrustView = null
  // A row a parent directory of a monorepo defines is that directory's row (config/inherit.ts).
  const home = row.scope === 'user' ? root : canonicalRoot(rowHome(row, opts.root))
  const answer = () => trustAnswerOf(opts.store, opts.storeProblem, home, row)
  if (!needsTrust(row)) trust = 'not-required'
  else if (opts.gateOff) trust = 'off'
  else if (e && !row.shadowedBy) {
    const a = answer()
    trust = a === 'store-problem' ? 'untrusted' : a
  }
  const verdict = verdictOf(row, {
    root: home,
    env: opts.env,
    dshHome: opts.dshHome,
    platform: opts.platform,
    trust: answer,
    gateOff: opts.gateOff,
    ...(opts.requireLock ? { requireLock: true } : {}),
    ...(opts.storeProblem ? { storeProblem: opts.storeProblem } : {}),
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
    ...(opts.team ? { team: opts.team } : {}),
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
    cache: cacheOf(row, verdict, home, opts, read, secret),
    trust,
    detail:
      verdict.tag === 'runs' &&
      trust === 'trusted' &&
      toolReviewOf(opts.dshHome, root, row, trustRecordOf(opts.store, root, row.name))
        ? 'tools-changed'
        : null,
    verdict: verdictView(verdict),
  }
  const runs = e ? launchView(e, runsOptions(row, home, opts, root)) : undefined
  if (runs) view.runs = runs
  if (runs?.refused) issues.push(runs.refused)
  const check = row.state !== 'shadowed' ? opts.checks?.get(row.name) : undefined
  if (check) view.check = check
  verdictLines.set(view, own)
  return view
}

/** Where a row's `cwd` resolves from, what expands it, and the checkout its command must not resolve into. */
function runsOptions(row: Row, home: string, opts: PresentOptions, root: string): LaunchViewOptions {
  return {
    // A monorepo parent's row runs from that parent (config/inherit.ts `rowHome`).
    base: row.scope === 'user' ? path.dirname(row.file) : home,
    env: opts.env,
    checkouts: checkoutRoots([...new Set([root, home])], [opts.env.HOME ?? homedir(), opts.dshHome]),
  }
}

/** Per view, the issue lines its verdict added (`verdictIssue`): the trust review leaves them out by identity, not by wording. */
const verdictLines = new WeakMap<ServerView, readonly string[]>()

/** `v.issues` without the lines its verdict added (the trust review says "will be allowed to run" itself). */
export function issuesBesideVerdict(v: ServerView): string[] {
  const own = verdictLines.get(v) ?? []
  return v.issues.filter((i) => !own.includes(i))
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

/** Per key, the distinct `${VAR}` names its value refers to (keys without any are left out). */
function variablesOf(values: Readonly<Record<string, string>> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [key, value] of Object.entries(values ?? {})) {
    const names = [...new Set(templateVariables(value).map((v) => v.name))]
    if (names.length > 0) out[key] = names
  }
  return out
}
