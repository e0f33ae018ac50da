/**
 * Desired state: every project's rows judged, and the set of mounts they need.
 *
 * Contract: pure (files arrive parsed, the environment and the trust verdict
 * arrive as values). For each project the layers merge with the user layer
 * (precedence: docs/guide/layers.md); the global view is the user layer alone. Each row is
 * judged by `verdictOf` (plan/verdict.ts, the one judgement): every
 * placement carries its verdict (`verdictView`: tag and structured fields,
 * never an env or header value) — the one state every edge renders; a
 * `runs` row also names its mount (`key`), mounted with the verdict's
 * official config. The platform comes in as an input. A mount's key covers its
 * written name, its resolved official config and the fields the table hands
 * the mount beside it (`MountSpec.settings`), so equal keys share one
 * mount and tuning keys (`tools`, `description`, `lifecycle`, `idleTimeoutMs`)
 * never change a key.
 * A row inherited from a parent directory of a monorepo is judged as that
 * directory's row (`rowHome`: its trust, project secrets, relative `cwd`
 * and origin), so packages that inherit it share its mount.
 * `desiredState` is `assemblePlan` over `judgeView` of every view: each view
 * is judged on its own, so a caller may reuse a view whose inputs did not
 * change (memo.ts) and get the very plan a full judgement gives.
 *
 * @module
 */
import type { Env, SecretSource } from '../config/expand.ts'
import { cacheFingerprint, mountKey } from '../config/fingerprint.ts'
import { rowHome } from '../config/inherit.ts'
import { type LayerInput, mergeLayers, repositoryContribution, type Row, type Scope } from '../config/layers.ts'
import type { OfficialConfig } from '../config/official.ts'
import { credentialValues, secretValues } from '../config/redact.ts'
import type { TeamFn, TrustState } from '../trust/state.ts'
import type { Entry, Lifecycle } from '../config/schema.ts'
import { fieldsWhere, type HostField } from '../config/fields.ts'
import type { ToolFilter } from './filter.ts'
import { type VerdictView, verdictOf, verdictView } from './verdict.ts'
import type { LockFile } from '../lock/format.ts'
import { attachLockPins } from '../lock/pin.ts'

export { redact } from '../config/redact.ts'

/** The trust gate's seam: asked for every active row that needs trust (a repository contribution). */
export type TrustFn = (root: string, row: Row) => TrustState

/** What a mount reads beside its official config: the table's `mount: 'host'` fields. */
export type HostSettings = Partial<Pick<Entry, HostField>>

/** The written `mount: 'host'` fields of an entry (part of the mount key: a change remounts). */
export function hostSettings(entry: Entry): HostSettings {
  const out: Record<string, unknown> = {}
  for (const key of fieldsWhere((f) => f.mount === 'host'))
    if (entry[key] !== undefined) out[key] = (entry as Record<string, unknown>)[key]
  return out as HostSettings
}

/** One mount the plan needs. `config.serverName` is the written name; the edge sets the effective one. */
export interface MountSpec {
  key: string
  name: string
  layer: Scope
  file: string
  /** Project root, or `$DSH_HOME` for user-layer servers: relative `cwd` and name suffixes derive from it. */
  origin: string
  config: OfficialConfig
  /** Expanded values that must never reach a log line (env/header values, substituted variables). */
  secrets: string[]
  /** The credentials among them (config/redact.ts `credentialValues`): what is masked in what reaches the model. */
  credentials: string[]
  /** Key of its tool-metadata cache (config/fingerprint.ts `cacheFingerprint`); '' when there is no cache secret (no cache). */
  cacheKey: string
  /** The fields the table hands the mount beside its official config (fields.ts `mount: 'host'`), as written. */
  settings?: HostSettings
}

/** One row of one view (a project, or the global view), judged. */
export interface Placement {
  name: string
  layer: Scope
  file: string
  /** The row's one verdict (plan/verdict.ts): every edge renders its state from it. */
  verdict: VerdictView
  /** The mount this row uses (verdict `runs`). */
  key?: string
  filter?: ToolFilter
  /** `alwaysLoad`: tools offered even above the tool budget (true: all; globs on raw names). */
  alwaysLoad?: boolean | readonly string[]
  description?: string
  lifecycle?: Lifecycle
  idleTimeoutMs?: number
}

export interface ProjectInput {
  root: string
  layers: readonly LayerInput[]
  /**
   * The `.dsh/mcp.lock` of the project's directory and of each parent it inherits from, by directory, as the
   * edge read them (absent: none): a covered row's entry is part of its trust fingerprint (lock/pin.ts).
   * A new map whenever a lock's content changes (the memo compares it by identity).
   */
  locks?: ReadonlyMap<string, LockFile>
}

export interface PlanInput {
  projects: readonly ProjectInput[]
  /** The user layer (empty when absent or turned off). */
  user: readonly LayerInput[]
  env: Env
  /** Names of `env` that `${VAR}` must not read: what the host took from the repository's `.env`. */
  withheld?: ReadonlySet<string>
  dshHome: string
  /** `process.platform` of the host (the Windows launcher shim); an input, never read here. */
  platform: string
  trust: TrustFn
  /** Signed team approvals (trust/state.ts `TeamFn`): asked only for a project row its user has not trusted. */
  team?: TeamFn
  /** What is wrong with the trust store for a root, if it cannot be used (the reason of `store-problem`). */
  storeProblem?: (root: string) => string | undefined
  /** The secret store as a view sees it (`root` null: the global view, the user's own secrets alone). */
  secrets?: (root: string | null) => SecretSource
  /** The per-user secret keying the tool-metadata cache (src/lazy/secret.ts); absent: no cache keys. */
  cacheSecret?: Uint8Array
  /** The plugin option `requireLock` (plan/verdict.ts: a repository row running a registry package needs a lock entry). */
  requireLock?: boolean
}

