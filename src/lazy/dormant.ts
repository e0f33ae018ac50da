/**
 * Dormant registrations: a stopped server's cached tools, registered on the
 * tool registry under the very names, descriptions and schemas the official
 * client registers when the server runs.
 *
 * Contract: `registerDormant` registers every cached tool globally (like the
 * official client: per-agent visibility is the deny sets' job, and these
 * names are owned by the server's effective name, so the same deny sets
 * cover them) and returns one disposer that unregisters them all. A tool the
 * registry refuses (a name held by someone else) is skipped and reported;
 * the rest stay. Calls normally never reach a dormant definition: the
 * `tools/execute` wrapper (wake.ts) starts the server first and dispatch then
 * resolves the real tool. Should one be reached, its `execute` starts the
 * server through `wake` and hands the same arguments and execution (abort
 * signal included) to the real definition. `finalizeContent` defers to the
 * real definition, so its rich-content projection still applies. Output
 * rendering mirrors the official client's text projection.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ToolDefinition, ToolRunContext } from '@deepseek-ai/dsh-tools'
import type { CachedTool } from './cache.ts'

export interface DormantDeps {
  /** Start the server owning `name`; resolves once the real tools are registered, rejects with the reason it could not start. */
  wake(name: string, signal: AbortSignal): Promise<void>
  /** A tool the registry refused (its name, why). */
  onRefused(name: string, error: unknown): void
}

/** The official client's output schema for a tool without a structured-output schema. */
const DEFAULT_OUTPUT_SCHEMA = {
  type: 'object',
  properties: { content: { type: 'array', items: {} }, structuredContent: {} },
  required: ['content'],
  additionalProperties: false,
}

function textOf(value: unknown): string {
  const content = (value as { content?: unknown } | null)?.content
  if (!Array.isArray(content)) return ''
  return content
    .map((b) =>
      b && typeof b === 'object' && (b as { type?: unknown }).type === 'text'
        ? String((b as { text?: unknown }).text ?? '')
        : '',
    )
    .filter((t) => t.length > 0)
    .join('\n')
}

/** Every dormant definition: never delegated to as if it were the real one. */
const dormant = new WeakSet<object>()

function definitionOf(ctx: Context, tool: CachedTool, deps: DormantDeps): ToolDefinition {
  const name = tool.name
  const def = {
    name,
    description: tool.description,
    parameters: tool.parameters as ToolDefinition['parameters'],
    output: {
      schema: (tool.output ?? DEFAULT_OUTPUT_SCHEMA) as ToolDefinition['output']['schema'],
      render: (_args, value) => [{ type: 'text', text: textOf(value) }],
    },
    async execute(args: unknown, exec: ToolRunContext) {
      await deps.wake(name, exec.signal)
      const real = ctx.tools.get(name, exec.agent)
      if (!real || dormant.has(real)) throw new Error(`server no longer offers tool "${name}"`)
      return real.execute(args, exec)
    },
    finalizeContent(exec, result) {
      const real = ctx.tools.get(name, exec.agent)
      return real && !dormant.has(real) ? real.finalizeContent?.(exec, result) : undefined
    },
  } as ToolDefinition
  dormant.add(def)
  return def
}

/** Register `tools` as dormant definitions; the returned disposer unregisters every one that was registered. */
export function registerDormant(ctx: Context, tools: readonly CachedTool[], deps: DormantDeps): () => void {
  const disposers: (() => void)[] = []
  for (const tool of tools) {
    try {
      disposers.push(ctx.tools.register(definitionOf(ctx, tool, deps)))
    } catch (error) {
      deps.onRefused(tool.name, error)
    }
  }
  let done = false
  return () => {
    if (done) return
    done = true
    for (const d of disposers) {
      try {
        d()
      } catch {
        // one failing disposer never keeps the others from running
      }
    }
  }
}
