/**
 * The recorded tool catalogs of real MCP servers (bench/catalogs/*.json, written by
 * bench/catalogs/record.ts) and the task queries written for them, as search-index entries.
 *
 * Contract: read-only; a tool's public name is `<server>_<tool>` (the host's form), its id in the
 * queries `<server>/<tool>`.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ToolEntry } from '../../src/budget/search.ts'

const dir = fileURLToPath(new URL('../catalogs/', import.meta.url))

export interface Catalog {
  server: string
  package: string
  version: string
  tools: { name: string; description: string; inputSchema: unknown }[]
}

export function readCatalogs(): Catalog[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'queries.json')
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Catalog)
}

export const publicName = (server: string, tool: string) => `${server}_${tool}`

export function catalogEntries(catalogs = readCatalogs()): ToolEntry[] {
  return catalogs.flatMap((c) =>
    c.tools.map((t) => ({
      name: publicName(c.server, t.name),
      raw: t.name,
      server: c.server,
      description: t.description,
      parameters: t.inputSchema,
    })),
  )
}

/** Each query and the public names that answer it. */
export function readQueries(): { query: string; expect: string[] }[] {
  const doc = JSON.parse(readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { queries: [string, string][] }
  return doc.queries.map(([query, ids]) => ({
    query,
    expect: ids.split('|').map((id) => {
      const [server, tool] = id.split('/') as [string, string]
      return publicName(server, tool)
    }),
  }))
}
