/**
 * The runtime: projects → plan → mounts → visibility → status, kept current.
 *
 * Contract: `startRuntime` wires the services in dependency order and owns
 * nothing else: the state is one object (state.ts), the reconcile step is
 * reconcile.ts, run one at a time by the queue; agents are tracked by
 * agent-tracking.ts, and `dispose` releases everything in the order
 * shutdown.ts states. A service created before the ones it notifies sends a
 * signal (state.ts) that the wiring connects once every listener exists;
 * no callback reaches a service declared after it, except through `late`
 * (visibility and the lazy servers need each other).
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import { defaultLocations, projectRootOf } from '../files/read.ts'
import { ownership } from '../plan/visibility.ts'
import type { LazyServers } from '../lazy/servers.ts'
import { startLazy } from '../lazy/index.ts'
import { canonicalRoot } from '../trust/store.ts'
import { debounce } from '../watch/debounce.ts'
import { watchFiles } from '../watch/files.ts'
import { createQueue } from '../watch/queue.ts'
import { trackAgents } from './agent-tracking.ts'
import { createLog } from './log.ts'
import { remountLostSessions } from './lost-session.ts'
import { createMountTable } from './mounts.ts'
import type { Options } from './options.ts'
import { createProjects } from './projects.ts'
import { createReconciler, retryRenamed } from './reconcile.ts'
import { createReports } from './report.ts'
import { createSettle } from './settle.ts'
import { shutdown } from './shutdown.ts'
import { createRuntimeState, createSignals, late, visibleFor as viewsOf } from './state.ts'
import { createStatusWriter, type Snapshot } from './status.ts'
import { createProjectEnv } from './project-env.ts'
import { createTeamGate } from './team-gate.ts'
import { createTrustGate } from './trust-gate.ts'
import { createVisibility, type VisibilityGuard } from './visibility.ts'
import { globalDefinitions } from './visibility-listing.ts'
import { guardExecution } from './exec-guard.ts'
import { createToolPins, type ToolPinGuard } from './tool-pins.ts'
import { redactResults } from './result-redact.ts'
import { createBudget } from './budget.ts'
import { trackBudget } from './budget-search.ts'
import type { WebSource } from './web.ts'

export interface ProjectMcp {
  /** Projects → servers, as of now (in memory). */
  snapshot(): Snapshot
  /** Re-read every file and reconcile; failed servers are tried again. Resolves when that reconcile ran. */
  reload(): Promise<void>
  /** Resolves once queued reconciles, mounts, unmounts and status writes have settled. */
  whenIdle(): Promise<void>
  /** Internal debug hook (tests, bench): reconcile runs and visibility refresh passes so far. */
  counters(): RuntimeCounters
}

export interface RuntimeCounters {
  reconciles: number
  refreshPasses: number
}

export interface Runtime {
  service: ProjectMcp
  /** What the `dsh web` route reads (web.ts). */
  web: WebSource
  dispose(): Promise<void>
}

