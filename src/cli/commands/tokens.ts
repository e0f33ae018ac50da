/**
 * `dsh-mcp tokens [--json]`: what the project's MCP tools cost in every model
 * request — per server its tool count and schema tokens, and the total
 * against the plugin's default `toolBudget` (docs/guide/context.md).
 *
 * Contract: reads files only, like `list` (no host package, no network, no
 * child process, nothing started): the numbers come from the tool cache the
 * host records whenever a server runs (src/lazy/cache.ts), counted as the
 * host sends each tool (src/budget/tokens.ts). A server that runs here but
 * has no cache record yet reads "not recorded" (the host records it when
 * an agent of the project first starts it); a row that does
 * not run here (untrusted, disabled, shadowed…) shows its state and no
 * numbers. The budget shown is the plugin's default: a host configured with
 * another `toolBudget` decides by its own. `--json` prints
 * `{ root, budget, servers: [{ name, scope, state, tools, tokens, recordedAt }], total: { tools, tokens, unrecorded } }`
 * (`tools`/`tokens` null when not recorded). Exit 0.
 *
 * @module
 */
import { DEFAULT_TOOL_BUDGET } from '../../budget/defaults.ts'
import { readListing } from '../listing.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, opts: { json?: boolean }): Promise<number> {
  const listing = readListing(cli)
  for (const line of listing.fileProblems) cli.out.err(line)
  const servers = listing.views
    .filter((v) => v.state !== 'shadowed')
    .map((v) => ({
      name: v.name,
      scope: v.scope,
      state: v.state,
      tools: v.cache?.tools ?? null,
      tokens: v.cache?.tokens ?? null,
      recordedAt: v.cache?.recordedAt ?? null,
    }))
  const runs = servers.filter((s) => s.state === 'active')
  const total = {
    tools: runs.reduce((n, s) => n + (s.tools ?? 0), 0),
    tokens: runs.reduce((n, s) => n + (s.tokens ?? 0), 0),
    unrecorded: runs.filter((s) => s.tools === null).length,
  }
  const root = listing.project.root.root
  if (opts.json) {
    cli.out.json({ root, budget: DEFAULT_TOOL_BUDGET, servers, total })
    return 0
  }
  if (servers.length === 0) {
    cli.out.out(`no MCP servers for ${root}`)
    return 0
  }
  const rows = servers.map((s) => [
    s.name,
    s.scope,
    s.state,
    s.tools === null ? '-' : String(s.tools),
    s.tokens === null ? (s.state === 'active' ? 'not recorded' : '-') : String(s.tokens),
  ])
  rows.push(['total', '', '', String(total.tools), String(total.tokens)])
  cli.out.table(rows, ['SERVER', 'SCOPE', 'STATE', 'TOOLS', 'TOKENS'], { keep: [0] })
  const over = total.tokens > DEFAULT_TOOL_BUDGET
  cli.out.out(
    over
      ? `${total.tokens} schema tokens is above the default toolBudget (${DEFAULT_TOOL_BUDGET}): agents are offered pinned (alwaysLoad) and recently used tools plus mcp_tool_search; the rest are found by search.`
      : `${total.tokens} schema tokens fits the default toolBudget (${DEFAULT_TOOL_BUDGET}): every tool is offered up front.`,
  )
  if (total.unrecorded > 0)
    cli.out.out(
      `${total.unrecorded} server${total.unrecorded === 1 ? '' : 's'} not recorded yet: the host records a server's tools the first time it runs.`,
    )
  return 0
}
