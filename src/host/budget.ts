/**
 * The context budget on the host (docs/guide/context.md): per agent, which
 * of its MCP tools are offered up front and which wait behind
 * `mcp_tool_search`.
 *
 * Contract: `deferredFor(agent, root, names, denied)` is the per-agent
 * filter visibility.ts applies on top of the view's deny set: of the
 * registered MCP `names` the view leaves to this agent, the ones the budget
 * decision (src/budget/decide.ts) defers — none while they fit in
 * `toolBudget` (or it is 0). It also keeps the agent's own search tool: a
 * scoped registration (`agent.ctx.tools.register`, seen by that agent alone,
 * gone with it) made while the agent's budget is active and removed when its
 * tools fit again — registered and removed from a microtask, never inside
 * the visibility pass (it is scoped: no restriction involves it). Its description lists the
 * agent's servers (their `description` field), read when the host builds a
 * request, so a hot reload shows at once. A search ranks what the agent may
 * see now (src/budget/search.ts over the registry's definitions: a dormant
 * lazy server's are its cached ones, so nothing starts; another project's
 * tools and an untrusted server's are not among them) and reveals the
 * deferred matches to that agent: `revealed` is kept for its life, that
 * agent's visibility is re-derived before the call returns, so from its next step they
 * are offered natively. A revealed tool its server drops is no longer among
 * `names`, so it is hidden with it. `recent` tools of a project (called
 * through `noteCall`, most recent first) are taken by each new agent of that
 * project when it is tracked. `alwaysLoad` (per server: `true`, or globs on
 * raw names) is read from the agent's placements on every pass. Never throws
 * into the host. Schema tokens and what each visible tool belongs to are
 * read by budget-tools.ts.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { type BudgetDecision, decideBudget } from '../budget/decide.ts'
import { createToolIndex, type ToolEntry, type ToolIndex } from '../budget/search.ts'
import {
  parseSearchArgs,
  type SearchServer,
  searchAnswer,
  searchToolDescription,
  searchToolShape,
} from '../budget/search-tool.ts'
import { toolTokens } from '../budget/tokens.ts'
import type { Placement } from '../plan/desired.ts'
import type { Ownership } from '../plan/visibility.ts'
import { registerSearchTool } from './budget-search.ts'
import { createToolTokens, describeTools } from './budget-tools.ts'
import type { Log } from './log.ts'

/** Delay before a changed decision is written to the status files (coalesces a burst of new agents). */
const REPORT_DELAY_MS = 100

/** How many recently called tools a project remembers. */
const RECENT_MAX = 50

export interface BudgetDeps {
  ctx: Context
  toolBudget: number
  ownership(): Ownership
  placementsFor(root: string | null): readonly Placement[]
  /** Re-derive one agent's restriction now (after a reveal). */
  refresh(agent: Agent): void
  /** An agent's numbers changed (the status files follow). */
  changed(): void
  log: Log
}

export interface AgentBudget {
  agent: string
  root: string | null
  active: boolean
  offered: number
  deferred: number
  offeredTokens: number
  totalTokens: number
}

export interface BudgetGuard {
  deferredFor(agent: Agent, root: string | null, names: readonly string[], denied: ReadonlySet<string>): string[]
  attach(agent: Agent, root: string | null): void
  detach(agent: Agent): void
  noteCall(agent: Agent | undefined, root: string | null | undefined, name: string): void
  /** Schema tokens of one registered tool (0 when not registered). */
  tokensOf(name: string): number
  agents(): AgentBudget[]
  dispose(): void
}

interface AgentState {
  root: string | null
  revealed: Set<string>
  recent: string[]
  visible: string[]
  servers: SearchServer[]
  decision: BudgetDecision | undefined
  unregister: (() => void) | undefined
  index: { key: string; index: ToolIndex } | undefined
}

