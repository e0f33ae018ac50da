/**
 * Where secrets hide in a server entry's strings, by shape: URL userinfo and
 * query values, the values of secret-bearing command-line flags, `NAME=value`
 * and `Header: value` arguments.
 *
 * Contract (pure — strings in, strings out):
 * - {@link SECRET_FLAG_WORDS} and {@link SECRET_SHORT_FLAGS} are the reviewed
 *   list of what makes a flag (or a `NAME=` / `Header:` / query key)
 *   secret-bearing: its name — leading dashes dropped, lower-cased, `_` read
 *   as `-` — equals a word or ends with `-<word>` (`--github-token`,
 *   `API_KEY=`, `client_secret`). `--no-…` flags are switches, never
 *   secret-bearing. The value is the text after `=` or `: `, or else the
 *   next argument (unless that one starts with `-`).
 * - `argSecrets(args)` finds, per argument index, the secret part of that
 *   argument (its tail); `urlSecrets(url)` the userinfo and every query and
 *   fragment value of each `scheme://` URL in a string, as written and
 *   percent-decoded.
 * - `displayArgs` / `displayUrl` are the display forms the CLI shows: each
 *   secret part replaced by `***`, every URL's userinfo and every query value
 *   too. A value made only of `${VAR}` references is shown as written (it
 *   names a variable, it holds no secret).
 * - `redactShapesIn`, the same shapes in free text, lives in redact-text.ts.
 *
 * @module
 */
import { scanTemplate } from './expand.ts'

/** The last word(s) of a flag or key name that make it secret-bearing. Reviewed: add, never remove, without a security review. */
export const SECRET_FLAG_WORDS: readonly string[] = [
  'token',
  'key',
  'apikey',
  'secret',
  'password',
  'passwd',
  'pass',
  'pwd',
  'passphrase',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'cookie',
  'pat',
  'bearer',
  'jwt',
  'sig',
  'signature',
]

/** One-letter flags whose value is a secret (`-p` is the password of mysql and friends; a port shown as *** is harmless). */
export const SECRET_SHORT_FLAGS: readonly string[] = ['p']

export const MASK = '***'

/** Is `name` (a flag without dashes, an env-style or header name, a query key) secret-bearing? */
export function isSecretName(name: string): boolean {
  // camelCase reads as kebab-case: --githubToken, --clientSecret, --accessToken.
  const n = name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/_/g, '-')
  if (n.startsWith('no-')) return false
  return SECRET_FLAG_WORDS.some((w) => n === w || n.endsWith(`-${w}`) || n.endsWith(`.${w}`))
}

/**
 * A value that is only `${VAR}` and `${secret:NAME}` references: it names variables and secrets, it holds no
 * secret. A reference with a written default (`${T:-value}`) does not count:
 * with the variable unset, the default is the value that runs.
 */
export function onlyReferences(value: string): boolean {
  const pieces = scanTemplate(value)
  return (
    Array.isArray(pieces) && pieces.length > 0 && pieces.every((p) => ('variable' in p && !p.fallback) || 'secret' in p)
  )
}

const FLAG = /^(--?)([A-Za-z0-9][A-Za-z0-9_.-]*)(=(.*))?$/s
const ASSIGN = /^([A-Za-z_][A-Za-z0-9_.-]*)=(.+)$/s
const HEADER = /^([A-Za-z][A-Za-z0-9-]*):\s+(.+)$/s
/** Inside a flag's value (`--header=X-Api-Key:x`), where no `host:port` can be meant, the space is optional. */
const NESTED_HEADER = /^([A-Za-z][A-Za-z0-9-]*):\s*(.+)$/s
/** `-pSECRET`: a one-letter flag with its value attached (not `-p=…`, not `--…`). */
const SHORT_ATTACHED = /^-([A-Za-z])([^=-].*)$/s

/** Is this flag (its dashes and name) secret-bearing: a reviewed short flag, or a secret-bearing name? */
export function flagIsSecret(dashes: string, name: string): boolean {
  return dashes === '-' && name.length === 1 ? SECRET_SHORT_FLAGS.includes(name) : isSecretName(name)
}

/** The secret tail of a flag's value that is a secret-named `NAME=value` / `Header: value`. */
function nestedSecret(value: string): string | undefined {
  const m = ASSIGN.exec(value) ?? NESTED_HEADER.exec(value)
  return m && isSecretName(m[1]!) ? m[2]! : undefined
}

