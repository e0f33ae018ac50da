/**
 * What the context budget (budget.ts) reads of the host's tools: each
 * registered tool's schema tokens, and whom each visible tool belongs to.
 *
 * Contract: `createToolTokens(tools)` reads definitions from the registry
 * itself (cordis `symbols.original`, not the per-access proxy) and never
 * throws (an unknown or failing name has no definition, 0 tokens);
 * `tokensOf(name)` is cached while the name stays registered —
 * `syncTokens(names)` with a new listing forgets the names no longer there,
 * so a tool that comes back is counted again from its new definition.
 * `describeTools(placements, ownership, visible)` maps each visible tool to
 * its server, raw name and the server's `description`, lists the servers,
 * and says which tools are pinned by their server's `alwaysLoad`.
 *
 * @module
 */
import { type Context, symbols } from '@deepseek-ai/cordis'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import type { SearchServer } from '../budget/search-tool.ts'
import { toolTokens } from '../budget/tokens.ts'
import type { Placement } from '../plan/desired.ts'
import { admits } from '../plan/filter.ts'
import { rawNameOf } from '../plan/tool-names.ts'
import type { Ownership } from '../plan/visibility.ts'

export interface ToolTokens {
  /** The registered definition of `name`, undefined when none (or the registry throws). */
  def(name: string): ToolDefinition | undefined
  /** Schema tokens of one registered tool (0 when not registered). */
  tokensOf(name: string): number
  /** A listing of registered names: when it is a new array, forget the cached names not in it. */
  syncTokens(names: readonly string[]): void
}

export function createToolTokens(tools: () => Context['tools']): ToolTokens {
  /** Schema tokens per registered name, kept while the name stays registered (see `syncTokens`). */
  const tokenCache = new Map<string, number>()
  let tokenNames: readonly string[] | undefined

  /** The registry itself (cordis `symbols.original`), not the per-access proxy: one lookup, not a proxy walk. */
  const registry = (): Pick<Context['tools'], 'get'> => {
    const proxy = tools()
    const raw = (proxy as unknown as Record<symbol, Partial<Context['tools']> | undefined>)[symbols.original]
    return typeof raw?.get === 'function' ? (raw as Pick<Context['tools'], 'get'>) : proxy
  }
  const def = (name: string) => {
    try {
      return registry().get(name) as ToolDefinition | undefined
    } catch {
      return undefined
    }
  }
  const tokensOf = (name: string): number => {
    let n = tokenCache.get(name)
    if (n === undefined) {
      const d = def(name)
      if (!d) return 0
      n = toolTokens({ name: d.name, description: d.description, parameters: d.parameters })
      tokenCache.set(name, n)
    }
    return n
  }
  /**
   * A new listing of registered names (a new array: the registry changed): names no longer registered are
   * forgotten, so a tool that comes back (a re-sync, a remount) is counted again from its new definition.
   */
  const syncTokens = (names: readonly string[]) => {
    if (names === tokenNames) return
    tokenNames = names
    const now = new Set(names)
    for (const name of tokenCache.keys()) if (!now.has(name)) tokenCache.delete(name)
  }
  return { def, tokensOf, syncTokens }
}

/** Key → placement of the agent's view; and each visible tool's server and whether it is pinned. */
export function describeTools(placements: readonly Placement[], own: Ownership, visible: readonly string[]) {
  const byKey = new Map<string, Placement>()
  for (const p of placements) if (p.verdict.tag === 'runs' && p.key) byKey.set(p.key, p)
  const pinned = new Set<string>()
  const servers = new Map<string, SearchServer>()
  const serverOf = new Map<string, { server: string; raw: string; description?: string }>()
  for (const name of visible) {
    const server = own.index.ownerOf(name)
    const key = server === undefined ? undefined : own.owners.get(server)
    if (server === undefined || !key) continue
    const p = byKey.get(key)
    const raw = rawNameOf(name, server)
    serverOf.set(name, { server, raw, ...(p?.description ? { description: p.description } : {}) })
    if (!servers.has(server))
      servers.set(server, { name: server, ...(p?.description ? { description: p.description } : {}) })
    const always = p?.alwaysLoad
    if (always === true || (Array.isArray(always) && admits({ include: [...always] }, raw))) pinned.add(name)
  }
  return { pinned, servers, serverOf }
}
