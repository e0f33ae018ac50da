/**
 * Visibility passes: deriving each tracked agent's deny set and applying it.
 *
 * Contract: `Passes` holds the tracked agents and the work of the pass under
 * way. `full(only?)` re-derives every agent's deny set (with `only`, its first
 * round covers just that agent) and applies the ones that changed;
 * `added(names)` applies a registry change that added `names`: each of them
 * is judged afresh for every agent — denied where its view must not see it,
 * no longer denied where it was (a name registered again by another owner)
 * — and nothing else is derived. An update applies the new restriction before lifting the old one,
 * so no instant exists in which neither holds. Restricting re-enters
 * `tools/change`: the re-entrant call (`reenter()`) runs the pass's
 * remaining updates first, so a listener after ours never observes an agent
 * still waiting for its update (up to `MAX_NESTING` deep; beyond that the
 * rest follow iteratively, inside the same call). Within one pass each
 * root's deny set is derived once, by `deny()` — the one derivation: the
 * view's deny set, plus the tools the model withholds from that root
 * (`withheld`: a trusted server's tools changed since pinned, host/tool-pins.ts);
 * `model.agentDeny`, when given, adds one agent's own names on top (the
 * context budget), and an addition some agent's view admits then runs a full
 * pass (the budget decides over the whole set). Only registered names are ever denied.
 * `asSelf` marks our own restrict/lift (its emissions change no registered
 * name). Nothing here throws: a failing restrict is logged and the agent is
 * retried in full on the next change. `clear()` drops the pending work (dispose).
 *
 * @module
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import { denySet, type Ownership, type Visible } from '../plan/visibility.ts'
import type { Listing } from './visibility-listing.ts'
import type { Log } from './log.ts'

export interface VisibilityModel {
  ownership(): Ownership
  /** What an agent of `root` may see (`null`: no project — the global view). */
  visibleFor(root: string | null): Visible
  /** Names among `names` `root`'s view holds but must not see (host/tool-pins.ts: tools changed since trust). */
  withheld?(root: string | null, names: readonly string[]): ReadonlySet<string>
  /** Changes whenever `withheld` may answer otherwise for the same names (new pins): a refresh must not be skipped. */
  withheldVersion?(): number
  /**
   * A per-agent filter on top of the view (the context budget's deferred tools, host/budget.ts): of the
   * registered `names`, those `agent` must not see beyond its view's deny set `denied`.
   */
  agentDeny?(
    agent: Agent,
    root: string | null,
    names: readonly string[],
    denied: ReadonlySet<string>,
  ): readonly string[]
}

/** Nesting bound for re-entrant updates (each costs a few stack frames). */
const MAX_NESTING = 200

export interface Tracked {
  root: string | null
  lift: (() => void) | undefined
  denied: ReadonlySet<string>
  /** Its last restrict failed: the next change re-derives it in full. */
  stale?: boolean
}

/** One pass's inputs: the registered names (and their set), the ownership, and each visible view's deny set. */
interface Pass {
  names: readonly string[]
  current: ReadonlySet<string>
  own: Ownership
  /** Deny list and set per root (its view and its withheld tools). */
  denied: Map<string | null, { deny: readonly string[]; next: ReadonlySet<string> }>
}

export class Passes {
  readonly agents = new Map<Agent, Tracked>()
  readonly #work: (() => void)[] = []
  #running = false
  #again = false
  #depth = 0
  #self = 0

  readonly listing: Listing
  readonly model: VisibilityModel
  readonly log: Log

  constructor(listing: Listing, model: VisibilityModel, log: Log) {
    this.listing = listing
    this.model = model
    this.log = log
  }

  get running(): boolean {
    return this.#running
  }

  /** Our own restrict/lift is running: its `tools/change` changes no registered name. */
  get self(): boolean {
    return this.#self > 0
  }

  asSelf<T>(fn: () => T): T {
    this.#self++
    try {
      return fn()
    } finally {
      this.#self--
    }
  }

  /** Lift restrictions, ignoring agents already gone with theirs. */
  liftAll(lifts: Iterable<(() => void) | undefined>): void {
    for (const lift of lifts) {
      try {
        if (lift) this.asSelf(lift)
      } catch {
        // the agent is already gone with its restriction: nothing to lift
      }
    }
  }

  /** The names of `names` an agent of `root` must not see: the one derivation (its view, then the per-tool filter). */
  deny(names: readonly string[], own: Ownership, root: string | null): string[] {
    const deny = denySet(names, own, this.model.visibleFor(root))
    const withheld = this.model.withheld?.(root, names)
    if (withheld && withheld.size > 0) {
      const denied = new Set(deny)
      for (const n of withheld) if (!denied.has(n)) deny.push(n)
    }
    return deny
  }

  /** A re-entrant `tools/change` of our own: run the pass's remaining updates first. */
  reenter(): void {
    if (this.#running && this.#depth < MAX_NESTING) this.#drain()
  }

  /** A full pass; with `only`, its first round covers just that agent (later rounds, after a change mid-pass, cover all). */
  full(only?: Agent): void {
    if (this.#running) {
      this.#again = true
      this.reenter()
      return
    }
    this.#run(() => {
      for (let round = 0; round < 8; round++) {
        this.#again = false
        this.#plan(round === 0 ? only : undefined)
        this.#drain()
        if (!this.#again) break
      }
    })
  }

