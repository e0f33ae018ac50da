/**
 * The environment a stdio server is started with, and secret redaction.
 *
 * Contract: `childEnv` reproduces the official client's rule exactly — the
 * inherited environment minus every name matching `/KEY|PASSWORD|SECRET|TOKEN/i`
 * or starting with `DSH_` (any case), then the entry's own `env` on top — so
 * doctor starts what the host will start. (The MCP SDK adds its small safe
 * default set, HOME/PATH/…, underneath, for doctor as for the host.)
 *
 * `secretValues` collects every value that must never be printed: the
 * expanded `env` and `headers` values (and a header's credential after its
 * auth scheme), plus the value of every variable the entry's templates refer
 * to. `redact` replaces each occurrence in a text with `***`. Values shorter
 * than {@link MIN_SECRET_LENGTH} are left alone (redacting "1" would garble
 * every message and protects nothing).
 *
 * @module
 */
import { templateSites, templateVariables } from '../config/expand.ts'
import type { Entry } from '../config/schema.ts'

export const SENSITIVE_ENV_PATTERN = /KEY|PASSWORD|SECRET|TOKEN/i
export const MIN_SECRET_LENGTH = 4

/** The inherited environment as the official client passes it on. */
export function scrubbedEnv(parent: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || SENSITIVE_ENV_PATTERN.test(key) || key.toUpperCase().startsWith('DSH_')) continue
    out[key] = value
  }
  return out
}

export function childEnv(parent: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return { ...scrubbedEnv(parent), ...extra }
}

/**
 * Values to hide for one server: `raw` is the unexpanded entry (to find the
 * variables it uses), `expanded` the entry after `${VAR}` expansion.
 */
export function secretValues(raw: Entry, expanded: Entry | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>()
  const add = (v: string | undefined) => {
    if (v !== undefined && v.length >= MIN_SECRET_LENGTH) found.add(v)
  }
  for (const site of templateSites(raw)) for (const v of templateVariables(site.template)) add(env[v.name])
  for (const source of [raw, expanded]) {
    if (!source) continue
    for (const v of Object.values(source.env ?? {})) add(v)
    for (const v of Object.values(source.headers ?? {})) {
      add(v)
      const space = v.indexOf(' ')
      if (space > 0) add(v.slice(space + 1).trim())
    }
  }
  // Longest first, so a value containing another is replaced whole.
  return [...found].sort((a, b) => b.length - a.length)
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('***')
  return out
}