export interface Plan {
  /** What an agent outside any project sees: the user layer. */
  global: Placement[]
  projects: Map<string, Placement[]>
  mounts: Map<string, MountSpec>
}

/** The inputs that judge one view's rows (a plan's input without its projects). */
export type ViewInput = Omit<PlanInput, 'projects' | 'user'>

/** One view judged: its placements and the mounts they need (the first row of each key names it). */
export interface ViewJudgement {
  placements: Placement[]
  mounts: MountSpec[]
}

export function desiredState(input: PlanInput): Plan {
  const global = judgeView(mergeLayers(input.user), null, input)
  return assemblePlan(
    global,
    input.projects.map((p) => [p.root, judgeView(projectRows(p, input.user), p.root, input)]),
  )
}

/** A project's rows: its layers merged with the user layer, each locked row with its lock pin (lock/pin.ts). */
export function projectRows(project: ProjectInput, user: readonly LayerInput[]): Row[] {
  const rows = mergeLayers([...project.layers, ...user])
  const locks = project.locks
  return locks && locks.size > 0 ? attachLockPins(rows, project.root, (d) => locks.get(d)) : rows
}

/** Judge one view's rows (`root` null: the global view). Asks `input.trust` once per active project row, in row order. */
export function judgeView(rows: readonly Row[], root: string | null, input: ViewInput): ViewJudgement {
  const own = new Map<string, MountSpec>()
  const placements = rows.map((row) => judgeRow(row, root, input, own))
  return { placements, mounts: [...own.values()] }
}

/** The plan of judged views: the global view first, then each project; a key shared by views keeps the first view's spec. */
export function assemblePlan(global: ViewJudgement, projects: Iterable<readonly [string, ViewJudgement]>): Plan {
  const mounts = new Map<string, MountSpec>()
  const add = (v: ViewJudgement) => {
    for (const m of v.mounts) if (!mounts.has(m.key)) mounts.set(m.key, m)
  }
  add(global)
  const views = new Map<string, Placement[]>()
  for (const [root, v] of projects) {
    views.set(root, v.placements)
    add(v)
  }
  return { global: global.placements, projects: views, mounts }
}

function judgeRow(row: Row, view: string | null, input: ViewInput, mounts: Map<string, MountSpec>): Placement {
  // The directory the row belongs to (config/inherit.ts): a parent's server is that parent's row in every package.
  const root = view === null ? null : rowHome(row, view)
  const base: Omit<Placement, 'verdict'> = { name: row.name, layer: row.scope, file: row.file }
  if (row.entry?.tools) base.filter = row.entry.tools
  if (row.entry?.alwaysLoad !== undefined) base.alwaysLoad = row.entry.alwaysLoad
  if (row.entry?.description !== undefined) base.description = row.entry.description
  if (row.entry?.lifecycle !== undefined) base.lifecycle = row.entry.lifecycle
  if (row.entry?.idleTimeoutMs !== undefined) base.idleTimeoutMs = row.entry.idleTimeoutMs
  const storeProblem = root === null ? undefined : input.storeProblem?.(root)
  // The values this row's verdict read from the secret store: redaction values of its mount.
  const read: string[] = []
  const store = input.secrets?.(root)
  const secrets: SecretSource | undefined = store && {
    has: (n) => store.has(n),
    userScoped: (n) => store.userScoped(n),
    read(n) {
      const value = store.read(n)
      if (value !== undefined) read.push(value)
      return value
    },
  }
  const v = verdictOf(row, {
    ...(secrets ? { secrets } : {}),
    root,
    env: input.env,
    ...(input.withheld ? { withheld: input.withheld } : {}),
    dshHome: input.dshHome,
    platform: input.platform,
    trust: (r) => input.trust(root as string, r),
    ...(input.team && root !== null ? { team: (r: Row) => input.team?.(root, r) } : {}),
    ...(storeProblem !== undefined ? { storeProblem } : {}),
    ...(input.requireLock ? { requireLock: true } : {}),
  })
  const verdict = verdictView(v)
  if (v.tag !== 'runs') return { ...base, verdict }
  const origin = row.scope === 'user' ? input.dshHome : (root as string)
  const settings = hostSettings(v.entry)
  const key = mountKey({ ...v.config, ...settings })
  if (!mounts.has(key)) {
    mounts.set(key, {
      key,
      name: row.name,
      layer: row.scope,
      file: row.file,
      origin,
      config: v.config,
      secrets: secretValues(row.entry!, v.entry, input.env, read),
      credentials: credentialValues(row.entry!, v.entry, input.env, read),
      cacheKey: input.cacheSecret ? cacheKeyOf(row, root, input.dshHome, v.config, input.cacheSecret) : '',
      ...(Object.keys(settings).length > 0 ? { settings } : {}),
    })
  }
  return { ...base, verdict, key }
}

/**
 * The tool-cache key of a row that runs with `config`: its name, its origin — the project root when any
 * repository file contributed (a project's partial override of a user server included), `$DSH_HOME` only for
 * a row with no repository contribution — and the full effective launch, values included (keyed hash).
 */
export function cacheKeyOf(
  row: Pick<Row, 'name' | 'scope' | 'file' | 'sources'>,
  root: string | null,
  dshHome: string,
  config: OfficialConfig,
  secret: Uint8Array,
): string {
  const origin = root !== null && repositoryContribution(row) ? root : dshHome
  return cacheFingerprint({ name: row.name, origin, launch: config as unknown as Record<string, unknown> }, secret)
}
