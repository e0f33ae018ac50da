/**
 * The context budget's edges on the host: one agent's own `mcp_tool_search`
 * registration, and the host events the budget follows (host/budget.ts).
 *
 * Contract: `registerSearchTool(agent, description, run, log)` registers the
 * search tool in the agent's scope (`agent.ctx.tools.register`: that agent
 * alone sees it, it goes with the agent) with a description read when the
 * host builds a request, and returns its disposer (undefined when the
 * registry refuses it: logged at debug). `trackBudget` forgets a disposed
 * agent and notes every tool call of an agent (after it ran) as recent for
 * the agent's project. Nothing throws into the host.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import { SEARCH_TOOL_NAME, searchToolShape } from '../budget/search-tool.ts'
import type { BudgetGuard } from './budget.ts'
import type { Log } from './log.ts'

const TEXT_OUTPUT = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
} as const

export function registerSearchTool(
  agent: Agent,
  description: () => string,
  run: (args: unknown) => string,
  log: Log,
): (() => void) | undefined {
  const definition = {
    name: SEARCH_TOOL_NAME,
    get description() {
      return description()
    },
    parameters: searchToolShape('').parameters,
    output: {
      schema: TEXT_OUTPUT,
      render: (_a: unknown, v: { text?: string }) => [{ type: 'text', text: v?.text ?? '' }],
    },
    async execute(args: unknown) {
      return { text: run(args) }
    },
  } as unknown as ToolDefinition
  try {
    return agent.ctx.tools.register(definition)
  } catch (error) {
    log.debug('could not register %s for agent %s: %s', SEARCH_TOOL_NAME, agent.id, String(error))
    return undefined
  }
}

/** Host events: a disposed agent's state goes; every tool call of an agent is noted as recent for its project. */
export function trackBudget(ctx: Context, budget: BudgetGuard, rootOf: (agent: Agent) => string | null | undefined) {
  ctx.on('agent/disposed', (payload: { agent: Agent }) => budget.detach(payload.agent))
  const on = ctx.on as unknown as (event: string, listener: (...args: never[]) => unknown) => () => void
  on.call(ctx, 'tools/execute', async (exec: { name?: unknown; agent?: Agent }, next: () => Promise<unknown>) => {
    const result = await next()
    if (typeof exec.name === 'string' && exec.agent) budget.noteCall(exec.agent, rootOf(exec.agent), exec.name)
    return result
  })
}
