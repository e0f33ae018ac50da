/**
 * The runtime: projects → plan → mounts → visibility → status, kept current.
 *
 * Contract: one reconcile at a time (the queue); each re-reads the known
 * projects' files and the user file, computes the plan, unmounts what the
 * plan no longer wants (removed, changed, or no longer used by any known
 * project), waits briefly for those forks to let go of their names, mounts
 * what is new under effective names — a lazy server whose tool cache can
 * serve it is parked dormant instead (src/lazy) — re-derives every agent's
 * deny set and writes the status files. Mounts run in parallel and are never awaited by
 * the reconcile. Planning goes through a memo (plan/memo.ts), so only the
 * projects whose files, variables or trust changed are judged again. A new
 * agent is tracked synchronously: a new project's files are read and planned
 * on the spot so its very first view is right, and a reconcile is queued
 * from a macrotask (never inside `ctx.agents.create`). Everything is
 * released by `dispose`.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { type Locations, defaultLocations, projectRootOf } from '../files/read.ts'
import type { Placement, Plan } from '../plan/desired.ts'
import { diffMountsDetail } from '../plan/diff.ts'
import { createPlanMemo } from '../plan/memo.ts'
import { assignNames } from '../plan/names.ts'
import { ownership, type Visible, visibleOf } from '../plan/visibility.ts'
import { lifecyclePolicy, startLazy } from '../lazy/index.ts'
import { canonicalRoot } from '../trust/store.ts'
import { debounce } from '../watch/debounce.ts'
import { type FileWatcher, watchFiles } from '../watch/files.ts'
import { createQueue } from '../watch/queue.ts'
import { projectOf, watchAgents } from './agents.ts'
import { createSettle } from './settle.ts'
import { holdFirstStep } from './first-step.ts'
import { createLog } from './log.ts'
import { createMountTable, type Mount } from './mounts.ts'
import type { Options } from './options.ts'
import { createProjects } from './projects.ts'
import { createReports } from './report.ts'
import { createStatusWriter, readsFailed, type Snapshot } from './status.ts'
import { tellAgents, terminalNotice } from './tell.ts'
import { createTrustGate } from './trust-gate.ts'
import { createVisibility } from './visibility.ts'
import type { WebSource } from './web.ts'

/** How long a reconcile waits for removed forks to release their names before renaming around them. */
const DRAIN_WAIT_MS = 3000
/** How often one server is renamed around names held by mcp-clients that are not ours. */
const MAX_RENAMES = 3
/** How long disposing the plugin waits for the forks to shut down. */
const DISPOSE_WAIT_MS = 5000

export interface ProjectMcp {
  /** Projects → servers, as of now (in memory). */
  snapshot(): Snapshot
  /** Re-read every file and reconcile; failed servers are tried again. Resolves when that reconcile ran. */
  reload(): Promise<void>
  /** Resolves once queued reconciles, mounts, unmounts and status writes have settled. */
  whenIdle(): Promise<void>
}

export interface Runtime {
  service: ProjectMcp
  /** What the `dsh web` route reads (web.ts). */
  web: WebSource
  dispose(): Promise<void>
}

