/**
 * The execution guard keyed by agent: a call to one of our MCP tools from an
 * agent that does not see it never reaches a server.
 *
 * Contract: `guardExecution(ctx, model, rootOf)` registers one global
 * `ctx.tools.guard` (rc.8 dsh-tools: evaluated after every
 * `tools/pre-execute` listener and before the tool body; a returned reason
 * denies the call, and no other guard or listener can allow it again). For a
 * tool our mounts or dormant lazy servers own (the model's ownership), the
 * calling agent's view decides, as the deny sets of visibility.ts do: the
 * view of the project it is tracked under (`rootOf`); an agent not tracked
 * (disposed, being disposed, or never joined) sees none of our tools; a call
 * with no agent gets the global view (the user layer outside any project).
 * A tool the view's trusted server offers changed since its tools were pinned
 * (`withheld`: host/tool-pins.ts) is refused the same way.
 * The refusal reads like the host's own (`unknown tool "<name>"`).
 * Tools not ours are left alone. The guard reads memory only and never
 * throws (a failing check denies). Returns its disposer; a host without
 * `tools.guard` gets a no-op (the restrictions alone then).
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { denySet } from '../plan/visibility.ts'
import type { VisibilityModel } from './visibility.ts'

type Guard = (exec: { readonly name: string; readonly agent?: Agent }) => string | undefined

export function guardExecution(
  ctx: Context,
  model: VisibilityModel,
  rootOf: (agent: Agent) => string | null | undefined,
  withheld: (root: string | null, name: string) => boolean = () => false,
): () => void {
  const tools = ctx.tools as unknown as { guard?: (guard: Guard) => () => void }
  if (typeof tools.guard !== 'function') return () => {}
  // The host's own words for a tool an agent does not see: the refusal tells the model nothing more.
  const refuse = (name: string) => `unknown tool "${name}"`
  return tools.guard((exec) => {
    const name = exec.name
    if (typeof name !== 'string' || !name.startsWith('mcp__')) return undefined
    try {
      const own = model.ownership()
      const server = own.index.ownerOf(name)
      if (server === undefined || own.owners.get(server) === undefined) return undefined
      const root = exec.agent === undefined ? null : rootOf(exec.agent)
      if (root === undefined) return refuse(name)
      if (denySet([name], own, model.visibleFor(root)).length > 0) return refuse(name)
      return withheld(root, name) ? refuse(name) : undefined
    } catch {
      return refuse(name)
    }
  })
}
