/**
 * Parsing `dsh-mcp add` flags into a friendly entry.
 *
 * Contract: pure. `entryFromAdd` returns the entry exactly as it will be
 * written (values as typed: `${VAR}` stays literal; keys in the order the
 * format documents) or throws a usage error (exit 2) with a one-line
 * message. Messages name flags and keys, never an env or header value —
 * a malformed `-e`/`-H` is identified by its position, not echoed.
 * `firstEntryError` is the entry message that `add` and `import` share; a
 * name is refused with the one message of config/server-name.ts.
 *
 * @module
 */
import { formatPath } from '../config/diagnostics.ts'
import type { CheckedEntry } from '../config/entry.ts'
import { MAX_TIMER_DELAY_MS } from '../config/schema.ts'
import { FIELD_NAMES, fieldSpec, flagAttribute, flagName, type ValueType } from '../config/fields.ts'
import { serverNameRefusal } from '../config/server-name.ts'
import { WINDOWS_SHIMMED, windowsLaunch } from '../config/windows.ts'
import { usage } from './errors.ts'

/** `add`'s own flags; each field flag of the table (config/fields.ts `flag`) arrives under its commander attribute. */
export interface AddFlags {
  transport?: string
  scope?: string
  /** `--file <path>`: the layer file to write (cli/pick-file.ts). */
  file?: string
  env?: string[]
  header?: string[]
  includeTools?: string
  excludeTools?: string
  disabled?: boolean
  force?: boolean
  [fieldFlag: string]: string | string[] | boolean | undefined
}

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/
/** RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text)
}

/** Throws a usage error unless `name` is a valid server name. */
export function checkName(name: string): void {
  const refusal = serverNameRefusal(name)
  if (refusal !== undefined) throw usage(refusal)
}

/** The first error of a `checkEntry` result as one line (`path: message`), or undefined when the entry is valid. */
export function firstEntryError(checked: CheckedEntry): string | undefined {
  const p = checked.problems.find((x) => x.severity === 'error')
  if (checked.entry && !p) return undefined
  return `${p?.path.length ? `${formatPath(p.path)}: ` : ''}${p?.message ?? 'invalid entry'}`
}

interface PairSyntax {
  /** The flag, for messages (`-e/--env`). */
  flag: string
  separator: '=' | ':'
  /** How the pair is written, for messages (`KEY=VALUE`). */
  shape: string
  /** What the left side is, for messages (`key`, `name`). */
  left: string
  valid: RegExp
  /** What a valid left side looks like, for messages. */
  validText: string
  /** Trim both sides (header values are trimmed; env values are taken as written). */
  trim: boolean
}

/**
 * Repeated `LEFT<sep>RIGHT` flag values → map (later ones win). The left side
 * is never echoed in an error: a malformed argument may be a value pasted in
 * the wrong place.
 */
function parsePairs(list: readonly string[], syntax: PairSyntax): Record<string, string> | undefined {
  if (list.length === 0) return undefined
  const out: Record<string, string> = {}
  list.forEach((item, i) => {
    const at = `${syntax.flag} #${i + 1}`
    const cut = item.indexOf(syntax.separator)
    if (cut < 0) throw usage(`${at}: expected ${syntax.shape} (no "${syntax.separator}" found)`)
    const left = syntax.trim ? item.slice(0, cut).trim() : item.slice(0, cut)
    if (left === '') throw usage(`${at}: expected ${syntax.shape} (the ${syntax.left} is empty)`)
    if (!syntax.valid.test(left))
      throw usage(`${at}: the part before "${syntax.separator}" is not a valid ${syntax.validText}`)
    const right = item.slice(cut + 1)
    out[left] = syntax.trim ? right.trim() : right
  })
  return out
}

/** `KEY=VALUE` list → map (later keys win). */
export function parseEnv(list: readonly string[] = []): Record<string, string> | undefined {
  return parsePairs(list, {
    flag: '-e/--env',
    separator: '=',
    shape: 'KEY=VALUE',
    left: 'key',
    valid: ENV_KEY,
    validText: 'variable name (letters, digits and "_", not starting with a digit)',
    trim: false,
  })
}

/** `"Name: value"` list → map (later names win). */
export function parseHeaders(list: readonly string[] = []): Record<string, string> | undefined {
  return parsePairs(list, {
    flag: '-H/--header',
    separator: ':',
    shape: '"Name: value"',
    left: 'name',
    valid: HEADER_NAME,
    validText: "header name (letters, digits and !#$%&'*+.^_`|~-)",
    trim: true,
  })
}

