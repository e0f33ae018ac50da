/**
 * VS Code's `.vscode/mcp.json` (`servers` + `inputs`): an `${input:id}`
 * becomes `${ID}` (upper-cased) with a note telling the user to set it;
 * otherwise as Cursor.
 */
import { type Candidate, candidatesOf, isRecord, parseJsonObject } from './common.ts'
import { editorEntry } from './cursor.ts'

/**
 * VS Code allows comments and trailing commas in mcp.json: blank them out
 * (newlines kept, every other character replaced by a space), so offsets in
 * the result are offsets in the file.
 */
export function stripJsonc(text: string): string {
  let out = ''
  const blank = (s: string) => s.replace(/[^\n]/g, ' ')
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      const start = i
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++
      out += text.slice(start, i + 1)
    } else if (c === '/' && text[i + 1] === '/') {
      const start = i
      while (i < text.length && text[i] !== '\n') i++
      out += blank(text.slice(start, i)) + (i < text.length ? '\n' : '')
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end < 0 ? text.length : end + 2
      out += blank(text.slice(i, stop))
      i = stop - 1
    } else out += c
  }
  return out.replace(/,(\s*[}\]])/g, ' $1')
}

export function importVscode(text: string): Candidate[] | { error: string } {
  const doc = parseJsonObject(stripJsonc(text))
  if ('error' in doc) return doc
  const inputs = new Map<string, string | undefined>()
  if (Array.isArray(doc.value.inputs)) {
    for (const i of doc.value.inputs)
      if (isRecord(i) && typeof i.id === 'string')
        inputs.set(i.id, typeof i.description === 'string' ? i.description : undefined)
  }
  return candidatesOf(doc.value.servers, (name, raw) => editorEntry(name, raw, inputs))
}