export function startRuntime(ctx: Context, options: Options): Runtime {
  // Edges first: every service logs, and reads files and trust from these places.
  const log = createLog(ctx)
  const loc = defaultLocations(process.env, options.dshHome ? { dshHome: options.dshHome } : undefined)
  // The trust gate and the team gate ask each other: a signed row is not warned about; a revocation lives in the store.
  const gate = createTrustGate({
    mode: options.trust,
    dshHome: loc.dshHome,
    env: process.env,
    log,
    team: (root, row) => team.check(root, row),
  })
  const team = createTeamGate({ env: process.env, log, revoked: (root, name) => gate.revoked(root, name) })
  // What the host took from the checkout's `.env`: no server inherits it, and `${VAR}` does not read it.
  const dotenv = createProjectEnv(ctx, log)
  const rootOfDir = (dir: string) => projectRootOf(canonicalRoot(dir), loc).root
  const hostRoot = rootOfDir(options.cwd ?? process.cwd())
  // One state object; what an agent may see is read from its plan.
  const state = createRuntimeState()
  const visibleFor = viewsOf(state)
  // Services created before their listeners notify through signals, connected once every listener exists.
  const signals = createSignals()
  // File edits settle for `debounceMs`; a new project's reconcile starts from a macrotask (kept alive: it is awaited).
  const edited = debounce(() => signals.wanted.fire(), options.debounceMs)
  const kick = debounce(() => signals.wanted.fire(), 0, { keepAlive: true })
  // The status files: the reports below write them, dispose waits for them.
  const status = createStatusWriter(loc.dshHome, log)
  // One fork per effective server; a name held by an mcp-client not ours is retried under a new one, a bounded number of times.
  const onNameTaken = (key: string) => {
    if (retryRenamed(state, key)) signals.wanted.fire()
  }
  const mounts = createMountTable(ctx, {
    mountTimeoutMs: options.mountTimeoutMs,
    dshHome: loc.dshHome,
    log,
    projectEnv: dotenv.names,
    checkouts: () => [hostRoot, ...state.plan.projects.keys()],
    onChange: () => signals.changed.fire('mounts'),
    onNameTaken,
  })
  // Visibility and lazy servers need each other: dormant servers own their cached tools; lazy servers ask what is registered.
  const lazyRef = late<LazyServers>('the lazy servers')
  const own = () => ownership(lazyRef.get().owners(mounts.owners()))
  // The context budget: per agent, tools above `toolBudget` wait behind its own `mcp_tool_search` (a per-agent deny).
  const visibilityRef = late<VisibilityGuard>('visibility')
  const budget = createBudget({
    ctx,
    toolBudget: options.toolBudget,
    ownership: own,
    placementsFor: (root) => (root === null ? state.plan.global : (state.plan.projects.get(root) ?? state.plan.global)),
    refresh: (agent) => visibilityRef.get().refreshAgent(agent),
    // After the reports exist (a decision is only made for a tracked agent, from a later pass).
    changed: () => reports.schedule(),
    log,
  })
  const pinsRef = late<ToolPinGuard>('the tool pins')
  const model = {
    ownership: own,
    visibleFor,
    withheld: (root: string | null, names: readonly string[]) => pinsRef.get().withheld(root, names),
    withheldVersion: () => gate.pinsVersion(),
    ...(options.toolBudget > 0 ? { agentDeny: budget.deferredFor } : {}),
  }
  const visibility = createVisibility(ctx, model, log)
  visibilityRef.set(visibility)
  trackBudget(ctx, budget, (agent) => visibility.rootOf(agent))
  // Pinned tool definitions: a trusted server's tools changed or added since trust are withheld from its project's agents.
  const pins = createToolPins({
    ctx,
    dshHome: loc.dshHome,
    pinned: (root, name) => gate.pinned(root, name),
    plan: () => state.plan,
    ownership: model.ownership,
    registered: () => visibility.registered(),
    spec: (key) => mounts.mounts.get(key)?.spec ?? lazyRef.get().get(key)?.spec,
    settled(key) {
      const m = mounts.mounts.get(key)
      return m ? m.state === 'mounted' : lazyRef.get().get(key)?.state === 'dormant'
    },
    log,
    onChange: () => reports.schedule(),
  })
  pinsRef.set(pins)
  ctx.on('tools/change', () => pins.schedule())
  // Beside the restrictions: a call from an agent that does not see the tool never reaches a server (owned by ctx's fiber).
  guardExecution(
    ctx,
    model,
    (agent) => visibility.rootOf(agent),
    (root, name) => pins.isWithheld(root, name),
  )
  // What our tools return to the model, redacted with their server's secrets (eager servers; lazy ones too once live).
  redactResults(ctx, mounts)
  // Lazy servers (src/lazy): cached tools while stopped, started by their first call, released when idle.
  const {
    servers: lazy,
    recorder,
    cacheSecret,
  } = startLazy(ctx, {
    mounts,
    dshHome: loc.dshHome,
    log,
    registered: () => visibility.registered(),
    definitions: () => globalDefinitions(ctx),
    rootOf: (agent) => visibility.rootOf(agent),
    visibleFor,
    settled: () => visibility.settled(),
    onChange: () => signals.changed.fire('lazy'),
  })
  lazyRef.set(lazy)
  // Known projects and their files, the user file read now; a project without agents expires after `graceMs`.
  const projects = createProjects({
    loc,
    legacyMcpJson: options.legacyMcpJson,
    userLayer: options.userLayer,
    graceMs: options.graceMs,
    log,
    onExpire: (root) => signals.expired.fire(root),
  })
  state.userLayers = projects.loadUser()
  // Snapshots, explanations and status writes, read from the plan, the mounts and the lazy servers.
  const reports = createReports({
    plan: () => state.plan,
    projects,
    mounts,
    lazy,
    defaultLifecycle: options.defaultLifecycle,
    visibility,
    status,
    log,
    disposed: () => state.disposed,
    detail: (root, name) => pins.detail(root, name),
    budget: { toolBudget: options.toolBudget, tokensOf: budget.tokensOf, agents: budget.agents },
  })
  // Known files are watched (when `watch` is on): an edit reaches the reconcile through the edit debounce.
  const watcher = options.watch
    ? watchFiles({ onChange: () => edited.trigger(), onError: (e) => log.debug('watcher: %s', String(e)) })
    : undefined
  // The reconcile step needs every service above; the queue runs it one at a time; settle knows when all of it is idle.
  const reconciler = createReconciler({
    state,
    options,
    dshHome: loc.dshHome,
    cacheSecret,
    gate,
    team,
    projects,
    mounts,
    lazy,
    visibility,
    reports,
    watcher,
    dotenv,
  })
  // After each reconcile (a trust store change brings new pins) the tool pins look again.
  const queue = createQueue(
    () => reconciler.run().finally(() => pins.schedule()),
    (error) => log.error('reconcile failed: %s', String(error)),
  )
  const settle = createSettle({ delays: [edited, kick], queue, mounts, status })

  // Connect the signals: every listener exists now. A mount change also records the fork's tools into the cache.
  signals.wanted.on(() => void queue.request())
  signals.changed.on((what) => {
    if (state.disposed) return
    visibility.refresh()
    reports.schedule()
    if (what === 'mounts') recorder.schedule()
    pins.schedule()
  })
  signals.expired.on((root) => {
    log.info('project %s has had no agent for %d ms: releasing its servers', root, options.graceMs)
    reports.released(root)
    signals.wanted.fire()
  })

  // Host events: a lost HTTP session remounts its server; agents are told why a server does not run, their first step waits, they join and leave.
  remountLostSessions(ctx, {
    state,
    mounts,
    log,
    changed: () => reports.schedule(),
    reconcile: () => signals.wanted.fire(),
  })
  trackAgents(ctx, {
    state,
    projects,
    visibility,
    lazy,
    settle,
    visibleFor,
    explained: (root) => reports.explained(root),
    planNew: () => reconciler.planNew(),
    kick: () => kick.trigger(),
    rootOfDir,
    hostRoot,
    firstStepWaitMs: options.firstStepWaitMs,
    log,
  })

  // Start: the host's own project is pinned; the first reconcile reads everything.
  projects.ensure(hostRoot, { pinned: true })
  signals.wanted.fire()

  // The service: `reload()` retries the failed servers in the reconcile it asks for.
  const reload = async () => {
    state.retryFailed = true
    await queue.request()
  }
  return {
    service: {
      snapshot: reports.snapshot,
      reload,
      whenIdle: settle.whenIdle,
      counters: () => ({ reconciles: reconciler.runs, ...visibility.counters() }),
    },
    web: { view: () => reports.web(null), onChange: reports.onWrite },
    dispose() {
      budget.dispose()
      pins.dispose()
      return shutdown({
        state,
        delays: [edited, kick],
        queue,
        visibility,
        lazy,
        recorder,
        reports,
        projects,
        watcher,
        mounts,
        status,
      })
    },
  }
}
