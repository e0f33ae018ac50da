/**
 * The runtime: projects → plan → mounts → visibility → status, kept current.
 *
 * Contract: `startRuntime` wires the services in dependency order and owns
 * nothing else: the state is one object (state.ts), the reconcile step is
 * reconcile.ts, run one at a time by the queue. A service created before the
 * ones it notifies sends a signal (state.ts) that the wiring connects once
 * every listener exists. A new agent is tracked synchronously: a new
 * project's files are read and planned on the spot so its very first view is
 * right, and a reconcile is queued from a macrotask (never inside
 * `ctx.agents.create`). Everything is released by `dispose`.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { defaultLocations, projectRootOf } from '../files/read.ts'
import { ownership } from '../plan/visibility.ts'
import type { LazyServers } from '../lazy/servers.ts'
import { startLazy } from '../lazy/index.ts'
import { canonicalRoot } from '../trust/store.ts'
import { debounce } from '../watch/debounce.ts'
import { watchFiles } from '../watch/files.ts'
import { createQueue } from '../watch/queue.ts'
import { projectOf, watchAgents } from './agents.ts'
import { holdFirstStep } from './first-step.ts'
import { createLog } from './log.ts'
import { remountLostSessions } from './lost-session.ts'
import { createMountTable } from './mounts.ts'
import type { Options } from './options.ts'
import { createProjects } from './projects.ts'
import { createReconciler } from './reconcile.ts'
import { createReports } from './report.ts'
import { createSettle } from './settle.ts'
import { createRuntimeState, late, signal, visibleFor as viewsOf } from './state.ts'
import { createStatusWriter, type Snapshot } from './status.ts'
import { tellAgents, terminalNotice } from './tell.ts'
import { createTrustGate } from './trust-gate.ts'
import { createVisibility } from './visibility.ts'
import type { WebSource } from './web.ts'

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
  // Edges: the log, where files live, the trust gate over the store.
  const log = createLog(ctx)
  const loc = defaultLocations(process.env, options.dshHome ? { dshHome: options.dshHome } : undefined)
  const gate = createTrustGate({ mode: options.trust, dshHome: loc.dshHome, env: process.env, log })
  const rootOfDir = (dir: string) => projectRootOf(canonicalRoot(dir), loc).root
  const hostRoot = rootOfDir(options.cwd ?? process.cwd())

  // One state object; what an agent may see is read from its plan.
  const state = createRuntimeState()
  const visibleFor = viewsOf(state)
  // Services created before their listeners notify through signals, connected below.
  const wanted = signal()
  const mountsChanged = signal()
  const lazyChanged = signal()
  const expired = signal<string>()
  // File edits settle for `debounceMs`; a new project's reconcile starts from a macrotask (kept alive: it is awaited).
  const edited = debounce(() => wanted.fire(), options.debounceMs)
  const kick = debounce(() => wanted.fire(), 0, { keepAlive: true })

  const status = createStatusWriter(loc.dshHome, log)
  // One fork per effective server; a name held by an mcp-client not ours is retried under a new one, a bounded number of times.
  const mounts = createMountTable(ctx, {
    mountTimeoutMs: options.mountTimeoutMs,
    dshHome: loc.dshHome,
    log,
    onChange: () => mountsChanged.fire(),
    onNameTaken: (key) => {
      const n = (state.renames.get(key) ?? 0) + 1
      state.renames.set(key, n)
      if (n > MAX_RENAMES || state.disposed) return
      state.retryKeys.add(key)
      wanted.fire()
    },
  })
  // Visibility and lazy servers need each other: dormant servers own their cached tools; lazy servers ask what is registered.
  const lazyRef = late<LazyServers>('the lazy servers')
  const visibility = createVisibility(ctx, { ownership: () => ownership(lazyRef.get().owners(mounts.owners())), visibleFor }, log)
  // Lazy servers (src/lazy): cached tools while stopped, started by their first call, released when idle.
  const { servers: lazy, recorder } = startLazy(ctx, {
    mounts,
    dshHome: loc.dshHome,
    log,
    registered: () => visibility.registered(),
    rootOf: (agent) => visibility.rootOf(agent),
    visibleFor,
    onChange: () => lazyChanged.fire(),
  })
  lazyRef.set(lazy)
  const projects = createProjects({
    loc,
    legacyMcpJson: options.legacyMcpJson,
    userLayer: options.userLayer,
    graceMs: options.graceMs,
    log,
    onExpire: (root) => expired.fire(root),
  })
  state.userLayers = projects.loadUser()
  const reports = createReports({ plan: () => state.plan, projects, mounts, lazy, defaultLifecycle: options.defaultLifecycle, visibility, status, log, disposed: () => state.disposed })
  const watcher = options.watch ? watchFiles({ onChange: () => edited.trigger(), onError: (e) => log.debug('watcher: %s', String(e)) }) : undefined
  const reconciler = createReconciler({ state, options, dshHome: loc.dshHome, gate, projects, mounts, lazy, visibility, reports, watcher })
  const queue = createQueue(reconciler.run, (error) => log.error('reconcile failed: %s', String(error)))
  const settle = createSettle({ delays: [edited, kick], queue, mounts, status })

  // Connect the signals: every listener exists now.
  wanted.on(() => void queue.request())
  mountsChanged.on(() => {
    if (state.disposed) return
    visibility.refresh()
    reports.schedule()
    recorder.schedule()
  })
  lazyChanged.on(() => {
    if (state.disposed) return
    visibility.refresh()
    reports.schedule()
  })
  expired.on((root) => {
    log.info('project %s has had no agent for %d ms: releasing its servers', root, options.graceMs)
    reports.released(root)
    wanted.fire()
  })

  // Host events, in this order: lost HTTP sessions; the agent's notice (outermost: it explains the assembly that waited); the first-step hold; agents joining and leaving.
  remountLostSessions(ctx, { state, mounts, log, changed: () => reports.schedule(), reconcile: () => wanted.fire() })
  tellAgents(ctx, {
    explained: (agent) => {
      const root = visibility.rootOf(agent)
      return root === undefined ? undefined : reports.explained(root)
    },
    notify: terminalNotice(log),
    log,
  })
  const firstPending = new WeakSet<Agent>()
  const firstNow = new WeakSet<Agent>()
  const keysOf = (agent: Agent) => visibleFor(visibility.rootOf(agent) ?? null).keys()
  // A step also waits while one of its lazy servers starts or stops (its tools are briefly absent then); dormant ones never hold it.
  const lazyPending = (agent: Agent) => lazy.pendingFor(keysOf(agent))
  holdFirstStep(ctx, {
    waitMs: options.firstStepWaitMs,
    isFirst: (agent) => firstPending.has(agent) || lazyPending(agent) !== undefined,
    markDone: (agent) => {
      if (firstPending.delete(agent)) firstNow.add(agent)
    },
    pending: (agent) => {
      const mounting = firstNow.delete(agent) ? settle.pendingFor(() => keysOf(agent)) : undefined
      const starting = lazyPending(agent)
      return mounting && starting ? Promise.all([mounting, starting]).then(() => undefined) : (mounting ?? starting)
    },
    log,
  })
  watchAgents(ctx, {
    log,
    add(agent) {
      if (state.disposed) return
      const root = projectOf(ctx, agent, { rootOfDir, rootOfAgent: (a) => visibility.rootOf(a), hostRoot: () => hostRoot })
      const isNew = projects.ensure(root)
      projects.attach(root, agent)
      // Plan the new project now (its agents' first view must be right; the memo judges only it); the full reconcile follows.
      if (isNew) reconciler.planNew()
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

  // Start: the host's own project is pinned; the first reconcile reads everything.
  projects.ensure(hostRoot, { pinned: true })
  wanted.fire()

  return {
    service: {
      snapshot: reports.snapshot,
      async reload() {
        state.retryFailed = true
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
      state.disposed = true
      edited.cancel()
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
