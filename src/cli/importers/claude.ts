/** Claude Code's `.mcp.json` (`mcpServers`): the same `${VAR}` syntax as dsh, entries map one to one. */
import { type Candidate, candidateFrom, candidatesOf, droppedNote, fromMcpJsonEntry, parseJsonObject } from './common.ts'

export function importClaude(text: string): Candidate[] | { error: string } {
  const doc = parseJsonObject(text)
  if ('error' in doc) return doc
  return candidatesOf(doc.value.mcpServers, (name, raw) => {
    const m = fromMcpJsonEntry(raw)
    return candidateFrom(name, m, droppedNote(m.dropped))
  })
}
