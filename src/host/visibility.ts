/**
 * Visibility: every tracked agent is denied every MCP tool that is not its
 * project's (docs/guide/visibility.md), on creation and after every registry change.
 *
 * Contract: `track` applies the agent's deny set synchronously (from inside
 * `agent/created`, so the agent never sees a foreign tool), deriving that
 * agent's set alone. A `tools/change` we did not cause ourselves is applied
 * inside the very `register()` call that caused it, incrementally: the
 * registered names are listed once (visibility-listing.ts) and only the
 * names it added are judged — each agent is denied those its view must not
 * see (visibility-pass.ts); a change that only removed names needs nothing.
 * A burst of changes in one macrotask (visibility-burst.ts) freezes every
 * agent to what it already sees and is settled the same way from the next
 * macrotask. `refresh()` asks for a full pass (the plan, a mount or a lazy
 * server changed: ownership or views moved) and coalesces: it marks the
 * guard dirty and one pass runs once the current synchronous step is over
 * (a microtask: no I/O callback runs before it), skipped when neither any
 * tracked agent's view nor the owner of any registered tool (as that pass
 * saw the owners, or now) changed since the last full pass. `counters()`
 * reports the full passes `refresh()` ran (a debug hook for tests and the
 * bench). `refreshAgent(agent)` re-derives one agent at once (its own
 * filter, `model.agentDeny`, changed). `settled()` resolves once no burst
 * freeze holds and no `refresh()` pass is pending (at once when none is, or
 * when disposed): a name registered mid-burst is seen by no agent until the
 * freeze ends, so a caller about to dispatch to a tool just registered (a
 * woken lazy server's, src/lazy/wake.ts) awaits it first. Only registered names are ever
 * denied. Nothing here throws. `dispose()` is the one release: the
 * `tools/change` listener, the pending pass, every freeze and every
 * agent's restriction; nothing runs after it.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { ownerIndex } from '../plan/tool-names.ts'
import type { Owners, Visible } from '../plan/visibility.ts'
import type { Log } from './log.ts'
import { Burst } from './visibility-burst.ts'
import { Listing } from './visibility-listing.ts'
import { Passes, type Tracked, type VisibilityModel } from './visibility-pass.ts'

export type { VisibilityModel } from './visibility-pass.ts'

export interface VisibilityCounters {
  /** Full passes `refresh()` requests ran (coalesced: at most one per synchronous step, none when nothing moved). */
  refreshPasses: number
}

export interface VisibilityGuard {
  track(agent: Agent, root: string | null): void
  untrack(agent: Agent): void
  rootOf(agent: Agent): string | null | undefined
  /** Ownership or views changed: one full pass follows (coalesced with the other requests of this step). */
  refresh(): void
  /** One agent's own filter changed (`model.agentDeny`: the context budget revealed tools): re-derive it now. */
  refreshAgent(agent: Agent): void
  /** Resolves once no burst freeze holds and no refresh pass is pending: every agent sees what its view allows. */
  settled(): Promise<void>
  /** Registered MCP tool names (cached between registry changes). */
  registered(): string[]
  counters(): VisibilityCounters
  dispose(): void
}

export function createVisibility(ctx: Context, model: VisibilityModel, log: Log): VisibilityGuard {
  return new Visibility(ctx, model, log)
}

class Visibility implements VisibilityGuard {
  readonly #model: VisibilityModel
  readonly #passes: Passes
  readonly #burst: Burst
  readonly #off: () => void
  #disposed = false
  /** A `refresh()` is waiting for its pass. */
  #dirty = false
  #pending = false
  /** What the last full pass derived from: every owner, and each root's view. */
  #seen: { owners: Map<string, string | null>; views: Map<string | null, Visible>; withheld: number } | undefined
  #refreshPasses = 0
  /** Callers of `settled()` waiting for the freeze to end or the pending pass to run. */
  #waiters: (() => void)[] = []

