/**
 * Secret values of one server entry, and their redaction from text.
 *
 * Contract (pure — no fs, no process state; the environment is passed in):
 * - `secretValues` collects every value that must never be printed: the
 *   `env` and `headers` values as written (those free of `${VAR}`
 *   references) and after expansion, a header's credential after its auth
 *   scheme (the token of `Bearer <token>`), the value of every variable the
 *   entry's templates refer to, the userinfo and every query value of the
 *   `url` (and of URLs in `args`), and the secret part of each argument
 *   (`--token=<x>`, `--api-key <x>`, `-p <x>`, `TOKEN=<x>`, `Authorization:
 *   <x>`; the flag list is `SECRET_FLAG_WORDS` in `redact-shapes.ts`), and
 *   the derived forms a secret is sent or echoed as: URL userinfo as the
 *   `Authorization: Basic base64(user:pass)` value and its base64 part
 *   (`basicForms`), a written `Basic <base64>` header decoded (`user:pass`,
 *   the password).
 *   Each value that spans lines adds every line as a fragment of its own (a
 *   PEM key: every line); each value also adds its JSON-escaped and
 *   percent-encoded spellings (`percentForms`: upper- and lower-case hex,
 *   form encoding with `+` for a space, wholly lower-cased). Values shorter than {@link MIN_SECRET_LENGTH}
 *   are left alone (redacting "1" would garble every message and protects
 *   nothing). The list is deduplicated and sorted longest first, so a value
 *   containing another is replaced whole.
 * - `redact(text, secrets)` replaces each occurrence of each value with
 *   `***`, then masks secret shapes of free text (redact-text.ts `redactShapesIn`: URL
 *   userinfo, secret-named query values, `--token=` values, `Bearer <x>`).
 * - `redactJson(value, secrets)` redacts every string (and key) of a JSON
 *   value (a resource item of a tool result: `host/result-redact.ts`).
 * - A display window must never cut first and redact second (a cut secret
 *   no longer matches): `redactCut` redacts, then cuts to a length;
 *   `redactEdges` masks a fragment of a secret (at least
 *   {@link MIN_SECRET_LENGTH} characters) left at an edge where a text was
 *   cut by someone else (a byte window that starts inside a secret).
 *
 * The host (mount errors, via the plan), doctor (probe reports, stderr
 * tails) and the CLI presenter (via `redact-shapes.ts` and `redact-text.ts`) all use this one
 * implementation.
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import { templateSecrets, templateSites, templateVariables } from './expand.ts'
import { argSecrets, isSecretName, MASK, urlSecrets } from './redact-shapes.ts'
import { redactShapesIn } from './redact-text.ts'
import type { Entry } from './schema.ts'

export {
  displayArgs,
  displayUrl,
  isSecretName,
  MASK,
  onlyReferences,
  SECRET_FLAG_WORDS,
  SECRET_SHORT_FLAGS,
} from './redact-shapes.ts'

export const MIN_SECRET_LENGTH = 3

/**
 * Values to hide for one server: `raw` is the unexpanded entry (to find the
 * variables it uses), `expanded` the entry after `${VAR}` expansion (absent
 * when expansion failed), `known` values that are secret wherever they appear
 * (the values `${secret:NAME}` read from the secret store).
 */
export function secretValues(
  raw: Entry,
  expanded: Entry | undefined,
  env: Readonly<Record<string, string | undefined>>,
  known: readonly string[] = [],
): string[] {
  const found = new Set<string>()
  const add = (v: string | undefined) => {
    if (v === undefined) return
    const trimmed = v.trim()
    for (const s of new Set([v, trimmed])) if (s.length >= MIN_SECRET_LENGTH) found.add(s)
  }
  for (const v of known) add(v)
  for (const site of templateSites(raw)) for (const v of templateVariables(site.template)) add(env[v.name])
  // A written value that refers to variables is template text, not a secret:
  // its variables' values (above) and its expansion (below) are what to hide.
  const literal = (v: string) => templateVariables(v).length === 0 && templateSecrets(v).length === 0
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
    const args = source.args ?? []
    for (const v of argSecrets(args).values()) {
      if (!keep(v)) continue
      add(v)
      const space = v.indexOf(' ')
      if (space > 0) add(v.slice(space + 1).trim())
    }
    for (const text of [source.url ?? '', ...args]) for (const v of urlSecrets(text)) if (keep(v)) add(v)
    // Derived forms as sent: URL userinfo travels as `Authorization: Basic base64(user:pass)` (official.ts).
    if (source.url && keep(source.url)) for (const v of basicForms(source.url)) add(v)
    for (const v of Object.values(source.headers ?? {})) if (keep(v)) for (const d of basicDecoded(v)) add(d)
  }
  for (const v of [...found]) {
    if (/[\r\n]/.test(v)) for (const line of v.split(/\r?\n|\r/)) add(line)
  }
  for (const v of [...found]) {
    add(JSON.stringify(v).slice(1, -1))
    for (const f of percentForms(v)) add(f)
  }
  return [...found].sort((a, b) => b.length - a.length)
}

