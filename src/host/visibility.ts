/**
 * Visibility: every tracked agent is denied every MCP tool that is not its
 * project's (docs/guide/visibility.md), on creation and after every registry change.
 *
 * Contract: `track` applies the agent's deny set synchronously (from inside
 * `agent/created`, so the agent never sees a foreign tool), deriving that
 * agent's set alone (every other agent is re-derived by the change that
 * concerns it, not by a new neighbour); a `tools/change`
 * listener re-derives every agent's set, so a tool registered later is denied
 * inside the very `register()` call that added it. An update applies the new
 * restriction before lifting the old one, so no instant exists in which
 * neither holds. Restricting re-enters `tools/change`: the re-entrant call
 * runs the pass's remaining updates first, so a listener after ours never
 * observes an agent that is still waiting for its update (up to
 * `MAX_NESTING` agents deep; beyond that the rest follow iteratively, still
 * inside the same `register()` call). Only currently registered names are
 * ever denied. The registered MCP names are listed once per `tools/change`
 * we did not cause ourselves (rc.8 lists names only through `schemas()`,
 * which copies every schema), and not at all while no agent is tracked;
 * within one pass each visible view's deny set is derived once. A burst of
 * changes (more than `BURST_CHANGES` in one macrotask: a server registering
 * thousands of tools) is not handled one by one, which would cost the
 * square of its size: each agent is restricted to what it already sees
 * (`allow`), and one pass in the next macrotask applies the new deny sets
 * before lifting that freeze.
 * `model.agentDeny`, when given, adds one agent's own names to its view's
 * deny set (the context budget's deferred tools), asked on every pass.
 * Nothing here throws: a failing restrict is logged and the agent retried on
 * the next change. Restrictions die with their agent, or on `dispose`.
 *
 * @module
 */
import { type Context, symbols } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { denySet, type Ownership, type Visible } from '../plan/visibility.ts'
import type { Log } from './log.ts'

export interface VisibilityModel {
  ownership(): Ownership
  /** What an agent of `root` may see (`null`: no project — the global view). */
  visibleFor(root: string | null): Visible
  /** A per-agent filter on top of the view (the context budget's deferred tools: host/budget.ts). */
  agentDeny?(
    agent: Agent,
    root: string | null,
    names: readonly string[],
    denied: ReadonlySet<string>,
  ): readonly string[]
}

/** Nesting bound for re-entrant updates (each costs a few stack frames). */
const MAX_NESTING = 200

/**
 * Registry changes not ours handled one at a time within one macrotask. Each costs a listing of every
 * tool, so a server registering thousands at once would cost the square; past this many, the burst
 * freezes every agent to what it already sees and is settled by one pass once the task is over.
 */
const BURST_CHANGES = 32

interface Tracked {
  root: string | null
  lift: (() => void) | undefined
  denied: ReadonlySet<string>
}

export interface VisibilityGuard {
  track(agent: Agent, root: string | null): void
  untrack(agent: Agent): void
  rootOf(agent: Agent): string | null | undefined
  /** Re-derive every agent's deny set now. */
  refresh(): void
  /** Registered MCP tool names (cached between registry changes). */
  registered(): string[]
  dispose(): void
}

