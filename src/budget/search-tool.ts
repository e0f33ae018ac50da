/**
 * The `mcp_tool_search` tool as the model sees it: its description, its
 * input schema, and the text of its answer.
 *
 * Contract: pure. `searchToolDescription(servers)` says what the tool does
 * and lists the agent's servers, one line each (`- name: description`, the
 * server's `description` field, else its tool count) — never every tool
 * name. `searchToolShape(description)` is the tool as registered (name,
 * description, parameters: `query` text, `limit` 1–10, default 5).
 * `parseSearchArgs(args)` reads a call's arguments (a missing or empty
 * query is an error text, never a throw). `searchAnswer(hits, revealed)`
 * is the result text: one line per match (`name (server): summary`), and
 * which of them became callable from the next step.
 *
 * @module
 */
import type { SearchHit } from './search.ts'

export const SEARCH_TOOL_NAME = 'mcp_tool_search'
export const DEFAULT_SEARCH_LIMIT = 5
export const MAX_SEARCH_LIMIT = 10

export interface SearchServer {
  name: string
  description?: string
  /** Tools of this server the agent does not see yet. */
  deferred?: number
}

function oneLine(text: string, max = 100): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 3).trimEnd()}...` : line
}

export function searchToolDescription(servers: readonly SearchServer[]): string {
  const lines = servers.map((s) => {
    const what = s.description ? oneLine(s.description) : 'MCP server'
    return `- ${s.name}: ${what}${s.deferred ? ` (${s.deferred} more tools)` : ''}`
  })
  return [
    'Find more tools of this project’s MCP servers. Many are not offered yet to save context: describe the task ' +
      '(e.g. "create a GitHub issue", "read a file"); the best matches become callable directly from your next step.',
    'Servers:',
    ...lines,
  ].join('\n')
}

export function searchToolShape(description: string) {
  return {
    name: SEARCH_TOOL_NAME,
    description,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, in a few words.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SEARCH_LIMIT,
          description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
  }
}

export function parseSearchArgs(args: unknown): { query: string; limit: number } | { error: string } {
  const a = (args && typeof args === 'object' ? args : {}) as { query?: unknown; limit?: unknown }
  if (typeof a.query !== 'string' || a.query.trim() === '')
    return { error: 'mcp_tool_search needs a "query": what you want to do, in a few words.' }
  const n = typeof a.limit === 'number' && Number.isFinite(a.limit) ? Math.trunc(a.limit) : DEFAULT_SEARCH_LIMIT
  return { query: a.query.slice(0, 500), limit: Math.min(MAX_SEARCH_LIMIT, Math.max(1, n)) }
}

export function searchAnswer(hits: readonly SearchHit[], revealed: readonly string[]): string {
  if (hits.length === 0) return 'No matching tool. Try other words, or a server name from this tool’s description.'
  const fresh = new Set(revealed)
  const lines = hits.map((h) => `- ${h.name} (${h.server}): ${h.summary || 'no description'}`)
  const tail =
    fresh.size > 0
      ? `These tools are now available: call them directly by name from your next step.`
      : 'These tools are already available: call them directly by name.'
  return [`Matching tools:`, ...lines, tail].join('\n')
}
