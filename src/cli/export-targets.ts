/**
 * The peers' own shapes for `dsh-mcp export --target` (docs/guide/cli.md, `export`): the file each client reads
 * at its project scope, the last step from the field table's spellings to what Codex and Gemini CLI read, and the
 * text written (JSON, or Codex's TOML), merged into a file that holds the client's other settings.
 *
 * Contract: pure (values in, values out); notes name servers, keys and variables, never a value.
 * - {@link TARGET_FILES}: each client's project-scope file (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`,
 *   `.codex/config.toml`, `.gemini/settings.json`), what `--write` writes.
 * - {@link shapeFor}: a server as `export.ts` built it (the table's spellings, `type` for the transport, values in
 *   `${VAR}` form) → the target's own entry. Codex (0.171) expands no `${VAR}` anywhere: an env value that is
 *   `${SAME_NAME}` becomes `env_vars` (forwarded from its environment), a header that is `${VAR}` becomes
 *   `env_http_headers`, `Authorization: Bearer ${VAR}` `bearer_token_env_var`; any other `${…}` is dropped or kept
 *   literal with a note; Codex has no SSE transport (such a server is left out, with a note). Gemini CLI (0.61)
 *   expands `${VAR}` and `${VAR:-default}`: values stay as written; streamable HTTP is `httpUrl`, SSE `url` with
 *   `type: "sse"`. Both take tool names, not globs: `tools` becomes `enabled_tools`/`disabled_tools` or
 *   `includeTools`/`excludeTools`, and a glob is named in a note.
 * - {@link documentText}: the servers as the file's text; with the text of the file already there (Codex's
 *   `config.toml`, Gemini's `settings.json` hold other settings), every other key and server is kept, a server
 *   of the same name replaced.
 *
 * @module
 */
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml'
import { isRecord } from '../config/guards.ts'
import { stripJsonc } from './importers/vscode.ts'

export const TARGETS = ['claude', 'cursor', 'vscode', 'codex', 'gemini'] as const
export type Target = (typeof TARGETS)[number]

/** Each client's project-scope file, relative to the project root. */
export const TARGET_FILES: Record<Target, string> = {
  claude: '.mcp.json',
  cursor: '.cursor/mcp.json',
  vscode: '.vscode/mcp.json',
  codex: '.codex/config.toml',
  gemini: '.gemini/settings.json',
}

/** The top-level key of the server map in each client's file. */
export function serversKey(target: Target): string {
  return target === 'vscode' ? 'servers' : target === 'codex' ? 'mcp_servers' : 'mcpServers'
}

const ONE_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/
const BEARER_REF = /^Bearer \$\{([A-Za-z_][A-Za-z0-9_]*)\}$/i
const GLOB = /[*?[\]{}]/

function toolLists(
  tools: unknown,
  keys: [string, string],
  name: string,
  notes: string[],
): Record<string, unknown> | undefined {
  if (!isRecord(tools)) return undefined
  const out: Record<string, unknown> = {}
  const globs: string[] = []
  for (const [from, to] of [
    ['include', keys[0]],
    ['exclude', keys[1]],
  ] as const) {
    const list = tools[from]
    if (!Array.isArray(list)) continue
    out[to] = list
    globs.push(...list.filter((t) => typeof t === 'string' && GLOB.test(t)))
  }
  if (globs.length)
    notes.push(`${name}: ${keys.join('/')} take exact tool names; ${globs.map((g) => `"${g}"`).join(', ')} is a glob`)
  return out
}

