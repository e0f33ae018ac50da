/**
 * The tool search index: which tools match a natural-language query.
 *
 * Contract: pure (no fs, no host). `createToolIndex(entries)` indexes each
 * tool's public name, raw name, server name and server description, its
 * description and its parameters' names and descriptions (terms.ts: names
 * split on `_-/.` and camelCase, stop words dropped, inflections folded);
 * `index.search(query, k)` returns at most `k` entries, best first, scored
 * by MiniSearch's BM25+ with field boosts (name 4, server 2, parameter names
 * 1.5, description 1, parameter descriptions 0.7), prefix matches for words
 * of 5+ letters (no typo matching: it cost latency and no recall in the
 * benchmark), and the query's words widened by synonyms.ts at half weight; a query naming a tool exactly
 * (its public or raw name) ranks that tool first. Ties keep the entries'
 * order. An empty or stop-word-only query returns nothing. Never throws.
 * Why MiniSearch: a maintained, dependency-free BM25 index (MIT, ~1 MB
 * unpacked, loads in milliseconds) with per-field boosts, prefix matching
 * and nested weighted queries that would otherwise be hand-written here.
 *
 * @module
 */
import MiniSearch from 'minisearch'
import { expandQuery } from './synonyms.ts'
import { normalizeTerm, splitWords, summaryOf } from './terms.ts'

/** One searchable tool. */
export interface ToolEntry {
  /** The public name the agent calls (`server_tool` form): the id. */
  name: string
  /** The tool's own name at its server. */
  raw: string
  server: string
  /** What the server is for (its `description` field), when written. */
  serverDescription?: string
  description: string
  /** The input schema (its `properties` are read). */
  parameters?: unknown
}

export interface SearchHit {
  name: string
  server: string
  summary: string
  score: number
}

export interface ToolIndex {
  readonly size: number
  search(query: string, k: number): SearchHit[]
}

interface Doc {
  id: string
  name: string
  server: string
  description: string
  params: string
  paramText: string
}

/** Parameter names and descriptions of a JSON Schema object (one level, plus array items). */
function paramsOf(schema: unknown): { names: string[]; texts: string[] } {
  const names: string[] = []
  const texts: string[] = []
  const props = (schema as { properties?: unknown } | undefined)?.properties
  if (props && typeof props === 'object') {
    for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
      names.push(key)
      const v = value as { description?: unknown; items?: { properties?: unknown } } | null
      if (v && typeof v.description === 'string') texts.push(v.description)
      if (v?.items && typeof v.items === 'object') {
        const inner = paramsOf(v.items)
        names.push(...inner.names)
        texts.push(...inner.texts)
      }
    }
  }
  return { names, texts }
}

/** Weight of the words synonyms.ts adds to a query, against the query's own. */
const EXPANSION_BOOST = 0.5

const tokenize = (text: string) => splitWords(text)
const processTerm = (term: string) => normalizeTerm(term) ?? null

/** Builds the index over `entries` (duplicated names: the first wins). */
export function createToolIndex(entries: readonly ToolEntry[]): ToolIndex {
  const byName = new Map<string, ToolEntry>()
  const exact = new Map<string, string>()
  for (const e of entries) {
    if (byName.has(e.name)) continue
    byName.set(e.name, e)
    exact.set(e.name.toLowerCase(), e.name)
    if (!exact.has(e.raw.toLowerCase())) exact.set(e.raw.toLowerCase(), e.name)
  }
  const mini = new MiniSearch<Doc>({
    fields: ['name', 'server', 'description', 'params', 'paramText'],
    storeFields: [],
    tokenize,
    processTerm,
    searchOptions: {
      boost: { name: 4, server: 2, params: 1.5, description: 1, paramText: 0.7 },
      prefix: (term) => term.length >= 5,
      combineWith: 'OR',
    },
  })
  const docs: Doc[] = []
  for (const e of byName.values()) {
    const p = paramsOf(e.parameters)
    docs.push({
      id: e.name,
      name: e.raw === e.name ? e.name : `${e.raw} ${e.name}`,
      server: `${e.server} ${e.serverDescription ?? ''}`,
      description: e.description,
      params: p.names.join(' '),
      paramText: p.texts.join(' '),
    })
  }
  mini.addAll(docs)
  const order = new Map([...byName.keys()].map((n, i) => [n, i]))

  return {
    size: byName.size,
    search(query, k) {
      if (k <= 0) return []
      let results: { id: string; score: number }[]
      try {
        const extra = expandQuery(splitWords(query))
        const q =
          extra.length === 0
            ? query
            : { combineWith: 'OR', queries: [query, { queries: extra, boostTerm: () => EXPANSION_BOOST }] }
        results = mini.search(q as Parameters<typeof mini.search>[0]) as { id: string; score: number }[]
      } catch {
        return []
      }
      const named = exact.get(query.trim().toLowerCase())
      const sorted = results
        .map((r) => ({ id: r.id, score: r.id === named ? Number.POSITIVE_INFINITY : r.score }))
        .sort((a, b) => b.score - a.score || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
      if (named && !sorted.some((r) => r.id === named)) sorted.unshift({ id: named, score: Number.POSITIVE_INFINITY })
      return sorted.slice(0, k).map((r) => {
        const e = byName.get(r.id) as ToolEntry
        return { name: e.name, server: e.server, summary: summaryOf(e.description), score: r.score }
      })
    },
  }
}
