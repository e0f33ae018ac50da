/**
 * The reconcile step: files → plan → mounts → visibility → status, once.
 *
 * Contract: `run()` (the queue runs it, one at a time) refreshes the trust
 * gate, watches every known file before reading it (an edit after that is
 * seen), re-reads the known projects' files and the user file, computes the
 * plan through the memo (plan/memo.ts: only the projects whose files,
 * variables, secrets or trust changed are judged again; a `${secret:NAME}`
 * value is read from the secret store only for a row that passed every other
 * check, and the store's index is watched so `dsh-mcp secret set` applies live), unmounts what the plan no
 * longer wants (removed, changed, or no longer used by any known project)
 * and what is to be retried (`reload()`'s failed servers, a fork whose name
 * another mcp-client held, an HTTP server that lost its session), waits up to
 * `DRAIN_WAIT_MS` for those forks to let go of their names, then mounts
 * what is new under effective names — a lazy server whose tool cache can
 * serve it is parked dormant instead (src/lazy) — re-derives every agent's
 * deny set and writes the status files. Mounts run in parallel and are never
 * awaited. Nothing runs once the state is disposed. `planNew()` plans from
 * the files as last read (a new project's first view, judged on the spot) and
 * re-derives the deny sets when another view moved meanwhile.
 * `retryRenamed(state, key)` counts a fork whose name an mcp-client not ours
 * holds and queues its key for the next reconcile, which mounts it under a
 * new name — at most `MAX_RENAMES` times per key, never once disposed; it
 * answers whether the key was queued. `runs` counts the runs (a debug
 * counter). The deny sets are asked for with `visibility.refresh()`, which
 * coalesces: one edit's reconcile costs one visibility pass.
 *
 * @module
 */
import { diffMountsDetail } from '../plan/diff.ts'
import { indexFile } from '../secrets/files.ts'
import { openSecretStore } from '../secrets/store.ts'
import { createPlanMemo } from '../plan/memo.ts'
import { assignNames } from '../plan/names.ts'
import { lifecyclePolicy } from '../lazy/index.ts'
import type { LazyServers } from '../lazy/servers.ts'
import type { FileWatcher } from '../watch/files.ts'
import type { ProjectEnv } from './project-env.ts'
import type { Mount, MountTable } from './mounts.ts'
import type { Options } from './options.ts'
import type { Projects } from './projects.ts'
import type { Reports } from './report.ts'
import type { RuntimeState } from './state.ts'
import { readsFailed } from './status.ts'
import type { TeamGate } from './team-gate.ts'
import type { TrustGate } from './trust-gate.ts'
import type { VisibilityGuard } from './visibility.ts'
import { requireLockFromEnv } from '../lock/pin.ts'

/** How often one server is renamed around names held by mcp-clients that are not ours. */
const MAX_RENAMES = 3
/** How long a reconcile waits for removed forks to release their names before renaming around them. */
const DRAIN_WAIT_MS = 3000

export interface ReconcileDeps {
  state: RuntimeState
  options: Options
  dshHome: string
  /** The per-user tool-cache secret (src/lazy/secret.ts); absent: no cache keys. */
  cacheSecret?: Uint8Array | undefined
  gate: TrustGate
  /** Signed team approvals (team-gate.ts): prepared each run, asked by the plan. */
  team: TeamGate
  projects: Projects
  mounts: MountTable
  lazy: LazyServers
  visibility: VisibilityGuard
  reports: Reports
  watcher: FileWatcher | undefined
  /** What the host took from the repository's `.env`: `${VAR}` does not read it. */
  dotenv: ProjectEnv
}

export interface Reconciler {
  run(): Promise<void>
  /** Reconcile runs so far (a debug counter). */
  readonly runs: number
  planNew(): void
}

/** A fork's name is held by an mcp-client not ours: queue its key to mount again under a new name, a bounded number of times. */
export function retryRenamed(state: RuntimeState, key: string): boolean {
  const n = (state.renames.get(key) ?? 0) + 1
  state.renames.set(key, n)
  if (n > MAX_RENAMES || state.disposed) return false
  state.retryKeys.add(key)
  return true
}

