/**
 * The registry as visibility reads it: the global tool names, listed once per
 * registry change not ours.
 *
 * Contract: `names()` is the registered MCP tool names (`mcp__…`), listed on
 * first use after `invalidate()` and kept until the next one; `set()` is the
 * same names as a set; `all()` every global name of the last listing (MCP or
 * not: what a freeze may name in an `allow`). `version` counts the listings
 * dropped (one per registry change not ours), so a caller can tell whether
 * the registry moved since it last looked. `added(before)` is the names of
 * the current listing not in `before` (a registry change's new tools). The
 * listing reads the registry itself (cordis `symbols.original`), not the
 * per-access proxy `ctx.tools` hands out, fetched per listing so a reloaded
 * tools service is followed; it reads the registry's global view of names
 * (rc.8 `view(undefined).restrictableNames`: no schema is copied) and falls
 * back to `schemas()` (every schema deep-copied) where that is missing.
 * `globalDefinitions(ctx)` reads every global definition by name from the
 * same view in one go (the lazy recorder's read: rc.8's `get(name)` builds
 * the whole view per name). Nothing here writes to the registry.
 *
 * @module
 */
import { type Context, symbols } from '@deepseek-ai/cordis'

interface Registry {
  schemas(): readonly { name: string }[]
  /** rc.8's registry view (private in its types, so looked up, never assumed). */
  view?: (scope?: undefined) => { restrictableNames?: unknown; visible?: unknown }
}

/** The registry itself (cordis `symbols.original`), or the proxy when there is no original. */
function registryOf(ctx: Context): Registry {
  const proxy = ctx.tools as unknown as Registry
  const raw = (proxy as unknown as Record<symbol, Partial<Registry> | undefined>)[symbols.original]
  return typeof raw?.schemas === 'function' ? (raw as Registry) : proxy
}

/**
 * Every global tool's definition by name, as the registry holds it (not copied), in one read of the registry's
 * view; undefined where the host has no such view (then ask `ctx.tools.get` per name).
 */
export function globalDefinitions(ctx: Context): ReadonlyMap<string, unknown> | undefined {
  const registry = registryOf(ctx)
  if (typeof registry.view !== 'function') return undefined
  const visible = registry.view(undefined).visible
  return visible instanceof Map ? (visible as ReadonlyMap<string, unknown>) : undefined
}

export class Listing {
  readonly #ctx: Context
  #names: string[] | undefined
  #set: ReadonlySet<string> | undefined
  #all: readonly string[] = []
  /** Listings dropped so far (one per registry change not ours). */
  version = 0

  constructor(ctx: Context) {
    this.#ctx = ctx
  }

  /** The registry changed (not by us): the next read lists it again. */
  invalidate(): void {
    this.#names = undefined
    this.#set = undefined
    this.version++
  }

  /** Whether a listing is held (no read since the last change would list again). */
  get fresh(): boolean {
    return this.#names !== undefined
  }

  names(): string[] {
    if (this.#names) return this.#names
    const names: string[] = []
    const all = this.#globalNames()
    for (const name of all) if (name.startsWith('mcp__')) names.push(name)
    this.#names = names
    this.#all = all
    return names
  }

  set(): ReadonlySet<string> {
    this.#set ??= new Set(this.names())
    return this.#set
  }

  all(): readonly string[] {
    return this.#all
  }

  /** MCP names listed now that `before` does not hold. */
  added(before: ReadonlySet<string>): string[] {
    return this.names().filter((n) => !before.has(n))
  }

  #globalNames(): string[] {
    const registry = registryOf(this.#ctx)
    if (typeof registry.view === 'function') {
      const names = registry.view(undefined).restrictableNames
      if (names instanceof Set) return [...(names as Set<unknown>)].filter((n): n is string => typeof n === 'string')
    }
    return registry.schemas().map((s) => s.name)
  }
}