export function createVisibility(ctx: Context, model: VisibilityModel, log: Log): VisibilityGuard {
  const agents = new Map<Agent, Tracked>()
  /** Pending per-agent updates of the current pass. */
  const work: (() => void)[] = []
  let running = false
  let again = false
  let depth = 0
  let disposed = false
  /** >0 while our own restrict/lift runs: the emissions it causes never change the registered set. */
  let selfDepth = 0
  /** Registered MCP tool names; dropped on every `tools/change` we did not cause (`schemas()` clones every schema). */
  let cache: string[] | undefined
  /** Every global tool name of the last listing (MCP or not): what a freeze keeps visible. */
  let listed: readonly string[] = []
  /** Changes not ours in this macrotask (reset by the next one). */
  let burst = 0
  /** While a burst is frozen: each agent's freeze, lifted once the settling pass has restricted it. */
  let frozen: Map<Agent, () => void> | undefined

  /**
   * The registry itself (cordis `symbols.original`), not the per-access proxy `ctx.tools` hands out:
   * the same `schemas()`, at half the cost (the proxy is re-entered for every tool). Fetched per
   * listing, so a reloaded tools service is followed; the proxy serves when there is no original.
   */
  const tools = (): Pick<Context['tools'], 'schemas'> => {
    const proxy = ctx.tools
    const raw = (proxy as unknown as Record<symbol, Partial<Context['tools']> | undefined>)[symbols.original]
    return typeof raw?.schemas === 'function' ? (raw as Pick<Context['tools'], 'schemas'>) : proxy
  }

  const registered = (): string[] => {
    if (cache) return cache
    const names: string[] = []
    const all: string[] = []
    for (const s of tools().schemas()) {
      all.push(s.name)
      if (s.name.startsWith('mcp__')) names.push(s.name)
    }
    cache = names
    listed = all
    return names
  }
  const asSelf = <T>(fn: () => T): T => {
    selfDepth++
    try {
      return fn()
    } finally {
      selfDepth--
    }
  }

  /** One pass's inputs: the registered names (and their set), the ownership, and each visible view's deny set. */
  interface Pass {
    names: readonly string[]
    current: ReadonlySet<string>
    own: Ownership
    /** Deny list and set per visible object (memoized by the model, so identity-stable within the pass). */
    denied: Map<Visible, { deny: readonly string[]; next: ReadonlySet<string> }>
  }

  /** The update `agent` needs, or undefined when its restriction is already right. */
  const updateFor = (agent: Agent, t: Tracked, pass: Pass): (() => void) | undefined => {
    const visible = model.visibleFor(t.root)
    let derived = pass.denied.get(visible)
    if (!derived) {
      const deny = denySet(pass.names, pass.own, visible)
      derived = { deny, next: new Set(deny) }
      pass.denied.set(visible, derived)
    }
    const extra = model.agentDeny?.(agent, t.root, pass.names, derived.next) ?? []
    const deny = extra.length > 0 ? [...derived.deny, ...extra] : derived.deny
    const next = extra.length > 0 ? new Set(deny) : derived.next
    const missing = deny.some((n) => !t.denied.has(n))
    const stale = [...t.denied].some((n) => pass.current.has(n) && !next.has(n))
    if (!missing && !stale) return undefined
    return () => {
      if (agents.get(agent) !== t) return
      try {
        // Each agent gets its own list: `restrict` may keep it.
        const lift = deny.length > 0 ? asSelf(() => agent.ctx.tools.restrict({ deny: [...deny] })) : undefined
        const old = t.lift
        t.lift = lift
        t.denied = next
        if (old) asSelf(old)
      } catch (error) {
        log.debug('could not restrict agent %s: %s', agent.id, String(error))
      }
    }
  }

  /**
   * Run pending updates. Each restrict emits `tools/change` synchronously and
   * re-enters here, so the nested call runs the remaining updates before any
   * later listener of that emission looks: by then every agent is covered.
   */
  const drain = () => {
    while (work.length > 0) {
      const job = work.shift()!
      depth++
      try {
        job()
      } finally {
        depth--
      }
    }
  }

  /**
   * Queue the updates of every agent, or of `only` (a new agent: nothing else
   * changed); `front` puts them before the pass's pending updates (an agent
   * tracked mid-pass goes first).
   */
  const plan = (only?: Agent, front = false) => {
    // No agent: nothing to derive, and no listing (it is built again on demand).
    if (agents.size === 0) return
    const names = registered()
    const pass: Pass = { names, current: new Set(names), own: model.ownership(), denied: new Map() }
    const jobs: (() => void)[] = []
    for (const [agent, t] of only ? ([[only, agents.get(only)!]] as const) : agents) {
      const job = updateFor(agent, t, pass)
      if (job) jobs.push(job)
    }
    if (front) work.unshift(...jobs)
    else work.push(...jobs)
  }

  /** `tools/change`: our own restrict/lift needs no new pass (the registered set did not change). */
  const onChange = () => {
    if (selfDepth > 0) {
      if (running && depth < MAX_NESTING) drain()
      return
    }
    cache = undefined
    // A frozen agent sees nothing registered since the freeze: the settling pass covers this change.
    if (frozen) return
    if (++burst === 1) setImmediate(() => (burst = 0)).unref()
    if (burst > BURST_CHANGES && freeze()) return
    refresh()
  }

  /**
   * Restrict `agent` to the names it sees now (`listed` minus its deny set, and within `known`); undefined when
   * that cannot be done. An agent that sees none of them is held by allowing one it is denied: the two
   * restrictions intersect to nothing, and nothing registered later is in either.
   */
  const freezeOne = (agent: Agent, t: Tracked, known?: ReadonlySet<string>): (() => void) | undefined => {
    // `known`: the names of the listing `t.denied` was derived from; one registered since is in neither, so not seen.
    const seen = listed.filter((n) => !t.denied.has(n) && (!known || known.has(n)))
    const held = listed.find((n) => t.denied.has(n))
    const allow = seen.length > 0 ? seen : held === undefined ? [] : [held]
    if (allow.length === 0) return undefined
    try {
      return asSelf(() => agent.ctx.tools.restrict({ allow }))
    } catch (error) {
      log.debug('could not freeze agent %s: %s', agent.id, String(error))
      return undefined
    }
  }

  const liftAll = (lifts: Iterable<() => void>) => {
    for (const lift of lifts) {
      try {
        asSelf(lift)
      } catch {
        // the agent is already gone with its restriction: nothing to lift
      }
    }
  }

  /**
   * Freeze every agent for the rest of a burst; false when there is nothing to freeze. When some agent
   * cannot be frozen, this change is handled by a full pass (and the next ones one at a time, as before). Settled from the next macrotask: one pass applies the
   * new deny sets, then the freezes are lifted, so no instant shows an agent a tool not its own.
   */
  const freeze = (): boolean => {
    if (agents.size === 0 || running) return false
    // What each agent is held to must be registered now: a server re-syncing unregisters all its tools first, and an
    // allow naming one of them fails (each failure a full pass per change: the square again). One listing per freeze.
    const known = new Set(listed)
    cache = undefined
    registered()
    const lifts = new Map<Agent, () => void>()
    let failed = false
    // Queued like a pass's updates: each restrict re-enters `tools/change`, which drains the rest first, so a
    // listener after ours never sees an agent not frozen yet.
    for (const [agent, t] of agents) {
      work.push(() => {
        if (failed || agents.get(agent) !== t) return
        const lift = freezeOne(agent, t, known)
        if (lift) lifts.set(agent, lift)
        else failed = true
      })
    }
    running = true
    try {
      drain()
    } finally {
      work.length = 0
      running = false
    }
    if (failed) {
      // The freezes made so far are lifted only after the pass has denied the new tools (restrict, then lift).
      refresh()
      liftAll(lifts.values())
      return true
    }
    frozen = lifts
    setImmediate(thaw)
    return true
  }

  /** End a freeze: the pass restricts every agent to its project first, then the freezes are lifted. */
  const thaw = () => {
    const held = frozen
    frozen = undefined
    burst = 0
    if (!held) return
    cache = undefined
    refresh()
    liftAll(held.values())
  }

  /** A full pass; with `only`, its first round covers just that agent (later rounds, after a change mid-pass, cover all). */
  const refresh = (only?: Agent) => {
    if (disposed) return
    if (running) {
      again = true
      if (depth < MAX_NESTING) drain()
      return
    }
    running = true
    try {
      for (let round = 0; round < 8; round++) {
        again = false
        plan(round === 0 ? only : undefined)
        drain()
        if (!again) break
      }
    } catch (error) {
      log.debug('visibility pass failed: %s', String(error))
    } finally {
      work.length = 0
      running = false
    }
  }

  ctx.on('tools/change', onChange)

  return {
    track(agent, root) {
      if (disposed || agents.has(agent)) return
      const t: Tracked = { root, lift: undefined, denied: new Set() }
      agents.set(agent, t)
      if (running) {
        plan(agent, true)
        again = true
        if (depth < MAX_NESTING) drain()
        return
      }
      // Every other agent is current: each registry, mount and plan change runs its own pass.
      refresh(agent)
      // Mid-burst, later changes are not handled one by one: this agent is frozen like the others.
      if (frozen) {
        const lift = freezeOne(agent, t)
        // One that cannot be frozen ends the freeze now: the changes after it are handled one by one again.
        if (lift) frozen.set(agent, lift)
        else thaw()
      }
    },
    untrack(agent) {
      const t = agents.get(agent)
      if (!t) return
      agents.delete(agent)
      const freezing = frozen?.get(agent)
      frozen?.delete(agent)
      if (freezing) liftAll([freezing])
      try {
        if (t.lift) asSelf(t.lift)
      } catch {
        // the agent is already gone with its restriction: nothing to lift
      }
    },
    registered: () => registered(),
    rootOf: (agent) => agents.get(agent)?.root,
    refresh: () => refresh(),
    dispose() {
      disposed = true
      work.length = 0
      if (frozen) liftAll(frozen.values())
      frozen = undefined
      for (const t of agents.values()) {
        try {
          if (t.lift) asSelf(t.lift)
        } catch {
          // the agent is already gone with its restriction: nothing to lift
        }
      }
      agents.clear()
    },
  }
}
