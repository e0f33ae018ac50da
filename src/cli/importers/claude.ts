/** Claude Code's `.mcp.json` (`mcpServers`): the same `${VAR}` syntax as dsh, entries map one to one. */
import { type Candidate, candidatesOf, droppedNote, fromMcpJsonEntry, parseJsonObject } from './common.ts'

export function importClaude(text: string): Candidate[] | { error: string } {
  const doc = parseJsonObject(text)
  if ('error' in doc) return doc
  return candidatesOf(doc.value.mcpServers, (name, raw) => {
    const m = fromMcpJsonEntry(raw)
    return { name, ...(m.entry ? { entry: m.entry } : {}), ...(m.invalid ? { invalid: m.invalid } : {}), notes: droppedNote(m.dropped) }
  })
}
