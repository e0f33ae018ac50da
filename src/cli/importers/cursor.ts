/**
 * Cursor's `.cursor/mcp.json` (`mcpServers`): `${env:X}` becomes `${X}`,
 * `${workspaceFolder}` the project root, `envFile` is not carried over.
 */
import {
  type Candidate,
  candidateFrom,
  candidatesOf,
  droppedNote,
  fromMcpJsonEntry,
  isRecord,
  parseJsonObject,
  translateEditorVars,
} from './common.ts'

export function importCursor(text: string): Candidate[] | { error: string } {
  const doc = parseJsonObject(text)
  if ('error' in doc) return doc
  return candidatesOf(doc.value.mcpServers, (name, raw) => editorEntry(name, raw))
}

/** Shared with VS Code: one editor-style entry. */
export function editorEntry(name: string, raw: unknown, inputs?: Map<string, string | undefined>): Candidate {
  const notes: string[] = []
  let body = raw
  if (isRecord(raw) && 'envFile' in raw) {
    const { envFile: _dropped, ...rest } = raw
    body = rest
    notes.push('"envFile" is not carried over: put those variables in the environment or in .dsh/mcp.local.yml')
  }
  const m = fromMcpJsonEntry(body)
  notes.push(...droppedNote(m.dropped))
  if (!m.entry) return candidateFrom(name, m, notes)
  const t = translateEditorVars(m.entry, notes, inputs)
  return candidateFrom(name, t, notes)
}
