/**
 * `${VAR}` expansion, Claude Code's syntax: `${VAR}`, `${VAR:-default}`, and
 * `$$` for a literal `$`. A `$` followed by anything else is kept as written.
 *
 * Contract: expansion is pure (the environment is passed in), applies to
 * `command`, `args`, `env` values, `cwd`, `url` and `headers` values, and
 * reports a missing variable by server, field and variable name — never by
 * value. A variable set to the empty string counts as set for `${VAR}` and as
 * unset for `${VAR:-default}` (shell semantics). A `withheld` name is unset,
 * whatever `env` holds (see `ExpandOptions`).
 *
 * A value substituted into `url` is percent-encoded for the URL component it
 * lands in (url-expand.ts), unless it starts the template (the origin).
 *
 * `${secret:NAME}` reads the user's secret store through `ExpandOptions.secrets`
 * (src/secrets/ for the store; here only its interface, so expansion stays
 * pure). Every secret an entry names is first asked `has` (no value read);
 * only when all are set is any value `read`. An unset one is reported by name
 * with the exact command that sets it (`secretCommand`), never by value.
 *
 * @module
 */
import { formatPath } from './diagnostics.ts'
import { EXPANDABLE_KEYS, type Entry } from './schema.ts'
import { encodeForUrl } from './url-expand.ts'

export type Env = Readonly<Record<string, string | undefined>>

type Piece = { text: string } | { variable: string; fallback?: string } | { secret: string }

/** What `${secret:NAME}` reads: whether a secret is set (no value read), then its value. */
export interface SecretSource {
  has(name: string): boolean
  /** The value, or undefined when the store no longer answers for it. */
  read(name: string): string | undefined
  /** Whether `name` answers from the user's own scope (`secret set --user`), not the project's. */
  userScoped(name: string): boolean
}

/**
 * The secrets a row with a repository contribution may read: the project's only. A `--user` secret is
 * the user's for their own servers; a repository must never pick it up by naming it.
 */
export function projectSecretsOnly(source: SecretSource): SecretSource {
  const mine = (n: string) => source.userScoped(n)
  return {
    has: (n) => !mine(n) && source.has(n),
    read: (n) => (mine(n) ? undefined : source.read(n)),
    userScoped: () => false,
  }
}

/** The prefix of a secret reference inside `${…}`. */
export const SECRET_PREFIX = 'secret:'

export interface TemplateError {
  message: string
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Split a template into literal and variable pieces, or say why it is malformed. */
export function scanTemplate(template: string): Piece[] | TemplateError {
  // Most strings hold no `$` at all: one literal piece, exactly what the loop below would build.
  if (!template.includes('$')) return [{ text: template }]
  const pieces: Piece[] = []
  let text = ''
  let i = 0
  while (i < template.length) {
    const ch = template[i]
    if (ch !== '$') {
      text += ch
      i++
      continue
    }
    const next = template[i + 1]
    if (next === '$') {
      text += '$'
      i += 2
      continue
    }
    if (next !== '{') {
      text += '$'
      i++
      continue
    }
    const close = template.indexOf('}', i + 2)
    if (close < 0) return { message: `unterminated "\${" at character ${i + 1} (write "$$" for a literal "$")` }
    const body = template.slice(i + 2, close)
    if (body.startsWith(SECRET_PREFIX)) {
      const secret = body.slice(SECRET_PREFIX.length)
      if (!VARIABLE_NAME.test(secret))
        return {
          message: `"\${secret:" at character ${i + 1} does not name a secret: write \${secret:NAME}, NAME of letters, digits and _ (no default)`,
        }
      if (text) pieces.push({ text })
      text = ''
      pieces.push({ secret })
      i = close + 1
      continue
    }
    const sep = body.indexOf(':-')
    const variable = sep < 0 ? body : body.slice(0, sep)
    if (!VARIABLE_NAME.test(variable)) {
      // The text between the braces may be a pasted secret: say where, never what.
      return {
        message: `"\${" at character ${i + 1} does not name a variable: write \${NAME} or \${NAME:-default}, NAME of letters, digits and _ (or "$$" for a literal "$")`,
      }
    }
    if (text) pieces.push({ text })
    text = ''
    pieces.push(sep < 0 ? { variable } : { variable, fallback: body.slice(sep + 2) })
    i = close + 1
  }
  if (text || pieces.length === 0) pieces.push({ text })
  return pieces
}

export type ExpandResult = { value: string } | { missing: string[]; missingSecrets?: string[] } | TemplateError

/**
 * Expand one string against `env` (and `secrets` for `${secret:NAME}`: unset without one). `place`, when
 * given, writes each substituted value (not a default, which the author wrote) for where it lands, from the
 * text before it (a `url`: url-expand.ts).
 */
export function expandString(
  template: string,
  env: Env,
  secrets?: SecretSource,
  place: (prefix: string, value: string) => string = (_p, v) => v,
): ExpandResult {
  const pieces = scanTemplate(template)
  if (!Array.isArray(pieces)) return pieces
  let value = ''
  const missing: string[] = []
  const missingSecrets: string[] = []
  for (const piece of pieces) {
    if ('text' in piece) value += piece.text
    else if ('secret' in piece) {
      const v = secrets?.read(piece.secret)
      if (v === undefined) missingSecrets.push(piece.secret)
      else value += place(value, v)
    } else {
      const v = env[piece.variable]
      if (piece.fallback !== undefined) value += v ? place(value, v) : piece.fallback
      else if (v === undefined) missing.push(piece.variable)
      else value += place(value, v)
    }
  }
  if (missingSecrets.length) return { missing, missingSecrets }
  return missing.length ? { missing } : { value }
}

/** Secret names a template refers to (`${secret:NAME}`), in order. */
export function templateSecrets(template: string): string[] {
  const pieces = scanTemplate(template)
  if (!Array.isArray(pieces)) return []
  return pieces.flatMap((p) => ('secret' in p ? [p.secret] : []))
}

/** Every secret name an entry refers to, once each, in field order. */
export function entrySecrets(entry: Entry): string[] {
  return [...new Set(templateSites(entry).flatMap((s) => templateSecrets(s.template)))]
}

/** The command that sets a secret: `dsh-mcp secret set NAME` (`--user` for the user's own rows). */
export function secretSetCommand(name: string, user = false): string {
  return `dsh-mcp secret set ${user ? '--user ' : ''}${name}`
}

/** Variables a template refers to (with whether each has a default). */
export function templateVariables(template: string): { name: string; hasDefault: boolean }[] {
  const pieces = scanTemplate(template)
  if (!Array.isArray(pieces)) return []
  return pieces.flatMap((p) => ('variable' in p ? [{ name: p.variable, hasDefault: p.fallback !== undefined }] : []))
}

/** One expandable string of an entry with its field path (`args[1]`, `env.TOKEN`). */
export interface TemplateSite {
  path: (string | number)[]
  template: string
}

/** Every expandable string of an entry, in a stable order. */
export function templateSites(entry: Entry): TemplateSite[] {
  const sites: TemplateSite[] = []
  for (const key of EXPANDABLE_KEYS) {
    const value = entry[key]
    if (value === undefined) continue
    if (typeof value === 'string') sites.push({ path: [key], template: value })
    else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) sites.push({ path: [key, i], template: v })
    } else for (const [k, v] of Object.entries(value)) sites.push({ path: [key, k], template: v })
  }
  return sites
}