export function startRuntime(ctx: Context, options: Options): Runtime {
  const log = createLog(ctx)
  const loc: Locations = defaultLocations(process.env, options.dshHome ? { dshHome: options.dshHome } : undefined)
  const gate = createTrustGate({ mode: options.trust, dshHome: loc.dshHome, env: process.env, log })
  const hostCwd = options.cwd ?? process.cwd()
  let plan: Plan = { global: [], projects: new Map(), mounts: new Map() }
  let retryFailed = false
  /** Failed keys to mount again (under a new name: another mcp-client holds theirs), and how often that happened. */
  const retryKeys = new Set<string>()
  /** HTTP mounts whose server lost their session: remounted on the next reconcile. */
  const lostKeys = new Set<string>()
  const renames = new Map<string, number>()
  let disposed = false

  /** What an agent of `root` may see (a project not planned yet sees the global view); one map per placement list. */
  const visibleMaps = new WeakMap<readonly Placement[], Visible>()
  const visibleFor = (root: string | null): Visible => {
    const placements = root === null ? plan.global : (plan.projects.get(root) ?? plan.global)
    let visible = visibleMaps.get(placements)
    if (!visible) {
      visible = visibleOf(placements)
      visibleMaps.set(placements, visible)
    }
    return visible
  }
  const rootOfDir = (dir: string) => projectRootOf(canonicalRoot(dir), loc).root
  const hostRoot = rootOfDir(hostCwd)

  const status = createStatusWriter(loc.dshHome, log)

  const mounts = createMountTable(ctx, {
    mountTimeoutMs: options.mountTimeoutMs,
    dshHome: loc.dshHome,
    log,
    onChange: () => {
      if (disposed) return
      visibility.refresh()
      reports.schedule()
      recorder.schedule()
    },
    onNameTaken: (key) => {
      const n = (renames.get(key) ?? 0) + 1
      renames.set(key, n)
      if (n > MAX_RENAMES || disposed) return
      retryKeys.add(key)
      void queue.request()
    },
  })

  const visibility = createVisibility(
    ctx,
    {
      ownership: () => ownership(lazy.owners(mounts.owners())),
      visibleFor,
    },
    log,
  )

  // Lazy servers (src/lazy): cached tools while stopped, started by their first call, released when idle.
  const { servers: lazy, recorder } = startLazy(ctx, {
    mounts,
    dshHome: loc.dshHome,
    log,
    registered: () => visibility.registered(),
    rootOf: (agent) => visibility.rootOf(agent),
    visibleFor,
    onChange: () => {
      if (disposed) return
      visibility.refresh()
      reports.schedule()
    },
  })

  const projects = createProjects({
    loc,
    legacyMcpJson: options.legacyMcpJson,
    userLayer: options.userLayer,
    graceMs: options.graceMs,
    log,
    onExpire: (root) => {
      log.info('project %s has had no agent for %d ms: releasing its servers', root, options.graceMs)
      reports.released(root)
      void queue.request()
    },
  })
  let userLayers = projects.loadUser()

  const memo = createPlanMemo()
  const computePlan = (): Plan =>
    memo.plan({
      projects: projects.list().map((p) => ({ root: p.root, layers: p.layers })),
      user: userLayers,
      env: process.env,
      dshHome: loc.dshHome,
      trust: gate.check,
      storeProblem: gate.storeProblem,
    })

  const reports = createReports({ plan: () => plan, projects, mounts, lazy, defaultLifecycle: options.defaultLifecycle, visibility, status, log, disposed: () => disposed })

  const reconcile = async () => {
    if (disposed) return
    gate.refresh()
    // Watch before reading: an edit after this point is seen (event or signature re-check).
    watcher?.setFiles([...projects.files(), ...gate.files()])
    for (const p of projects.list()) projects.load(p.root)
    userLayers = projects.loadUser()
    plan = computePlan()
    reports.logPlacements()
    lazy.setPolicy(lifecyclePolicy(plan, options))
    const current = new Map([...mounts.mounts].map(([k, m]) => [k, m.spec] as const).concat([...lazy.parked()]))
    // A fork that is up but holds no tools while its client reports an error reads as failed (status.ts): reload() retries it too.
    const counts = retryFailed ? reports.counts() : undefined
    const failed = (k: string, m: Mount) => m.state === 'failed' || readsFailed(m, counts?.get(k) ?? 0)
    const retry = new Set([...mounts.mounts].filter(([k, m]) => (m.state === 'failed' && retryKeys.has(k)) || (retryFailed && failed(k, m)) || lostKeys.has(k)).map(([k]) => k))
    retryFailed = false
    retryKeys.clear()
    lostKeys.clear()
    const diff = diffMountsDetail(current, plan.mounts, retry)
    const releases = diff.remove.map((k) => {
      const why = retry.has(k) ? 'retrying' : diff.changedKeys.has(k) ? 'config changed' : 'no longer configured or used'
      lazy.forget(k)
      return mounts.unmount(k, why)
    })
    visibility.refresh()
    if (releases.length) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([Promise.allSettled(releases), new Promise<void>((r) => (timer = setTimeout(r, DRAIN_WAIT_MS)))])
      clearTimeout(timer)
    }
    if (disposed) return
    const requests = diff.add.map((k) => {
      const s = plan.mounts.get(k)!
      return { key: k, name: s.name, origin: s.origin, priority: s.layer === 'user' ? 0 : 1 }
    })
    const names = assignNames(new Map([...mounts.held(), ...lazy.held()]), requests)
    for (const k of diff.add) if (!lazy.park(plan.mounts.get(k)!, names.get(k)!)) mounts.mount(plan.mounts.get(k)!, names.get(k)!)
    lazy.sync()
    visibility.refresh()
    reports.write()
  }

  const queue = createQueue(reconcile, (error) => log.error('reconcile failed: %s', String(error)))

  // The official client never opens a new session when an HTTP server has lost its own (it restarted:
  // every call then fails with 404 "Session not found"): remount such a server on the first such result.
  // Only the SDK's transport error counts, never a tool's own error result that happens to say so.
  ctx.on('tools/result', (exec, result) => {
    if (disposed || !result.isError || !/^Streamable HTTP error: Error POSTing to endpoint: .*session not found/is.test(result.error.message)) return
    const own = ownership(mounts.owners())
    const server = own.index.ownerOf(exec.name)
    const key = server === undefined ? undefined : own.owners.get(server)
    const m = key ? mounts.mounts.get(key) : undefined
    if (!key || !m || m.state !== 'mounted' || m.spec.config.transport !== 'streamable-http' || lostKeys.has(key)) return
    lostKeys.add(key)
    m.error = 'the server no longer knows this session (it restarted?): reconnecting'
    log.warn('"%s" lost its session on the server: remounting it', m.effectiveName)
    reports.schedule()
    void queue.request()
  })
  const debounced = debounce(() => void queue.request(), options.debounceMs)
  const watcher: FileWatcher | undefined = options.watch
    ? watchFiles({ onChange: () => debounced.trigger(), onError: (e) => log.debug('watcher: %s', String(e)) })
    : undefined

  // First turn bookkeeping.
  const firstPending = new WeakSet<Agent>()
  // A new project's reconcile starts from a macrotask, not inside `ctx.agents.create` (kept alive: it is awaited).
  const kick = debounce(() => void queue.request(), 0, { keepAlive: true })
  const settle = createSettle({ delays: [debounced, kick], queue, mounts, status })
  const keysOf = (root: string | null) => visibleFor(root).keys()
  // Registered before the first-step hold (outermost): it explains the assembly that waited for the mounts.
  tellAgents(ctx, {
    explained: (agent) => {
      const root = visibility.rootOf(agent)
      return root === undefined ? undefined : reports.explained(root)
    },
    notify: terminalNotice(log),
    log,
  })

  // A step also waits while one of its lazy servers starts or stops (its tools are briefly absent then); dormant ones never hold it.
  const lazyPending = (agent: Agent) => lazy.pendingFor(keysOf(visibility.rootOf(agent) ?? null))
  const firstNow = new WeakSet<Agent>()
  holdFirstStep(ctx, {
    waitMs: options.firstStepWaitMs,
    isFirst: (agent) => firstPending.has(agent) || lazyPending(agent) !== undefined,
    markDone: (agent) => {
      if (firstPending.delete(agent)) firstNow.add(agent)
    },
    pending: (agent) => {
      const mounting = firstNow.delete(agent) ? settle.pendingFor(() => keysOf(visibility.rootOf(agent) ?? null)) : undefined
      const starting = lazyPending(agent)
      return mounting && starting ? Promise.all([mounting, starting]).then(() => undefined) : (mounting ?? starting)
    },
    log,
  })

  watchAgents(ctx, {
    log,
    add(agent) {
      if (disposed) return
      const root = projectOf(ctx, agent, { rootOfDir, rootOfAgent: (a) => visibility.rootOf(a), hostRoot: () => hostRoot })
      const isNew = projects.ensure(root)
      projects.attach(root, agent)
      // Plan the new project now (its agents' first view must be right; the memo judges only it); the full reconcile follows.
      if (isNew) {
        const before = plan
        plan = computePlan()
        // Did another view move meanwhile (a variable or a verdict changed)? Then its agents are re-derived too.
        if (plan.global !== before.global || [...before.projects].some(([r, ps]) => plan.projects.get(r) !== ps)) visibility.refresh()
      }
      firstPending.add(agent)
      visibility.track(agent, root)
      log.debug('agent %s joined project %s', agent.id, root)
      if (isNew) kick.trigger()
    },
    remove(agent) {
      const root = visibility.rootOf(agent)
      visibility.untrack(agent)
      firstPending.delete(agent)
      if (root) projects.detach(root, agent)
    },
  })

  projects.ensure(hostRoot, { pinned: true })
  void queue.request()

  return {
    service: {
      snapshot: reports.snapshot,
      async reload() {
        retryFailed = true
        await queue.request()
      },
      whenIdle: settle.whenIdle,
    },
    web: {
      view: (cwd) => reports.web(cwd === undefined ? null : rootOfDir(cwd)),
      onChange: reports.onWrite,
    },
    async dispose() {
      // Record what is mounted now (a short-lived host still warms the tool cache).
      recorder.flush()
      disposed = true
      debounced.cancel()
      kick.cancel()
      queue.close()
      visibility.dispose()
      lazy.dispose()
      recorder.dispose()
      // Written first: the host's shutdown is bounded (the CLI force-exits 5 s after a signal).
      reports.stopped()
      projects.dispose()
      await watcher?.close()
      await queue.idle()
      await mounts.disposeAll(DISPOSE_WAIT_MS)
      await status.settled()
    },
  }
}