  constructor(ctx: Context, model: VisibilityModel, log: Log) {
    this.#model = model
    this.#passes = new Passes(new Listing(ctx), model, log)
    this.#burst = new Burst(
      this.#passes,
      (before) => this.#settle(before),
      () => this.#notify(),
    )
    this.#off = ctx.on('tools/change', () => this.#onChange())
  }

  track(agent: Agent, root: string | null): void {
    const p = this.#passes
    if (this.#disposed || p.agents.has(agent)) return
    const t: Tracked = { root, lift: undefined, denied: new Set() }
    p.agents.set(agent, t)
    if (p.running) {
      p.front(agent)
      return
    }
    // Every other agent is current: each registry, mount and plan change runs its own pass.
    p.full(agent)
    // Mid-burst, later changes are not handled one by one: this agent is frozen like the others.
    this.#burst.join(agent, t)
  }

  untrack(agent: Agent): void {
    const p = this.#passes
    const t = p.agents.get(agent)
    if (!t) return
    p.agents.delete(agent)
    this.#burst.leave(agent)
    p.liftAll([t.lift])
  }

  rootOf(agent: Agent): string | null | undefined {
    return this.#passes.agents.get(agent)?.root
  }

  registered(): string[] {
    return this.#passes.listing.names()
  }

  settled(): Promise<void> {
    if (this.#quiet()) return Promise.resolve()
    return new Promise((resolve) => this.#waiters.push(resolve))
  }

  refresh(): void {
    if (this.#disposed) return
    this.#dirty = true
    if (this.#pending) return
    this.#pending = true
    // A microtask: the requests of one synchronous step coalesce, and no I/O callback runs before the pass.
    queueMicrotask(() => this.#flush())
  }

  refreshAgent(agent: Agent): void {
    if (this.#disposed || !this.#passes.agents.has(agent)) return
    this.#passes.full(agent)
  }

  counters(): VisibilityCounters {
    return { refreshPasses: this.#refreshPasses }
  }

  dispose(): void {
    if (this.#disposed) return
    this.#disposed = true
    this.#off()
    this.#dirty = false
    this.#passes.clear()
    this.#burst.dispose()
    const p = this.#passes
    p.liftAll([...p.agents.values()].map((t) => t.lift))
    p.agents.clear()
    this.#notify()
  }

  #quiet(): boolean {
    return this.#disposed || (!this.#pending && !this.#burst.frozen)
  }

  /** Release the `settled()` waiters once nothing is held or pending. */
  #notify(): void {
    if (this.#waiters.length === 0 || !this.#quiet()) return
    for (const resolve of this.#waiters.splice(0)) resolve()
  }

  /** `tools/change`: our own restrict/lift needs no pass (the registered set did not change). */
  #onChange(): void {
    const p = this.#passes
    if (p.self) {
      p.reenter()
      return
    }
    if (this.#disposed) return
    const before = p.listing.fresh ? p.listing.set() : undefined
    p.listing.invalidate()
    // A frozen agent sees nothing registered since the freeze: the settling step covers this change.
    if (this.#burst.frozen) return
    if (this.#burst.count() && this.#burst.freeze(before)) return
    this.#settle(before)
  }

  /** Apply a registry change: incrementally from the names listed `before` it, else by a full pass. */
  #settle(before: ReadonlySet<string> | undefined): void {
    const p = this.#passes
    // No agent: nothing to derive, and no listing (it is built again on demand).
    if (this.#disposed || p.agents.size === 0) return
    if (!before || p.running) {
      p.full()
      return
    }
    const added = p.listing.added(before)
    p.added(added)
    this.#adopt(added)
  }

  /** The one pass `refresh()` asked for, unless nothing it derives from moved since the last one. */
  #flush(): void {
    try {
      this.#pass()
    } finally {
      this.#notify()
    }
  }

  #pass(): void {
    this.#pending = false
    if (!this.#dirty || this.#disposed) return
    this.#dirty = false
    const p = this.#passes
    if (p.agents.size === 0) return
    const owners = this.#model.ownership().owners
    const views = new Map<string | null, Visible>()
    for (const t of p.agents.values()) views.set(t.root, this.#model.visibleFor(t.root))
    const withheld = this.#model.withheldVersion?.() ?? 0
    if (this.#seen?.withheld === withheld && this.#unchanged(owners, views)) return
    this.#refreshPasses++
    this.#seen = { owners: new Map(owners), views, withheld }
    p.full()
  }

  /** No view moved, and no registered tool's owner changed, since the last full pass. */
  #unchanged(owners: Owners, views: ReadonlyMap<string | null, Visible>): boolean {
    const seen = this.#seen
    if (!seen) return false
    for (const [root, visible] of views) if (seen.views.get(root) !== visible) return false
    const own = this.#model.ownership()
    // The servers a registered name belongs to, now or as the last pass saw the owners (a name no longer ours must
    // have its denial lifted: a tool not ours is never touched).
    const before = ownerIndex(seen.owners.keys())
    const servers = new Set<string>()
    for (const name of this.#passes.listing.names()) {
      const server = own.index.ownerOf(name)
      if (server !== undefined) servers.add(server)
      const earlier = before.ownerOf(name)
      if (earlier !== undefined) servers.add(earlier)
    }
    // A server with no registered tool: its last owner no longer matters (its next tools are adopted as they come).
    for (const server of [...seen.owners.keys()]) if (!servers.has(server)) seen.owners.delete(server)
    for (const server of servers) if (seen.owners.get(server) !== owners.get(server)) return false
    return true
  }

  /**
   * The servers of `added` that had no registered tool before: their tools were just judged under their current
   * owner, so the next `refresh()` need not judge them again.
   */
  #adopt(added: readonly string[]): void {
    const seen = this.#seen
    if (!seen || added.length === 0) return
    const own = this.#model.ownership()
    const fresh = new Set<string>()
    for (const name of added) {
      const server = own.index.ownerOf(name)
      if (server !== undefined && !seen.owners.has(server)) fresh.add(server)
    }
    if (fresh.size === 0) return
    const addedSet = new Set(added)
    for (const name of this.#passes.listing.names()) {
      if (addedSet.has(name)) continue
      const server = own.index.ownerOf(name)
      if (server !== undefined) fresh.delete(server)
    }
    for (const server of fresh) seen.owners.set(server, own.owners.get(server) ?? null)
  }
}
