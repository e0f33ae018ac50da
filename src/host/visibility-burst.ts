/**
 * Bursts of registry changes: a server registering (or re-syncing) thousands
 * of tools in one macrotask.
 *
 * Contract: `count()` counts the registry changes not ours of the current
 * macrotask and answers whether they are a burst (more than
 * `BURST_CHANGES`), which is not handled change by change (each costs a
 * listing: the square of its size). `freeze()` then restricts every agent to
 * what it already sees (`allow`: names registered since its deny set was
 * derived are in neither, so not seen) and answers false when there is
 * nothing to freeze; an agent that cannot be frozen ends the freeze at once
 * (one full pass, then the freezes made so far are lifted). While `frozen`,
 * every further change collapses into the one settling step: from the next
 * macrotask `thaw()` applies the burst's changes (`settle`, given the names
 * listed before the burst) and only then lifts the freezes, so no instant
 * shows an agent a tool not its own. Until then a name registered mid-burst
 * is seen by no agent (the registry itself answers `unknown tool`), so a
 * caller that must dispatch to it waits for `thawed` (visibility.ts
 * `settled()`). `join(agent)` freezes an agent tracked
 * mid-burst like the others; `leave(agent)` lifts its freeze; `dispose()`
 * lifts every freeze and cancels the settling step; both end of a freeze run `thawed`.
 *
 * @module
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Passes, Tracked } from './visibility-pass.ts'

/**
 * Registry changes not ours handled one at a time within one macrotask. Each costs a listing of every
 * tool, so a server registering thousands at once would cost the square; past this many, the burst
 * freezes every agent to what it already sees and is settled by one step once the task is over.
 */
const BURST_CHANGES = 4

export class Burst {
  readonly #passes: Passes
  /** Apply what changed since `before` (the MCP names listed before the burst), or a full pass without it. */
  readonly #settle: (before: ReadonlySet<string> | undefined) => void
  /** A freeze ended (its changes applied and the freezes lifted, or disposed). */
  readonly #thawed: () => void
  #changes = 0
  #frozen: Map<Agent, () => void> | undefined
  #before: ReadonlySet<string> | undefined
  #thawing: NodeJS.Immediate | undefined

  constructor(passes: Passes, settle: (before: ReadonlySet<string> | undefined) => void, thawed: () => void) {
    this.#passes = passes
    this.#settle = settle
    this.#thawed = thawed
  }

  get frozen(): boolean {
    return this.#frozen !== undefined
  }

  /** One more change not ours in this macrotask; true once they are a burst. */
  count(): boolean {
    if (++this.#changes === 1) setImmediate(() => (this.#changes = 0)).unref()
    return this.#changes > BURST_CHANGES
  }

  /** Freeze every agent for the rest of the burst; false when there is nothing to freeze. */
  freeze(before: ReadonlySet<string> | undefined): boolean {
    const p = this.#passes
    if (p.agents.size === 0 || p.running) return false
    // What each agent is held to must be registered now: a server re-syncing unregisters all its tools first, and an
    // allow naming one of them fails (each failure a full pass per change: the square again). One listing per freeze.
    const known = new Set(p.listing.all())
    p.listing.invalidate()
    p.listing.names()
    const lifts = new Map<Agent, () => void>()
    let failed = false
    // Queued like a pass's updates: each restrict re-enters `tools/change`, which drains the rest first, so a
    // listener after ours never sees an agent not frozen yet.
    const jobs = [...p.agents].map(([agent, t]) => () => {
      if (failed || p.agents.get(agent) !== t) return
      const lift = this.#freezeOne(agent, t, known)
      if (lift) lifts.set(agent, lift)
      else failed = true
    })
    p.runJobs(jobs)
    if (failed) {
      // The freezes made so far are lifted only after the pass has denied the new tools (restrict, then lift).
      p.full()
      p.liftAll(lifts.values())
      return true
    }
    this.#frozen = lifts
    this.#before = before
    this.#thawing = setImmediate(() => this.thaw())
    return true
  }

  /** End a freeze: the burst's changes are applied first, then the freezes are lifted. */
  thaw(): void {
    const held = this.#frozen
    const before = this.#before
    clearImmediate(this.#thawing)
    this.#thawing = undefined
    this.#frozen = undefined
    this.#before = undefined
    this.#changes = 0
    if (!held) return
    this.#passes.listing.invalidate()
    this.#settle(before)
    this.#passes.liftAll(held.values())
    this.#thawed()
  }

  /** An agent tracked mid-burst is frozen like the others; one that cannot be ends the freeze now. */
  join(agent: Agent, t: Tracked): void {
    if (!this.#frozen) return
    const lift = this.#freezeOne(agent, t)
    if (lift) this.#frozen.set(agent, lift)
    else this.thaw()
  }

  leave(agent: Agent): void {
    const lift = this.#frozen?.get(agent)
    this.#frozen?.delete(agent)
    this.#passes.liftAll([lift])
  }

  dispose(): void {
    clearImmediate(this.#thawing)
    this.#thawing = undefined
    if (this.#frozen) this.#passes.liftAll(this.#frozen.values())
    this.#frozen = undefined
    this.#thawed()
  }

  /**
   * Restrict `agent` to the names it sees now (the last listing minus its deny set, and within `known`); undefined
   * when that cannot be done. An agent that sees none of them is held by allowing one it is denied: the two
   * restrictions intersect to nothing, and nothing registered later is in either.
   */
  #freezeOne(agent: Agent, t: Tracked, known?: ReadonlySet<string>): (() => void) | undefined {
    const listed = this.#passes.listing.all()
    // `known`: the names of the listing `t.denied` was derived from; one registered since is in neither, so not seen.
    const seen = listed.filter((n) => !t.denied.has(n) && (!known || known.has(n)))
    const held = listed.find((n) => t.denied.has(n))
    const allow = seen.length > 0 ? seen : held === undefined ? [] : [held]
    if (allow.length === 0) return undefined
    try {
      return this.#passes.asSelf(() => agent.ctx.tools.restrict({ allow }))
    } catch (error) {
      this.#passes.log.debug('could not freeze agent %s: %s', agent.id, String(error))
      return undefined
    }
  }
}