export function createBudget(deps: BudgetDeps): BudgetGuard {
  const states = new Map<Agent, AgentState>()
  const recent = new Map<string | null, string[]>()
  let disposed = false

  /** The status files follow a changed decision off the agent-creation path: once per `REPORT_DELAY_MS`. */
  let reportTimer: NodeJS.Timeout | undefined
  const reportSoon = () => {
    if (reportTimer || disposed) return
    reportTimer = setTimeout(() => {
      reportTimer = undefined
      if (!disposed) deps.changed()
    }, REPORT_DELAY_MS)
    reportTimer.unref()
  }

  const { def, tokensOf, syncTokens } = createToolTokens(() => deps.ctx.tools)
  const describe = (root: string | null, visible: readonly string[]) =>
    describeTools(deps.placementsFor(root), deps.ownership(), visible)

  const setSearchTool = (agent: Agent, s: AgentState, want: boolean) => {
    if (want === (s.unregister !== undefined)) return
    queueMicrotask(() => {
      if (disposed || states.get(agent) !== s) return
      const active = s.decision?.active === true
      if (active && !s.unregister) s.unregister = registerSearch(agent, s)
      else if (!active && s.unregister) {
        const off = s.unregister
        s.unregister = undefined
        try {
          off()
        } catch {
          // the agent is gone with its registration
        }
      }
    })
  }

  const registerSearch = (agent: Agent, s: AgentState): (() => void) | undefined =>
    registerSearchTool(
      agent,
      () => searchToolDescription(s.servers),
      (args) => search(agent, s, args),
      deps.log,
    )

  const search = (agent: Agent, s: AgentState, args: unknown): string => {
    const parsed = parseSearchArgs(args)
    if ('error' in parsed) return parsed.error
    const { serverOf } = describe(s.root, s.visible)
    const entries: ToolEntry[] = []
    const defs: string[] = []
    for (const name of s.visible) {
      const d = def(name)
      const who = serverOf.get(name)
      if (!d || !who) continue
      defs.push(`${name}\0${tokensOf(name)}\0${d.description?.length ?? 0}`)
      entries.push({
        name,
        raw: who.raw,
        server: who.server,
        ...(who.description ? { serverDescription: who.description } : {}),
        description: d.description ?? '',
        parameters: d.parameters,
      })
    }
    const key = defs.join('\n')
    if (s.index?.key !== key) s.index = { key, index: createToolIndex(entries) }
    const hits = s.index.index.search(parsed.query, parsed.limit)
    const deferred = new Set(s.decision?.deferred ?? [])
    const fresh = hits.map((h) => h.name).filter((n) => deferred.has(n))
    for (const n of fresh) s.revealed.add(n)
    if (fresh.length > 0 && states.get(agent) === s) deps.refresh(agent)
    return searchAnswer(hits, fresh)
  }

  const attach = (agent: Agent, root: string | null) => {
    if (disposed || states.has(agent)) return
    states.set(agent, {
      root,
      revealed: new Set(),
      recent: [...(recent.get(root) ?? [])],
      visible: [],
      servers: [],
      decision: undefined,
      unregister: undefined,
      index: undefined,
    })
  }
  const detach = (agent: Agent) => {
    const s = states.get(agent)
    states.delete(agent)
    try {
      s?.unregister?.()
    } catch {
      // gone with the agent
    }
  }

  return {
    deferredFor(agent, root, names, denied) {
      if (disposed || deps.toolBudget <= 0) return []
      let s = states.get(agent)
      if (!s) {
        attach(agent, root)
        s = states.get(agent)
        if (!s) return []
      }
      try {
        syncTokens(names)
        s.visible = names.filter((n) => !denied.has(n))
        const { pinned, servers, serverOf } = describe(root, s.visible)
        s.servers = [...servers.values()]
        const before = s.decision
        s.decision = decideBudget({
          tools: s.visible.map((name) => ({ name, tokens: tokensOf(name) })),
          budget: deps.toolBudget,
          alwaysLoad: pinned,
          revealed: s.revealed,
          recent: s.recent,
          searchTokens: toolTokens(searchToolShape(searchToolDescription(s.servers))),
        })
        const deferred = new Set(s.decision.deferred)
        const waiting = new Map<string, number>()
        for (const n of s.decision.deferred) {
          const server = serverOf.get(n)?.server
          if (server !== undefined) waiting.set(server, (waiting.get(server) ?? 0) + 1)
        }
        for (const srv of s.servers) srv.deferred = waiting.get(srv.name) ?? 0
        setSearchTool(agent, s, s.decision.active)
        const d = s.decision
        if (!before || before.offered.length !== d.offered.length || before.offeredTokens !== d.offeredTokens)
          reportSoon()
        return [...deferred]
      } catch (error) {
        deps.log.debug('budget for agent %s failed: %s', agent.id, String(error))
        return []
      }
    },
    attach,
    detach,
    noteCall(agent, root, name) {
      if (!name.startsWith('mcp__') || root === undefined) return
      const list = recent.get(root) ?? []
      const at = list.indexOf(name)
      if (at >= 0) list.splice(at, 1)
      list.unshift(name)
      if (list.length > RECENT_MAX) list.length = RECENT_MAX
      recent.set(root, list)
      if (agent) states.get(agent)?.revealed.add(name)
    },
    tokensOf,
    agents: () =>
      [...states].map(([agent, s]) => ({
        agent: String(agent.id),
        root: s.root,
        active: s.decision?.active ?? false,
        offered: s.decision?.offered.length ?? 0,
        deferred: s.decision?.deferred.length ?? 0,
        offeredTokens: s.decision?.offeredTokens ?? 0,
        totalTokens: s.decision?.totalTokens ?? 0,
      })),
    dispose() {
      disposed = true
      clearTimeout(reportTimer)
      for (const agent of [...states.keys()]) detach(agent)
      states.clear()
    },
  }
}
