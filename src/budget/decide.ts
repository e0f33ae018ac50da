/**
 * The budget decision: which of an agent's MCP tools are offered up front
 * and which are deferred behind `mcp_tool_search`.
 *
 * Contract: pure. `decideBudget(input)` takes the MCP tools the agent would
 * be offered (visibility already applied: other projects' and filtered tools
 * are not in it), each with its schema tokens, and:
 * - `budget` 0 (off), or every tool fitting in `budget`: all offered, none
 *   deferred, `active` false — nothing changes while the tools fit.
 * - otherwise (`active`): offered are the `alwaysLoad` tools and the tools
 *   this agent revealed (both whatever they cost), then the `recent` tools
 *   (most recent first) while they fit in what is left of the budget after
 *   the search tool's own tokens; every other tool is deferred.
 * Names in `alwaysLoad`, `revealed` or `recent` that are not among `tools`
 * are ignored (a dropped or now-hidden tool never comes back through them).
 * Output lists keep `tools`' order.
 *
 * @module
 */

export interface BudgetTool {
  name: string
  tokens: number
}

export interface BudgetInput {
  tools: readonly BudgetTool[]
  /** Schema-token budget; 0 = off. */
  budget: number
  alwaysLoad: ReadonlySet<string>
  /** Tools this agent revealed through a search (kept for its life). */
  revealed: ReadonlySet<string>
  /** Recently called tools of the project, most recent first. */
  recent: readonly string[]
  /** What the search tool itself costs (counted against the budget when active). */
  searchTokens: number
}

export interface BudgetDecision {
  active: boolean
  offered: string[]
  deferred: string[]
  /** Schema tokens of every tool, and of the offered ones. */
  totalTokens: number
  offeredTokens: number
}

export function decideBudget(input: BudgetInput): BudgetDecision {
  const totalTokens = input.tools.reduce((sum, t) => sum + t.tokens, 0)
  const all = input.tools.map((t) => t.name)
  if (input.budget <= 0 || totalTokens <= input.budget)
    return { active: false, offered: all, deferred: [], totalTokens, offeredTokens: totalTokens }
  const cost = new Map(input.tools.map((t) => [t.name, t.tokens]))
  const keep = new Set<string>()
  let used = input.searchTokens
  for (const t of input.tools)
    if (input.alwaysLoad.has(t.name) || input.revealed.has(t.name)) {
      keep.add(t.name)
      used += t.tokens
    }
  for (const name of input.recent) {
    const tokens = cost.get(name)
    if (tokens === undefined || keep.has(name)) continue
    if (used + tokens > input.budget) continue
    keep.add(name)
    used += tokens
  }
  const offered = all.filter((n) => keep.has(n))
  const deferred = all.filter((n) => !keep.has(n))
  const offeredTokens = offered.reduce((sum, n) => sum + (cost.get(n) ?? 0), 0)
  return { active: true, offered, deferred, totalTokens, offeredTokens }
}
