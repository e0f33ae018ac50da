/**
 * Codex's `config.toml` (`[mcp_servers.<name>]`): command/args/env/cwd/url;
 * the keys the field table spells for Codex (config/fields.ts `import`:
 * `tool_timeout_sec`, `startup_timeout_sec`/`_ms`, in ms);
 * `enabled_tools`/`disabled_tools` → `tools`, `enabled`,
 * `bearer_token_env_var` / `http_headers` / `env_http_headers` → headers;
 * `env_vars` is dropped with a note. Codex (0.171) passes `${VAR}` in its
 * values literally while dsh expands it: an entry holding one says so.
 */
import { parse } from 'smol-toml'
import type { Candidate } from './common.ts'
import {
  candidateFrom,
  candidatesOf,
  droppedNote,
  fromMcpJsonEntry,
  isRecord,
  parseFailure,
  tableImports,
} from './common.ts'

export function importCodex(text: string): Candidate[] | { error: string } {
  let doc: Record<string, unknown>
  try {
    doc = parse(text) as Record<string, unknown>
  } catch (err) {
    // smol-toml's message quotes the offending line: report its position only.
    const { line, column } = err as { line?: number; column?: number }
    return parseFailure(
      'not valid TOML',
      text,
      typeof line === 'number' && typeof column === 'number' ? { line, col: column } : undefined,
    )
  }
  return candidatesOf(doc.mcp_servers, codexEntry)
}

function codexEntry(name: string, raw: unknown): Candidate {
  if (!isRecord(raw)) return { name, invalid: 'the entry is not a table', notes: [] }
  const notes: string[] = []
  const renamed = tableImports(raw, 'codex')
  if ('invalid' in renamed) return { name, invalid: renamed.invalid, notes }
  const { enabled_tools, disabled_tools, env_vars, bearer_token_env_var, http_headers, env_http_headers, ...rest } =
    renamed.body
  const body: Record<string, unknown> = { ...rest }
  if (enabled_tools !== undefined || disabled_tools !== undefined)
    body.tools = {
      ...(enabled_tools !== undefined ? { include: enabled_tools } : {}),
      ...(disabled_tools !== undefined ? { exclude: disabled_tools } : {}),
    }
  if (env_vars !== undefined)
    notes.push(`"env_vars" is not carried over: list those variables under env: (KEY: \${KEY})`)
  const headers: Record<string, unknown> = isRecord(http_headers) ? { ...http_headers } : {}
  if (isRecord(env_http_headers)) for (const [h, v] of Object.entries(env_http_headers)) headers[h] = `\${${String(v)}}`
  if (typeof bearer_token_env_var === 'string') headers.Authorization = `Bearer \${${bearer_token_env_var}}`
  if (Object.keys(headers).length) body.headers = headers
  const m = fromMcpJsonEntry(body)
  notes.push(...droppedNote(m.dropped))
  if (m.entry && JSON.stringify(m.entry).includes('${'))
    notes.push(
      `Codex passes \${VAR} literally (it never expands it); dsh expands it from the environment: check the server wants the value, not the text`,
    )
  return candidateFrom(name, m, notes)
}
