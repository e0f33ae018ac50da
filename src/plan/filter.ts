/**
 * Tool filters: `tools: { include, exclude }` globs on a server's RAW tool names.
 *
 * Contract: no filter (or no lists) admits every tool; a non-empty `include`
 * admits only matching names; `exclude` always wins. Globs are the bounded
 * globs of `config/glob.ts` (`*`, `?`, `[...]`, `{a,b}`, leading `!`),
 * matched against the whole raw name, case-sensitively, with `/` not special
 * (tool names are not paths), in time linear in the name — no regular
 * expression, so a hostile glob cannot stall the host. A glob the schema
 * refuses (too long, too many alternatives) fails closed: as an include it
 * admits nothing, as an exclude it hides everything. Pure and memoized per
 * filter object. `normalizedFilter` is the same filter with every
 * glob normalized the way the official client normalizes public tool names
 * (characters outside `[A-Za-z0-9_-]` become `_`, glob syntax kept): it judges
 * a tool whose raw name only survives normalized (`get.item` → `get_item`).
 *
 * @module
 */
import { compileGlob } from '../config/glob.ts'

export interface ToolFilter {
  include?: readonly string[] | undefined
  exclude?: readonly string[] | undefined
}

type Matcher = (raw: string) => boolean

const cache = new WeakMap<ToolFilter, Matcher>()

/** One matcher for a glob list; a refused glob matches `refused` (fail closed). */
function compile(globs: readonly string[] | undefined, refused: boolean): ((s: string) => boolean) | undefined {
  if (!globs || globs.length === 0) return undefined
  const tests = globs.map((g) => compileGlob(g) ?? (() => refused))
  return (s) => tests.some((t) => t(s))
}

/** Whether a raw tool name passes `filter`. */
export function admits(filter: ToolFilter | undefined, raw: string): boolean {
  if (!filter) return true
  let m = cache.get(filter)
  if (!m) {
    const include = compile(filter.include, false)
    const exclude = compile(filter.exclude, true)
    m = (s) => (!include || include(s)) && !(exclude?.(s) ?? false)
    cache.set(filter, m)
  }
  return m(raw)
}

const normalized = new WeakMap<ToolFilter, ToolFilter>()
const normalizeGlob = (g: string) => g.replace(/[^A-Za-z0-9_\-*?[\]{},!\\]/g, '_')

/** `filter` with its globs normalized like public tool names (memoized per filter object). */
export function normalizedFilter(filter: ToolFilter): ToolFilter {
  let n = normalized.get(filter)
  if (!n) {
    n = {
      ...(filter.include ? { include: filter.include.map(normalizeGlob) } : {}),
      ...(filter.exclude ? { exclude: filter.exclude.map(normalizeGlob) } : {}),
    }
    normalized.set(filter, n)
  }
  return n
}

/** Whether a filter can hide anything at all (a cheap skip for the common case). */
export function isRestrictive(filter: ToolFilter | undefined): boolean {
  return !!filter && ((filter.include?.length ?? 0) > 0 || (filter.exclude?.length ?? 0) > 0)
}