export function parseTimeout(text: string | undefined, flag = '--timeout'): number | undefined {
  if (text === undefined) return undefined
  const t = text.trim()
  if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > MAX_TIMER_DELAY_MS) {
    throw usage(
      `${flag}: expected a whole number of milliseconds between 1 and ${MAX_TIMER_DELAY_MS}, got "${text.slice(0, 20)}"`,
    )
  }
  return Number(t)
}

/** A millisecond flag that takes 0 (`--idle-timeout`: 0 = never stop). */
function parseMillis0(text: string, flag: string): number {
  const t = text.trim()
  if (!/^\d+$/.test(t) || Number(t) > MAX_TIMER_DELAY_MS)
    throw usage(
      `${flag}: expected a whole number of milliseconds between 0 (never stop) and ${MAX_TIMER_DELAY_MS}, got "${text.slice(0, 20)}"`,
    )
  return Number(t)
}

/** A field flag's text as the field's value type (config/fields.ts). */
function flagValue(type: ValueType, text: string, flag: string): unknown {
  if (type === 'millis') return parseTimeout(text, flag)
  if (type === 'millis0') return parseMillis0(text, flag)
  return text
}

function parseGlobs(text: string | undefined, flag: string): string[] | undefined {
  if (text === undefined) return undefined
  const globs = text
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '')
  if (globs.length === 0) throw usage(`${flag}: expected comma-separated tool name globs, got nothing`)
  return globs
}

/** The entry `dsh-mcp add` writes. */
export function entryFromAdd(commandOrUrl: string, args: readonly string[], flags: AddFlags): Record<string, unknown> {
  const url = isUrl(commandOrUrl)
  const t = flags.transport
  // A URL may carry a token in its query: it is not echoed.
  if (t === 'stdio' && url)
    throw usage('-t stdio needs a command, but <commandOrUrl> is a URL (drop -t, or use -t http)')
  const http = t === 'http' || t === 'streamable-http' || t === 'sse' || (t === undefined && url)
  if (http && !url) throw usage(`-t ${t} needs an http:// or https:// URL, got "${commandOrUrl.slice(0, 60)}"`)
  if (commandOrUrl.trim() === '') throw usage('the command is empty')
  const env = parseEnv(flags.env)
  const headers = parseHeaders(flags.header)
  const include = parseGlobs(flags.includeTools, '--include-tools')
  const exclude = parseGlobs(flags.excludeTools, '--exclude-tools')
  if (http) {
    if (args.length > 0) throw usage('an http server takes no command arguments (extra arguments after the URL)')
    if (env) throw usage('-e/--env applies only to stdio servers (this one is a URL); use -H for headers')
  } else if (headers) {
    throw usage('-H/--header applies only to http servers (this one runs a command); use -e for environment variables')
  }
  const entry: Record<string, unknown> = http
    ? { url: commandOrUrl, ...(t === 'sse' ? { transport: 'sse' } : {}) }
    : { command: commandOrUrl }
  if (!http && args.length > 0) entry.args = [...args]
  if (env) entry.env = env
  if (headers) entry.headers = headers
  if (include || exclude) entry.tools = { ...(include ? { include } : {}), ...(exclude ? { exclude } : {}) }
  if (flags.disabled) entry.enabled = false
  // The table's field flags (config/fields.ts `flag`), judged by the field's value type and transport.
  for (const name of FIELD_NAMES) {
    const spec = fieldSpec(name)
    const text = spec.flag ? flags[flagAttribute(spec.flag.flags)] : undefined
    if (spec.flag === undefined || typeof text !== 'string') continue
    const flag = flagName(spec.flag.flags)
    if (http && spec.transport === 'stdio') throw usage(`${flag} applies only to stdio servers (this one is a URL)`)
    if (!http && spec.transport === 'http')
      throw usage(`${flag} applies only to http servers (this one runs a command)`)
    entry[name] = flagValue(spec.type, text, flag)
  }
  // Keys in the order the format documents (the table's).
  return Object.fromEntries(FIELD_NAMES.filter((k) => k in entry).map((k) => [k, entry[k]]))
}

/** The one-line Windows note for a bare package-manager launcher, or undefined. */
export function windowsNote(entry: { command?: unknown; args?: unknown }, platform: string): string | undefined {
  if (typeof entry.command !== 'string') return undefined
  const args = Array.isArray(entry.args) ? entry.args.map(String) : []
  const launch = windowsLaunch({ command: entry.command, args }, platform)
  if (launch.command === entry.command) return undefined
  return `note: on Windows "${entry.command}" runs as "cmd /c ${entry.command} …" (${WINDOWS_SHIMMED.join('/')} are .cmd shims); the file keeps "${entry.command}"`
}