/** One server in Codex's `[mcp_servers.<name>]` shape, or undefined (left out, with a note). */
function codexEntry(name: string, e: Record<string, unknown>, notes: string[]): Record<string, unknown> | undefined {
  const { type, tools, env, http_headers, ...rest } = e
  if (type === 'sse') {
    notes.push(`${name}: Codex has no SSE transport (not exported)`)
    return undefined
  }
  const out: Record<string, unknown> = { ...rest }
  const literal: string[] = []
  if (isRecord(env)) {
    const kept: Record<string, unknown> = {}
    const forwarded: string[] = []
    for (const [k, v] of Object.entries(env)) {
      const ref = typeof v === 'string' ? ONE_REF.exec(v) : null
      if (ref && ref[1] === k) forwarded.push(k)
      else if (typeof v === 'string' && v.includes('${')) literal.push(`env.${k}`)
      else kept[k] = v
    }
    if (Object.keys(kept).length) out.env = kept
    if (forwarded.length) out.env_vars = forwarded
  }
  if (isRecord(http_headers)) {
    const plain: Record<string, unknown> = {}
    const fromEnv: Record<string, string> = {}
    for (const [h, v] of Object.entries(http_headers)) {
      const ref = typeof v === 'string' ? ONE_REF.exec(v) : null
      const bearer = typeof v === 'string' && /^authorization$/i.test(h) ? BEARER_REF.exec(v) : null
      if (bearer) out.bearer_token_env_var = bearer[1]
      else if (ref) fromEnv[h] = ref[1]!
      else if (typeof v === 'string' && v.includes('${')) literal.push(`headers.${h}`)
      else plain[h] = v
    }
    if (Object.keys(plain).length) out.http_headers = plain
    if (Object.keys(fromEnv).length) out.env_http_headers = fromEnv
  }
  for (const k of ['command', 'cwd', 'url'] as const)
    if (typeof out[k] === 'string' && (out[k] as string).includes('${')) literal.push(k)
  if (Array.isArray(out.args))
    for (const [i, a] of out.args.entries()) if (typeof a === 'string' && a.includes('${')) literal.push(`args[${i}]`)
  const dropped = literal.filter((p) => p.startsWith('env.') || p.startsWith('headers.'))
  const kept = literal.filter((p) => !dropped.includes(p))
  if (dropped.length)
    notes.push(
      `${name}: Codex does not expand \${VAR}; ${dropped.join(', ')} (not a plain \${NAME}) left out: set it in Codex's own config`,
    )
  if (kept.length)
    notes.push(`${name}: Codex does not expand \${VAR}; ${kept.join(', ')} written as literal text: check it`)
  const lists = toolLists(tools, ['enabled_tools', 'disabled_tools'], name, notes)
  return lists ? { ...out, ...lists } : out
}

/** One server in Gemini CLI's `mcpServers` shape. */
function geminiEntry(name: string, e: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const { type, tools, httpUrl, ...rest } = e
  const out: Record<string, unknown> = { ...rest }
  if (httpUrl !== undefined) {
    if (type === 'sse') Object.assign(out, { url: httpUrl, type: 'sse' })
    else out.httpUrl = httpUrl
  }
  const lists = toolLists(tools, ['includeTools', 'excludeTools'], name, notes)
  return lists ? { ...out, ...lists } : out
}

/** The servers (as export.ts built them) in the target's own shape; servers it cannot take are left out. */
export function shapeFor(
  target: Target,
  servers: Record<string, Record<string, unknown>>,
  notes: string[],
): Record<string, Record<string, unknown>> {
  if (target !== 'codex' && target !== 'gemini') return servers
  const out: Record<string, Record<string, unknown>> = {}
  for (const [name, e] of Object.entries(servers)) {
    const shaped = target === 'codex' ? codexEntry(name, e, notes) : geminiEntry(name, e, notes)
    if (shaped) out[name] = shaped
  }
  return out
}

/** What the existing file holds, for a merge; `error` when it does not parse (nothing is written then). */
function existingDocument(target: Target, text: string): { doc: Record<string, unknown> } | { error: string } {
  try {
    const v = target === 'codex' ? parseToml(text) : JSON.parse(stripJsonc(text.replace(/^\uFEFF/, '')))
    return isRecord(v) ? { doc: v } : { error: 'it is not an object' }
  } catch {
    return { error: `it is not valid ${target === 'codex' ? 'TOML' : 'JSON'}` }
  }
}

/**
 * The file's text: the servers alone, or merged into `existing` (Codex's and Gemini's files, which hold other
 * settings: every other key and server kept, the exported names replaced; comments are not kept).
 */
export function documentText(
  target: Target,
  servers: Record<string, Record<string, unknown>>,
  existing?: string,
): { text: string; kept: number } | { error: string } {
  const key = serversKey(target)
  let doc: Record<string, unknown> = {}
  let kept = 0
  if (existing !== undefined && existing.trim() !== '' && (target === 'codex' || target === 'gemini')) {
    const old = existingDocument(target, existing)
    if ('error' in old) return old
    doc = old.doc
    const others = isRecord(doc[key]) ? (doc[key] as Record<string, unknown>) : {}
    const rest = Object.fromEntries(Object.entries(others).filter(([n]) => !(n in servers)))
    kept = Object.keys(rest).length
    doc = { ...doc, [key]: { ...rest, ...servers } }
  } else doc = { [key]: servers }
  const text = target === 'codex' ? stringifyToml(doc) : JSON.stringify(doc, null, 2)
  return { text: `${text.trimEnd()}\n`, kept }
}
