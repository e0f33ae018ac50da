/**
 * Visibility: every tracked agent is denied every MCP tool that is not its
 * project's (spec §4 "Visibility"), on creation and after every registry change.
 *
 * Contract: `track` applies the agent's deny set synchronously (from inside
 * `agent/created`, so the agent never sees a foreign tool); a `tools/change`
 * listener re-derives every agent's set, so a tool registered later is denied
 * inside the very `register()` call that added it. An update applies the new
 * restriction before lifting the old one, so no instant exists in which
 * neither holds. Restricting re-enters `tools/change`; a re-entrant call only
 * marks another pass. Only currently registered names are ever denied.
 * Nothing here throws: a failing restrict is logged and the agent retried on
 * the next change. Restrictions die with their agent, or on `dispose`.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { denySet, type Ownership, type Visible } from '../plan/visibility.ts'
import type { Log } from './log.ts'

export interface VisibilityModel {
  ownership(): Ownership
  /** What an agent of `root` may see (`null`: no project — the global view). */
  visibleFor(root: string | null): Visible
}

interface Tracked {
  root: string | null
  lift: (() => void) | undefined
  denied: Set<string>
}

export interface VisibilityGuard {
  track(agent: Agent, root: string | null): void
  untrack(agent: Agent): void
  rootOf(agent: Agent): string | null | undefined
  tracked(): IterableIterator<[Agent, string | null]>
  /** Re-derive every agent's deny set now. */
  refresh(): void
  dispose(): void
}

export function createVisibility(ctx: Context, model: VisibilityModel, log: Log): VisibilityGuard {
  const agents = new Map<Agent, Tracked>()
  let running = false
  let again = false
  let disposed = false

  const registered = (): string[] => {
    const names: string[] = []
    for (const s of ctx.tools.schemas()) if (s.name.startsWith('mcp__')) names.push(s.name)
    return names
  }

  const applyOne = (agent: Agent, t: Tracked, names: readonly string[], own: Ownership) => {
    const deny = denySet(names, own, model.visibleFor(t.root))
    const next = new Set(deny)
    const wanted = new Set(names)
    const missing = deny.some((n) => !t.denied.has(n))
    const stale = [...t.denied].some((n) => wanted.has(n) && !next.has(n))
    if (!missing && !stale) return
    let lift: (() => void) | undefined
    if (deny.length > 0) lift = agent.ctx.tools.restrict({ deny })
    const old = t.lift
    t.lift = lift
    t.denied = next
    old?.()
  }

  const pass = () => {
    const names = registered()
    const own = model.ownership()
    for (const [agent, t] of agents) {
      try {
        applyOne(agent, t, names, own)
      } catch (error) {
        log.debug('could not restrict agent %s: %s', agent.id, String(error))
      }
    }
  }

  const refresh = () => {
    if (disposed) return
    if (running) {
      again = true
      return
    }
    running = true
    try {
      let rounds = 0
      do {
        again = false
        pass()
      } while (again && ++rounds < 8)
    } catch (error) {
      log.debug('visibility pass failed: %s', String(error))
    } finally {
      running = false
    }
  }

  ctx.on('tools/change', refresh)

  return {
    track(agent, root) {
      if (disposed || agents.has(agent)) return
      const t: Tracked = { root, lift: undefined, denied: new Set() }
      agents.set(agent, t)
      if (running) {
        again = true
        return
      }
      try {
        running = true
        applyOne(agent, t, registered(), model.ownership())
      } catch (error) {
        log.debug('could not restrict agent %s: %s', agent.id, String(error))
      } finally {
        running = false
      }
      if (again) refresh()
    },
    untrack(agent) {
      const t = agents.get(agent)
      if (!t) return
      agents.delete(agent)
      try {
        t.lift?.()
      } catch {}
    },
    rootOf: (agent) => agents.get(agent)?.root,
    *tracked() {
      for (const [a, t] of agents) yield [a, t.root]
    },
    refresh,
    dispose() {
      disposed = true
      for (const t of agents.values()) {
        try {
          t.lift?.()
        } catch {}
      }
      agents.clear()
    },
  }
}
