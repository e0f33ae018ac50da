/**
 * Gemini CLI's `.gemini/settings.json` (`mcpServers`): `httpUrl` (and `url`)
 * become `url`, `includeTools`/`excludeTools` the `tools` filter, the keys the
 * field table spells for Gemini (config/fields.ts `import`: `timeout`, ms); `$VAR` in env values becomes `${VAR}`; `trust`
 * and other Gemini-only keys are dropped with a note. A `url` with `type: "sse"` stays SSE (no note); an untyped
 * `url` (Gemini's SSE endpoint) is imported as streamable HTTP with a note. A tool name holding a comma
 * (`includeTools: ["a,b"]`, what `gemini mcp add --include-tools a,b` writes) is one name to Gemini and to dsh:
 * a warning says so.
 */
import {
  type Candidate,
  candidateFrom,
  candidatesOf,
  droppedNote,
  fromMcpJsonEntry,
  isRecord,
  parseJsonObject,
  tableImports,
} from './common.ts'
import { stripJsonc } from './vscode.ts'

export function importGemini(text: string): Candidate[] | { error: string } {
  const doc = parseJsonObject(stripJsonc(text))
  if ('error' in doc) return doc
  return candidatesOf(doc.value.mcpServers, geminiEntry)
}

function geminiEntry(name: string, raw: unknown): Candidate {
  if (!isRecord(raw)) return { name, invalid: 'the entry is not an object', notes: [] }
  const notes: string[] = []
  const renamed = tableImports(raw, 'gemini')
  if ('invalid' in renamed) return { name, invalid: renamed.invalid, notes }
  const { httpUrl, url, includeTools, excludeTools, trust, ...rest } = renamed.body
  const body: Record<string, unknown> = { ...rest }
  if (httpUrl !== undefined) body.url = httpUrl
  else if (url !== undefined) {
    if (rest.type !== 'http' && rest.type !== 'sse')
      notes.push(
        'Gemini\'s "url" is an SSE endpoint; imported as streamable-http: check the server serves that at the same URL',
      )
    body.url = url
    if (rest.type === 'http') delete body.type
  }
  if (includeTools !== undefined || excludeTools !== undefined)
    body.tools = {
      ...(includeTools !== undefined ? { include: includeTools } : {}),
      ...(excludeTools !== undefined ? { exclude: excludeTools } : {}),
    }
  for (const [key, list] of [
    ['includeTools', includeTools],
    ['excludeTools', excludeTools],
  ] as const) {
    const joined = Array.isArray(list) ? list.filter((t) => typeof t === 'string' && t.includes(',')) : []
    if (joined.length)
      notes.push(
        `warning: ${key} holds ${joined.map((t) => `"${t}"`).join(', ')}: one tool name with a comma, which matches no tool (Gemini reads it the same way); write each name as its own item`,
      )
  }
  if (trust !== undefined) notes.push('"trust" is not carried over: dsh asks for trust itself (dsh-mcp trust)')
  if (isRecord(body.env)) {
    body.env = Object.fromEntries(
      Object.entries(body.env).map(([k, v]) => [
        k,
        typeof v === 'string'
          ? v.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, n: string, off: number, s: string) =>
              s[off - 1] === '$' ? m : `\${${n}}`,
            )
          : v,
      ]),
    )
  }
  const m = fromMcpJsonEntry(body)
  notes.push(...droppedNote(m.dropped))
  return candidateFrom(name, m, notes)
}
