/**
 * Where an export's values go, and what a file inside a repository gets
 * (docs/guide/cli.md, `export`).
 *
 * Contract:
 * - {@link repositoryHolding} names the repository a file would land in (the
 *   nearest ancestor of its real directory holding `.git`, `.hg` or `.svn`),
 *   or undefined outside every repository. It reads only directory entries.
 * - {@link referenceSecrets} is pure: it takes an exported document (the
 *   client's own shape, `mcpServers` or `servers`) and returns a copy in
 *   which every literal secret is a variable reference in the client's
 *   spelling (`${VAR}` for Claude Code, Codex and Gemini CLI, `${env:VAR}` for Cursor and VS Code; Codex's `http_headers` and Gemini's `httpUrl` too),
 *   with the variables to set. Secret means: an env or header value whose
 *   name is secret-bearing (`isSecretName`: `*_TOKEN`, `Authorization`, …),
 *   a header value with an auth scheme (`Bearer x`: the scheme is kept), a
 *   value or argument holding URL credentials or query values, and the value
 *   of a secret-bearing flag in `args` (`argSecrets`). A value that already
 *   holds a `${…}` reference is kept as written, and so is every plain value
 *   (`TZ: UTC`, `X-Team: core`, paths): they are written as they are. An env
 *   key that is a variable name is its own variable (`GITHUB_TOKEN:
 *   ${GITHUB_TOKEN}`); any other secret becomes `<SERVER>_<NAME>`. No value
 *   is returned or printed, only variable names.
 *
 * @module
 */
import { existsSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { argSecrets, isSecretName, mapUrlSecrets, urlSecrets } from '../config/redact-shapes.ts'
import { variableName } from './importers/secrets.ts'

import type { Target } from './export-targets.ts'

type Format = Target

/** The repository directory `file` would be written into, or undefined outside every repository. */
export function repositoryHolding(file: string): string | undefined {
  let dir: string
  try {
    dir = realpathSync(path.dirname(file))
  } catch {
    dir = path.resolve(path.dirname(file))
  }
  for (;;) {
    if (['.git', '.hg', '.svn'].some((m) => existsSync(path.join(dir, m)))) return dir
    const up = path.dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

const SCHEME = /^(Bearer|Basic|Token|Bot)\s+(\S.*)$/i
const hasReference = (v: string) => v.includes('${')

export function referenceSecrets(
  doc: Record<string, unknown>,
  format: Format,
): { doc: Record<string, unknown>; vars: string[] } {
  const vars = new Set<string>()
  const ref = (name: string) => {
    vars.add(name)
    return format === 'cursor' || format === 'vscode' ? `\${env:${name}}` : `\${${name}}`
  }
  /** URL credentials and query values of every URL in `text` → references. */
  const urls = (server: string, text: string) =>
    mapUrlSecrets(text, (value, key) =>
      // \${env:VAR} (the editors' spelling) is a reference too.
      hasReference(value)
        ? value
        : ref(
            variableName(
              server,
              key === undefined ? 'URL_PARAM' : key === 'user' || key === 'password' ? `URL_${key}` : key,
            ),
          ),
    )
  const urlSecret = (v: string) => urlSecrets(v).some((s) => !hasReference(s))
  const key = (doc.servers ? 'servers' : 'mcpServers') as 'servers' | 'mcpServers'
  const servers = doc[key] as Record<string, Record<string, unknown>>
  const out: Record<string, unknown> = {}
  for (const [server, entry] of Object.entries(servers)) {
    const e: Record<string, unknown> = { ...entry }
    if (entry.env) {
      const env: Record<string, string> = {}
      for (const [k, v] of Object.entries(entry.env as Record<string, string>)) {
        if (hasReference(v) || !(isSecretName(k) || urlSecret(v))) env[k] = v
        else env[k] = ref(/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : variableName(server, k))
      }
      e.env = env
    }
    // Codex spells headers `http_headers`, Gemini's streamable-HTTP url `httpUrl` (the field table's spellings).
    const headersKey = entry.http_headers ? 'http_headers' : 'headers'
    if (entry[headersKey]) {
      const headers: Record<string, string> = {}
      for (const [h, v] of Object.entries(entry[headersKey] as Record<string, string>)) {
        const scheme = SCHEME.exec(v)
        if (hasReference(v) || !(isSecretName(h) || scheme || urlSecret(v))) headers[h] = v
        else headers[h] = `${scheme ? `${scheme[1]} ` : ''}${ref(variableName(server, h))}`
      }
      e[headersKey] = headers
    }
    if (Array.isArray(entry.args)) {
      const args = (entry.args as string[]).slice()
      for (const [i, tail] of argSecrets(args)) {
        if (hasReference(tail)) continue
        const arg = args[i]!
        const head = arg.slice(0, arg.length - tail.length)
        const label = head.replace(/^-+/, '').replace(/[=:\s]+$/, '') || (args[i - 1] ?? '').replace(/^-+/, '')
        const scheme = SCHEME.exec(tail)
        args[i] = `${head}${scheme ? `${scheme[1]} ` : ''}${ref(variableName(server, label || `ARG${i}`))}`
      }
      e.args = args.map((a) => urls(server, a))
    }
    for (const k of ['url', 'httpUrl'] as const)
      if (typeof entry[k] === 'string') e[k] = urls(server, entry[k] as string)
    out[server] = e
  }
  return { doc: { [key]: out }, vars: [...vars] }
}