/**
 * The credentials of one server, for what reaches the model (its tool results, its cached tool texts):
 * `secretValues` without the values of env keys that are not secret-named (`TZ: UTC`, `LOG_LEVEL: info`,
 * `MEMORY_FILE_PATH: …` stay readable in a result) — header values, URL userinfo and query values, secret
 * flags, secret-named env values, the values read from the secret store, and their derived forms.
 */
export function credentialValues(
  raw: Entry,
  expanded: Entry | undefined,
  env: Readonly<Record<string, string | undefined>>,
  known: readonly string[] = [],
): string[] {
  const secretEnv = (e: Entry | undefined): Entry | undefined => {
    if (!e?.env) return e
    return { ...e, env: Object.fromEntries(Object.entries(e.env).filter(([k]) => isSecretName(k))) }
  }
  return secretValues(secretEnv(raw)!, secretEnv(expanded), env, known)
}

/**
 * The spellings of `v` percent-encoded: as sent (`encodeURIComponent`, upper-case hex) and as a server or proxy
 * echoes it back — form encoding (`application/x-www-form-urlencoded`: `+` for a space, and `!'()~` encoded as
 * the WHATWG and Java writers do, or `!'()*` as Python's `quote_plus` does), each also with lower-case hex
 * (`%2f`) and, once it holds an escape, wholly lower-cased (a server that folds the URL it echoes).
 */
export function percentForms(v: string): string[] {
  const component = encodeURIComponent(v)
  const upper = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  const spellings = [
    component,
    component.replace(/%20/g, '+'),
    new URLSearchParams([['', v]]).toString().slice(1),
    component.replace(/[!'()*]/g, upper).replace(/%20/g, '+'),
  ]
  const out = new Set<string>()
  for (const s of spellings) {
    out.add(s)
    out.add(s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()))
    if (s.includes('%')) out.add(s.toLowerCase())
  }
  return [...out]
}

/** The `Authorization` value a URL's userinfo is sent as, and its base64 part (nothing without userinfo). */
export function basicForms(url: string): string[] {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return []
  }
  if (!u.username && !u.password) return []
  let user = u.username
  let pass = u.password
  try {
    user = decodeURIComponent(user)
    pass = decodeURIComponent(pass)
  } catch {
    // sent as written
  }
  const b64 = Buffer.from(`${user}:${pass}`).toString('base64')
  return [`Basic ${b64}`, b64]
}

/** A `Basic <base64>` header value decoded: `user:pass` and the password (a server may echo them decoded). */
function basicDecoded(value: string): string[] {
  const m = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value)
  if (!m?.[1]) return []
  const text = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = text.indexOf(':')
  return colon < 0 ? [text] : [text, text.slice(colon + 1)]
}

/** Replace every occurrence of every secret in `text` with `***`, then mask secret shapes of free text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(MASK)
  return redactShapesIn(out)
}

/**
 * A JSON value (a resource item of a tool result) with every
 * string — object keys included — passed through `redact`; the input is not
 * changed. Depth is bounded by the value (JSON from a tool list, no cycles).
 */
export function redactJson<T>(value: T, secrets: readonly string[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v, secrets)
    if (Array.isArray(v)) return v.map(walk)
    if (v === null || typeof v !== 'object') return v
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[redact(k, secrets)] = walk(x)
    return out
  }
  return walk(value) as T
}

/** `text` redacted, then cut to at most `max` characters (the last one `…` when cut). */
export function redactCut(text: string, secrets: readonly string[], max: number): string {
  const clean = redact(text, secrets)
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/**
 * Mask what a cut left of a secret at an edge of `text`: at the start, the
 * longest tail of a secret that `text` begins with; at the end, the longest
 * head of a secret that `text` ends with (each at least
 * {@link MIN_SECRET_LENGTH} characters). Whole secrets are the business of
 * `redact`: call it too.
 */
export function redactEdges(
  text: string,
  secrets: readonly string[],
  edges: { start?: boolean; end?: boolean },
): string {
  let out = text
  for (const s of secrets) {
    if (edges.start) {
      for (let k = Math.min(s.length - 1, out.length); k >= MIN_SECRET_LENGTH; k--) {
        if (out.startsWith(s.slice(s.length - k))) {
          out = MASK + out.slice(k)
          break
        }
      }
    }
    if (edges.end) {
      for (let k = Math.min(s.length - 1, out.length); k >= MIN_SECRET_LENGTH; k--) {
        if (out.endsWith(s.slice(0, k))) {
          out = out.slice(0, out.length - k) + MASK
          break
        }
      }
    }
  }
  return out
}