/** Argument index → the secret tail of that argument (flag values, `NAME=value`, `Header: value`). */
export function argSecrets(args: readonly string[]): Map<number, string> {
  const out = new Map<number, string>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const short = SHORT_ATTACHED.exec(arg)
    if (short && SECRET_SHORT_FLAGS.includes(short[1]!)) {
      out.set(i, short[2]!)
      continue
    }
    const flag = FLAG.exec(arg)
    if (flag) {
      if (!flagIsSecret(flag[1]!, flag[2]!)) {
        const nested = flag[4] ? nestedSecret(flag[4]) : undefined
        if (nested !== undefined) out.set(i, nested)
        continue
      }
      if (flag[3] !== undefined) {
        if (flag[4]) out.set(i, flag[4])
      } else if (i + 1 < args.length && !args[i + 1]!.startsWith('-') && args[i + 1] !== '') {
        out.set(i + 1, args[i + 1]!)
        i++
      }
      continue
    }
    const assign = ASSIGN.exec(arg) ?? HEADER.exec(arg)
    if (assign && isSecretName(assign[1]!)) out.set(i, assign[2]!)
  }
  return out
}

const URL_IN_TEXT = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#@"'<>]*@)?([^\s?#"'<>]*)(\?[^\s#"'<>]*)?(#[^\s"'<>]*)?/g

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    return s
  }
}

/** Userinfo, query and fragment values of every URL in `text`, as written and decoded. */
export function urlSecrets(text: string): string[] {
  const out: string[] = []
  const add = (v: string) => {
    if (!v || onlyReferences(v)) return
    out.push(v)
    const d = decoded(v)
    if (d !== v) out.push(d)
  }
  for (const m of text.matchAll(URL_IN_TEXT)) {
    if (m[2]) {
      const info = m[2].slice(0, -1)
      add(info)
      for (const part of info.split(':')) add(part)
    }
    for (const params of [m[4], m[5]]) {
      if (!params) continue
      for (const pair of params.slice(1).split(/[&;]/)) {
        const eq = pair.indexOf('=')
        add(eq < 0 ? pair : pair.slice(eq + 1))
      }
    }
  }
  return out
}

/**
 * Every URL in `text` with each secret part replaced by `replace(value, key)`:
 * the userinfo's parts (key `user`, `password`) and every query and fragment
 * value (key: the parameter's name; undefined for a bare item). A part that
 * is empty or only `${VAR}` references is kept.
 */
export function mapUrlSecrets(text: string, replace: (value: string, key: string | undefined) => string): string {
  return text.replace(
    URL_IN_TEXT,
    (
      _m,
      scheme: string,
      info: string | undefined,
      rest: string,
      query: string | undefined,
      frag: string | undefined,
    ) => {
      const params = (p: string | undefined) =>
        p === undefined
          ? ''
          : p[0] +
            p
              .slice(1)
              .split(/([&;])/)
              .map((piece) => {
                if (piece === '&' || piece === ';' || piece === '') return piece
                const eq = piece.indexOf('=')
                const value = eq < 0 ? piece : piece.slice(eq + 1)
                if (onlyReferences(value) || value === '') return piece
                return eq < 0
                  ? replace(value, undefined)
                  : `${piece.slice(0, eq + 1)}${replace(value, piece.slice(0, eq))}`
              })
              .join('')
      const user =
        info === undefined
          ? ''
          : `${info
              .slice(0, -1)
              .split(':')
              .map((part, i) => (onlyReferences(part) ? part : replace(part, i === 0 ? 'user' : 'password')))
              .join(':')}@`
      return `${scheme}${user}${rest}${params(query)}${params(frag)}`
    },
  )
}

/** Every URL's userinfo and every query/fragment value in `text` → `***` (bare query items too). */
function maskUrls(text: string): string {
  return mapUrlSecrets(text, () => MASK)
}

/** The URL as the CLI shows it: userinfo and every query value masked. */
export function displayUrl(url: string): string {
  return maskUrls(url)
}

/** The arguments as the CLI shows them: every secret part masked, every URL's credentials and query values too. */
export function displayArgs(args: readonly string[]): string[] {
  const secrets = argSecrets(args)
  return args.map((arg, i) => {
    const tail = secrets.get(i)
    const shown = tail === undefined || onlyReferences(tail) ? arg : `${arg.slice(0, arg.length - tail.length)}${MASK}`
    return maskUrls(shown)
  })
}
