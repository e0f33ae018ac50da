/**
 * Literal secrets read from another client's config stay out of committed
 * files: they move into the user's secret store (src/secrets/).
 *
 * Contract: pure. `moveSecrets` takes an imported entry in the friendly shape
 * and returns the entry to commit, in which every literal secret (one with no
 * `${…}` reference, at least {@link MIN_SECRET_LENGTH} long) is replaced by a
 * `${secret:NAME}` reference: an `env` value whose name is secret-bearing
 * (`isSecretName`: `*_TOKEN`, `API_KEY`, …), a `headers` value whose name is
 * (`X-Api-Key`) or that carries an auth scheme (`Bearer …`), any value that
 * looks like a credential ({@link looksSecret}: a known token prefix, URL
 * userinfo or query values), and the value of every secret-named flag in
 * `args` (`--api-key sk-…`, `--token=…`). Every other value is written as it
 * is (`TZ: UTC`, `X-Team: core`, paths) — `env` keeps its key as the
 * secret's name, a header becomes `<SERVER>_<HEADER>` (`<SERVER>_TOKEN` for
 * `Authorization: Bearer …`, the scheme kept), a flag `<SERVER>_<FLAG>`.
 * `secrets` maps each name to its value, for the caller to store (import.ts);
 * `rename` lets the caller pick another name when one is taken. Notes name
 * keys and secrets, never a value.
 *
 * @module
 */
import { MIN_SECRET_LENGTH } from '../../config/redact.ts'
import { isSecretName, urlSecrets } from '../../config/redact-shapes.ts'
import { isRecord } from './common.ts'

export interface Moved {
  entry: Record<string, unknown>
  /** Secret name → literal value, for the secret store. */
  secrets: Record<string, string>
  /** Where each came from (`env "X"`, `header "Y"`, `argument --z`), by name. */
  origins: Record<string, string>
}

const SCHEME = /^(Bearer|Basic|Token|Bot)\s+(\S.*)$/i

/** A flag whose value is a credential (`--api-key`, `--token`, `--password`, `--secret`, `--auth`, …). */
const SECRET_FLAG =
  /^--?((?:[a-z0-9]+[-_])*(?:api[-_]?key|key|token|secret|password|passwd|pass|auth|bearer|credentials?|pat))$/i

function literal(v: unknown): v is string {
  return typeof v === 'string' && !v.includes('${') && v.length >= MIN_SECRET_LENGTH
}

/** Token prefixes that name a credential whatever the key is called. */
const TOKEN_PREFIX =
  /^(gh[pousr]_|github_pat_|glpat-|sk-|sk_(live|test)_|rk_(live|test)_|xox[abprs]-|AKIA|ASIA|AIza|ya29\.|npm_|pypi-|hf_|dop_v1_|shpat_)/

/** A value that is a credential by its shape: a known token prefix, or URL credentials / query values. */
export function looksSecret(v: string): boolean {
  return TOKEN_PREFIX.test(v) || urlSecrets(v).length > 0
}

/** `parts` joined as one environment variable name (`docs`, `X-Api-Key` → `DOCS_X_API_KEY`). */
export function variableName(...parts: string[]): string {
  return parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^(\d)/, '_$1')
}

/**
 * The entry to commit, and the literal secrets to store instead. `taken(name,
 * value)` answers whether a name is already used for another value (then the
 * secret is named `<SERVER>_<NAME>`).
 */
export function moveSecrets(
  name: string,
  entry: Record<string, unknown>,
  taken: (secret: string, value: string) => boolean = () => false,
): Moved {
  const out: Record<string, unknown> = { ...entry }
  const secrets: Record<string, string> = {}
  const origins: Record<string, string> = {}
  const keep = (wanted: string, value: string, origin: string): string => {
    let secret = variableName(wanted)
    if (taken(secret, value) || (Object.hasOwn(secrets, secret) && secrets[secret] !== value))
      secret = variableName(name, wanted)
    secrets[secret] = value
    origins[secret] = origin
    return `\${secret:${secret}}`
  }
  if (isRecord(entry.env)) {
    const env: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(entry.env)) {
      if (literal(v) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && (isSecretName(k) || looksSecret(v)))
        env[k] = keep(k, v, `env "${k}"`)
      else env[k] = v
    }
    out.env = env
  }
  if (Array.isArray(entry.args)) {
    const args = [...entry.args]
    for (let i = 0; i < args.length; i++) {
      const a = args[i]
      if (typeof a !== 'string') continue
      const eq = a.indexOf('=')
      const flag = eq > 0 ? a.slice(0, eq) : a
      const m = SECRET_FLAG.exec(flag)
      if (!m) continue
      const wanted = variableName(name, m[1]!)
      if (eq > 0) {
        const v = a.slice(eq + 1)
        if (!literal(v)) continue
        args[i] = `${flag}=${keep(wanted, v, `argument ${flag}`)}`
      } else if (literal(args[i + 1]) && !String(args[i + 1]).startsWith('-')) {
        args[i + 1] = keep(wanted, args[i + 1] as string, `argument ${flag}`)
        i++
      }
    }
    out.args = args
  }
  if (isRecord(entry.headers)) {
    const headers: Record<string, unknown> = {}
    for (const [h, v] of Object.entries(entry.headers)) {
      const scheme = literal(v) ? SCHEME.exec(v) : null
      if (!literal(v) || !(scheme || isSecretName(h) || looksSecret(v))) {
        headers[h] = v
        continue
      }
      const wanted = variableName(name, /^authorization$/i.test(h) && scheme ? 'TOKEN' : h)
      const ref = keep(wanted, scheme ? scheme[2]! : v, `header "${h}"`)
      headers[h] = scheme ? `${scheme[1]} ${ref}` : ref
    }
    out.headers = headers
  }
  return { entry: out, secrets, origins }
}

/** The warning note for what `moveSecrets` moved (keys and secret names only). */
export function movedNotes(moved: Moved, dryRun: boolean): string[] {
  const names = Object.keys(moved.secrets)
  if (names.length === 0) return []
  const from = names.map((n) => moved.origins[n]).join(', ')
  const refs = names.map((n) => `\${secret:${n}}`).join(', ')
  return [
    `warning: ${from} held literal values: the entry reads ${refs}; the values ${dryRun ? 'would go' : 'went'} to your secret store (dsh-mcp secret list), not to any file of the repository`,
  ]
}