export interface ExpansionError {
  path: (string | number)[]
  /** Missing variable names (empty for a malformed template). */
  missing: string[]
  /** Unset secret names (`${secret:NAME}`), when any. */
  missingSecrets?: string[]
  /** What is wrong with the field, one line, no value. */
  message: string
  /** How to fix it, when there is one fix (a missing variable). */
  hint?: string
}

export interface ExpandOptions {
  /**
   * Names `env` holds that expansion must treat as unset: what the host took from the
   * repository's `.env` (host/project-env.ts). A checkout must not choose what a user's own
   * server runs or where a trusted one sends its headers.
   */
  withheld?: ReadonlySet<string>
  /** The secret store for `${secret:NAME}`; without one every secret is unset. */
  secrets?: SecretSource
  /** The command that sets a secret, for the hint (default `secretSetCommand(name)`). */
  secretCommand?: (name: string) => string
}

/**
 * Expand every expandable field of `entry`. Returns the expanded entry, or
 * the list of fields that could not be expanded (messages carry no values).
 * The input is never mutated: the result is a new entry whose expandable
 * fields are new strings, arrays and maps; every other value (tool filters,
 * `reconnect`) is the input's own, to be read and not written.
 */
export function expandEntry(
  entry: Entry,
  env: Env,
  opts: ExpandOptions = {},
): { entry: Entry } | { errors: ExpansionError[] } {
  const out: Entry = { ...entry }
  const errors: ExpansionError[] = []
  const withheld = opts.withheld
  const view: Env = withheld?.size
    ? new Proxy(env, {
        get: (target, name) => (typeof name === 'string' && withheld.has(name) ? undefined : Reflect.get(target, name)),
      })
    : env
  // Ask whether every secret is set before reading any: an entry that cannot run reads none.
  const names = entrySecrets(entry)
  const unset = new Set(names.filter((n) => !opts.secrets?.has(n)))
  const secrets: SecretSource | undefined =
    unset.size > 0
      ? { has: () => false, read: (n) => (unset.has(n) ? undefined : ''), userScoped: () => false }
      : opts.secrets
  const command = opts.secretCommand ?? ((n: string) => secretSetCommand(n))
  const expand = (template: string, path: (string | number)[]): string => {
    // A value substituted into a url is encoded for its component: it cannot move the host or the path.
    const r = expandString(template, view, secrets, path[0] === 'url' ? encodeForUrl : undefined)
    if ('value' in r) return r.value
    const field = formatPath(path)
    if ('missingSecrets' in r && r.missingSecrets?.length) {
      const names = r.missingSecrets.map((m) => '${secret:' + m + '}').join(', ')
      const hint = `set it with: ${r.missingSecrets.map(command).join('; ')}`
      errors.push({
        path,
        missing: r.missing,
        missingSecrets: r.missingSecrets,
        message: `${field} uses ${names}, which is not set`,
        hint,
      })
    } else if ('missing' in r) {
      const names = r.missing.map((m) => '${' + m + '}').join(', ')
      const fromDotenv = r.missing.every((m) => withheld?.has(m))
      const hint = fromDotenv
        ? `set only by the project's .env, which \${VAR} does not read: export it in the shell that starts dsh, or write the value in .dsh/mcp.local.yml`
        : `set it, or write \${VAR:-default}`
      errors.push({ path, missing: r.missing, message: `${field} uses ${names}, which is not set`, hint })
    } else errors.push({ path, missing: [], message: `${field}: ${r.message}` })
    return template
  }
  // The same fields in the same order as templateSites, so errors keep its order.
  const fields = out as Record<string, unknown>
  for (const key of EXPANDABLE_KEYS) {
    const value = entry[key]
    if (value === undefined) continue
    if (typeof value === 'string') fields[key] = expand(value, [key])
    else if (Array.isArray(value)) fields[key] = value.map((v, i) => expand(v, [key, i]))
    // fromEntries defines own keys, `__proto__` included.
    else fields[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, [key, k])]))
  }
  return errors.length ? { errors } : { entry: out }
}