export function createReconciler(deps: ReconcileDeps): Reconciler {
  const { state, options, gate, projects, mounts, lazy, visibility, reports } = deps
  const memo = createPlanMemo()
  const secrets = openSecretStore({ dshHome: deps.dshHome })
  const plan = () =>
    memo.plan({
      secrets: (root) => secrets.source(root),
      projects: projects.list().map((p) => ({ root: p.root, layers: p.layers, locks: p.locks })),
      ...(options.requireLock || requireLockFromEnv(process.env) ? { requireLock: true } : {}),
      user: state.userLayers,
      env: process.env,
      withheld: deps.dotenv.withheld(),
      dshHome: deps.dshHome,
      platform: process.platform,
      trust: gate.check,
      team: deps.team.check,
      storeProblem: gate.storeProblem,
      ...(deps.cacheSecret ? { cacheSecret: deps.cacheSecret } : {}),
    })

  /** The keys to unmount and mount again this run; the requests are consumed. */
  const retries = (): Set<string> => {
    // A fork that is up but holds no tools while its client reports an error reads as failed (status.ts): reload() retries it too.
    const counts = state.retryFailed ? reports.counts() : undefined
    const failed = (k: string, m: Mount) => m.state === 'failed' || readsFailed(m, counts?.get(k) ?? 0)
    const retry = new Set(
      [...mounts.mounts]
        .filter(
          ([k, m]) =>
            (m.state === 'failed' && state.retryKeys.has(k)) ||
            (state.retryFailed && failed(k, m)) ||
            state.lostKeys.has(k),
        )
        .map(([k]) => k),
    )
    state.retryFailed = false
    state.retryKeys.clear()
    state.lostKeys.clear()
    return retry
  }

  const drain = async (releases: Promise<void>[]) => {
    if (releases.length === 0) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([Promise.allSettled(releases), new Promise<void>((r) => (timer = setTimeout(r, DRAIN_WAIT_MS)))])
    clearTimeout(timer)
  }

  let runs = 0
  return {
    get runs() {
      return runs
    },
    async run() {
      if (state.disposed) return
      runs++
      gate.refresh()
      // Watch before reading: an edit after this point is seen (event or signature re-check).
      const roots = projects.list().map((p) => p.root)
      deps.watcher?.setFiles([...projects.files(), ...gate.files(), ...deps.team.files(roots), indexFile(deps.dshHome)])
      for (const p of projects.list()) projects.load(p.root)
      state.userLayers = projects.loadUser()
      await deps.team.prepare(roots, state.userLayers)
      if (state.disposed) return
      state.plan = plan()
      reports.logPlacements()
      lazy.setPolicy(lifecyclePolicy(state.plan, options))
      const current = new Map([...mounts.mounts].map(([k, m]) => [k, m.spec] as const).concat([...lazy.parked()]))
      const retry = retries()
      const diff = diffMountsDetail(current, state.plan.mounts, retry)
      const releases = diff.remove.map((k) => {
        const why = retry.has(k)
          ? 'retrying'
          : diff.changedKeys.has(k)
            ? 'config changed'
            : 'no longer configured or used'
        lazy.forget(k)
        return mounts.unmount(k, why)
      })
      visibility.refresh()
      await drain(releases)
      if (state.disposed) return
      const specs = state.plan.mounts
      const requests = diff.add.map((k) => {
        const s = specs.get(k)!
        return { key: k, name: s.name, origin: s.origin, priority: s.layer === 'user' ? 0 : 1 }
      })
      const names = assignNames(new Map([...mounts.held(), ...lazy.held()]), requests)
      for (const k of diff.add) if (!lazy.park(specs.get(k)!, names.get(k)!)) mounts.mount(specs.get(k)!, names.get(k)!)
      lazy.sync()
      visibility.refresh()
      reports.write()
    },
    planNew() {
      const before = state.plan
      state.plan = plan()
      const after = state.plan
      // Did another view move meanwhile (a variable or a verdict changed)? Then its agents are re-derived too.
      if (after.global !== before.global || [...before.projects].some(([r, ps]) => after.projects.get(r) !== ps))
        visibility.refresh()
    },
  }
}
