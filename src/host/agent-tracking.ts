/**
 * Agents the runtime tracks: what each is told, the wait of its first step,
 * its project and its view.
 *
 * Contract: `trackAgents` registers, in this order, the agent's notice and
 * prompt lines (tell.ts; outermost: it explains the assembly that waited),
 * the first-step hold (first-step.ts) and the agent lifecycle (agents.ts).
 * An agent is told about its own project only (`explained(root)` for the
 * root it is tracked under; an untracked agent is told nothing). A joining
 * agent is attached to its project (agents.ts `projectOf`) synchronously: a
 * project new to the runtime is planned on the spot (`planNew`) so its
 * agents' very first view is right, the agent's deny set is applied
 * (`visibility.track`), and only then is the new project's full reconcile
 * asked for (`kick`, which runs it from a macrotask, never inside
 * `ctx.agents.create`). An agent's first assembly waits for its project's
 * pending reconciles and mounts (settle.ts `pendingFor`); any assembly also
 * waits while one of its lazy servers starts or stops (its tools are
 * briefly absent then; dormant ones never hold it). A leaving agent is
 * untracked and detached from its project. Nothing is tracked once the
 * state is disposed.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { LazyServers } from '../lazy/servers.ts'
import type { Visible } from '../plan/visibility.ts'
import { projectOf, watchAgents } from './agents.ts'
import { holdFirstStep } from './first-step.ts'
import type { Log } from './log.ts'
import type { Projects } from './projects.ts'
import type { Settle } from './settle.ts'
import type { RuntimeState } from './state.ts'
import { type Explained, tellAgents, terminalNotice } from './tell.ts'
import type { VisibilityGuard } from './visibility.ts'

export interface TrackingDeps {
  state: RuntimeState
  projects: Projects
  visibility: VisibilityGuard
  lazy: LazyServers
  settle: Settle
  visibleFor(root: string | null): Visible
  /** Why the servers of a project's view do not run (report.ts). */
  explained(root: string | null): Explained
  /** Plan from the files as last read (a new project's first view). */
  planNew(): void
  /** Ask for a reconcile from a macrotask. */
  kick(): void
  /** The project root of a directory. */
  rootOfDir(dir: string): string
  /** The host's own project: an agent with no directory and no owner belongs to it. */
  hostRoot: string
  firstStepWaitMs: number
  log: Log
}

export function trackAgents(ctx: Context, deps: TrackingDeps): void {
  const { state, projects, visibility, lazy, settle, log } = deps
  tellAgents(ctx, {
    explained: (agent) => {
      const root = visibility.rootOf(agent)
      return root === undefined ? undefined : deps.explained(root)
    },
    notify: terminalNotice(log),
    log,
  })
  /** Agents whose first assembly has not happened yet. */
  const firstPending = new WeakSet<Agent>()
  /** Agents in their first assembly: the one that waits for the project's mounts. */
  const firstNow = new WeakSet<Agent>()
  const keysOf = (agent: Agent) => deps.visibleFor(visibility.rootOf(agent) ?? null).keys()
  const lazyPending = (agent: Agent) => lazy.pendingFor(keysOf(agent))
  holdFirstStep(ctx, {
    waitMs: deps.firstStepWaitMs,
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
      const root = projectOf(ctx, agent, {
        rootOfDir: deps.rootOfDir,
        rootOfAgent: (a) => visibility.rootOf(a),
        hostRoot: () => deps.hostRoot,
      })
      const isNew = projects.ensure(root)
      projects.attach(root, agent)
      // Plan the new project now (its agents' first view must be right; the memo judges only it); the full reconcile follows.
      if (isNew) deps.planNew()
      firstPending.add(agent)
      visibility.track(agent, root)
      log.debug('agent %s joined project %s', agent.id, root)
      if (isNew) deps.kick()
    },
    remove(agent) {
      const root = visibility.rootOf(agent)
      visibility.untrack(agent)
      firstPending.delete(agent)
      if (root) projects.detach(root, agent)
    },
  })
}
