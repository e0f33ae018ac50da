/**
 * Claude Code and Claude Desktop (`mcpServers`): the same `${VAR}` syntax as
 * dsh, entries map one to one. Claude Code keeps servers in the project's
 * `.mcp.json` (project scope) and in `~/.claude.json`: its top-level
 * `mcpServers` (user scope) and `projects[<project dir>].mcpServers` (local
 * scope, its default); Claude Desktop's `claude_desktop_config.json` is
 * user scope.
 */
import {
  type Candidate,
  candidateFrom,
  candidatesOf,
  droppedNote,
  fromMcpJsonEntry,
  isRecord,
  parseJsonObject,
} from './common.ts'

function entries(servers: unknown): Candidate[] | { error: string } {
  return candidatesOf(servers, (name, raw) => {
    const m = fromMcpJsonEntry(raw)
    return candidateFrom(name, m, droppedNote(m.dropped))
  })
}

/** `.mcp.json`, `claude_desktop_config.json`, and the top level of `~/.claude.json`. */
export function importClaude(text: string): Candidate[] | { error: string } {
  const doc = parseJsonObject(text)
  if ('error' in doc) return doc
  return entries(doc.value.mcpServers)
}

/** `projects[<root>].mcpServers` of `~/.claude.json` (the key is the directory Claude Code ran in). */
export function importClaudeProject(text: string, roots: readonly string[]): Candidate[] | { error: string } {
  const doc = parseJsonObject(text)
  if ('error' in doc) return doc
  const projects = doc.value.projects
  if (!isRecord(projects)) return []
  const key = roots.find((r) => isRecord(projects[r]))
  return key === undefined ? [] : entries((projects[key] as Record<string, unknown>).mcpServers)
}