  /** A registry change that only added `names`: deny them where they are not visible, derive nothing else. */
  added(names: readonly string[]): void {
    if (names.length === 0 || this.agents.size === 0) return
    if (this.#running || [...this.agents.values()].some((t) => t.stale) || this.#budgetSees(names)) {
      this.full()
      return
    }
    this.#run(() => {
      const own = this.model.ownership()
      const current = this.listing.set()
      const byView = new Map<string | null, ReadonlySet<string>>()
      for (const [agent, t] of this.agents) {
        let denied = byView.get(t.root)
        if (!denied) {
          denied = new Set(this.deny(names, own, t.root))
          byView.set(t.root, denied)
        }
        // Each added name judged afresh: denied where it must be, and no longer denied where an earlier owner was
        // (a name unregistered while denied, registered again by a server this agent sees).
        const more = names.filter((n) => denied.has(n) && !t.denied.has(n))
        const less = new Set(names.filter((n) => !denied.has(n) && t.denied.has(n)))
        if (more.length === 0 && less.size === 0) continue
        const deny = [...t.denied].filter((n) => current.has(n) && !less.has(n)).concat(more)
        this.#work.push(this.#apply(agent, t, deny, new Set(deny)))
      }
      this.#drain()
    })
  }

  /** With a per-agent filter, added names some agent's view admits change its whole decision: a full pass. */
  #budgetSees(names: readonly string[]): boolean {
    if (!this.model.agentDeny) return false
    const own = this.model.ownership()
    const seen = new Set<string | null>()
    for (const t of this.agents.values()) {
      if (seen.has(t.root)) continue
      seen.add(t.root)
      if (this.deny(names, own, t.root).length < names.length) return true
    }
    return false
  }

  /** Queue `agent`'s update before the pass's pending ones (an agent tracked mid-pass goes first). */
  front(agent: Agent): void {
    this.#plan(agent, true)
    this.#again = true
    this.reenter()
  }

  /** Run `jobs` as one pass (each restrict re-enters and drains the rest); false when a pass is already running. */
  runJobs(jobs: (() => void)[]): boolean {
    if (this.#running) return false
    this.#work.push(...jobs)
    this.#run(() => this.#drain())
    return true
  }

  clear(): void {
    this.#work.length = 0
  }

  #run(body: () => void): void {
    this.#running = true
    try {
      body()
    } catch (error) {
      this.log.debug('visibility pass failed: %s', String(error))
    } finally {
      this.#work.length = 0
      this.#running = false
    }
  }

  /** Run pending updates; each restrict emits `tools/change` synchronously and re-enters here. */
  #drain(): void {
    while (this.#work.length > 0) {
      const job = this.#work.shift()!
      this.#depth++
      try {
        job()
      } finally {
        this.#depth--
      }
    }
  }

  /** Queue the updates of every agent, or of `only`; `front` puts them before the pending ones. */
  #plan(only?: Agent, front = false): void {
    // No agent: nothing to derive, and no listing (it is built again on demand).
    if (this.agents.size === 0) return
    const names = this.listing.names()
    const pass: Pass = { names, current: this.listing.set(), own: this.model.ownership(), denied: new Map() }
    const jobs: (() => void)[] = []
    const targets = only ? ([[only, this.agents.get(only)]] as const) : this.agents
    for (const [agent, t] of targets) {
      const job = t && this.#updateFor(agent, t, pass)
      if (job) jobs.push(job)
    }
    if (front) this.#work.unshift(...jobs)
    else this.#work.push(...jobs)
  }

  /** The update `agent` needs, or undefined when its restriction is already right. */
  #updateFor(agent: Agent, t: Tracked, pass: Pass): (() => void) | undefined {
    let derived = pass.denied.get(t.root)
    if (!derived) {
      const deny = this.deny(pass.names, pass.own, t.root)
      derived = { deny, next: new Set(deny) }
      pass.denied.set(t.root, derived)
    }
    const extra = this.model.agentDeny?.(agent, t.root, pass.names, derived.next) ?? []
    const deny = extra.length > 0 ? [...derived.deny, ...extra] : derived.deny
    const next = extra.length > 0 ? new Set(deny) : derived.next
    const missing = deny.some((n) => !t.denied.has(n))
    const stale = [...t.denied].some((n) => pass.current.has(n) && !next.has(n))
    if (!missing && !stale) return undefined
    return this.#apply(agent, t, deny, next)
  }

  /** Restrict `agent` to `deny`, then lift its previous restriction. */
  #apply(agent: Agent, t: Tracked, deny: readonly string[], next: ReadonlySet<string>): () => void {
    return () => {
      if (this.agents.get(agent) !== t) return
      try {
        // Each agent gets its own list: `restrict` may keep it.
        const lift = deny.length > 0 ? this.asSelf(() => agent.ctx.tools.restrict({ deny: [...deny] })) : undefined
        const old = t.lift
        t.lift = lift
        t.denied = next
        t.stale = false
        if (old) this.asSelf(old)
      } catch (error) {
        t.stale = true
        this.log.debug('could not restrict agent %s: %s', agent.id, String(error))
      }
    }
  }
}
