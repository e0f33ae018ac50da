/**
 * Secret values of one server entry, and their redaction from text.
 *
 * Contract (pure — no fs, no process state; the environment is passed in):
 * `secretValues` collects every value that must never be printed: the `env`
 * and `headers` values as written (those free of `${VAR}` references) and
 * after expansion, a header's credential after its auth scheme (the token of
 * `Bearer <token>`), and the value of every variable the entry's templates
 * refer to. Values shorter than {@link MIN_SECRET_LENGTH} are left alone
 * (redacting "1" would garble every message and protects nothing). The list
 * is deduplicated and sorted longest first, so a value containing another is
 * replaced whole. `redact` replaces each occurrence of each value in a text
 * with `***`.
 *
 * The host (mount errors, via the plan) and doctor (probe reports) both use
 * this one implementation.
 *
 * @module
 */
import { templateSites, templateVariables } from './expand.ts'
import type { Entry } from './schema.ts'

export const MIN_SECRET_LENGTH = 3

/**
 * Values to hide for one server: `raw` is the unexpanded entry (to find the
 * variables it uses), `expanded` the entry after `${VAR}` expansion (absent
 * when expansion failed).
 */
export function secretValues(raw: Entry, expanded: Entry | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>()
  const add = (v: string | undefined) => {
    if (v !== undefined && v.length >= MIN_SECRET_LENGTH) found.add(v)
  }
  for (const site of templateSites(raw)) for (const v of templateVariables(site.template)) add(env[v.name])
  // A written value that refers to variables is template text, not a secret:
  // its variables' values (above) and its expansion (below) are what to hide.
  const literal = (v: string) => templateVariables(v).length === 0
  for (const [source, keep] of [
    [raw, literal],
    [expanded, () => true],
  ] as const) {
    if (!source) continue
    for (const v of Object.values(source.env ?? {})) if (keep(v)) add(v)
    for (const v of Object.values(source.headers ?? {})) {
      if (!keep(v)) continue
      add(v)
      const space = v.indexOf(' ')
      if (space > 0) add(v.slice(space + 1).trim())
    }
  }
  return [...found].sort((a, b) => b.length - a.length)
}

/** Replace every occurrence of every secret in `text` with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('***')
  return out
}
