/**
 * The official `@deepseek-ai/dsh-mcp-client` Config, mirrored in zod, and the
 * one mapping from a friendly entry to it.
 *
 * Contract: `toOfficialConfig` writes only what the user wrote — the official
 * client keeps its own defaults; the field table (fields.ts `official`) says
 * which fields are copied as written and which are mapped here — except `transport` (always set: omitting it
 * passes the official validation and then fails obscurely), `serverName`, and
 * `cwd` (always the resolved directory: the official default is the host's
 * cwd, never what a project means). The input must already be expanded.
 * The mirror is strict: a key it does not know is a bug in this mapping. It
 * covers every host line: the fields of the installed client plus those later
 * lines add ({@link LATER_FIELDS}, with the line that adds each); the
 * differential test keeps it so. Whether the host in front of us has a field
 * is `hostGaps`' question: given the shape of the host's own exported Config
 * (src/host/client-shape.ts reads it), it names each field and transport of a
 * mapped config that host would not understand, so the mount is refused with
 * a reason instead of the field being dropped in silence.
 *
 * @module
 */
import path from 'node:path'
import * as z from 'zod/mini'
import { transportOf } from './entry.ts'
import { fieldsWhere } from './fields.ts'
import { isRecord } from './guards.ts'
import { type Entry, OAuthSchema, ReconnectSchema } from './schema.ts'
import { SERVER_NAME_PATTERN } from './server-name.ts'
import { windowsLaunch } from './windows.ts'

const ServerName = z.string().check(z.regex(SERVER_NAME_PATTERN))
const StringMap = z.record(z.string(), z.string())
const Common = {
  serverName: ServerName,
  toolCallTimeoutMs: z.optional(z.number()),
  failOnStartupError: z.optional(z.boolean()),
  maxInstructionBytes: z.optional(z.number().check(z.int(), z.minimum(1))),
  reconnect: z.optional(ReconnectSchema),
}

/** Fields of the official Config that later client lines add, with the first line that has each. */
export const LATER_FIELDS: Readonly<Record<string, string>> = {
  maxInstructionBytes: '0.1.6-alpha.2',
  oauth: 'a later line',
}

/** Transports later client lines add, with the first line that has each. */
export const LATER_TRANSPORTS: Readonly<Record<string, string>> = { sse: 'a later line' }

/** What the host's exported Config accepts: its transports, each with its top-level keys. */
export interface HostClientShape {
  /** The host's `@deepseek-ai/dsh-mcp-client` version (or "unknown"). */
  version: string
  transports: Readonly<Record<string, readonly string[]>>
}

/** Each transport or top-level field of `config` the host's Config does not have (empty: it can take it). */
export function hostGaps(config: Readonly<Record<string, unknown>>, host: HostClientShape): string[] {
  const transport = String(config.transport)
  const keys = host.transports[transport]
  if (keys === undefined)
    return [
      `the "${transport}" transport${LATER_TRANSPORTS[transport] ? ` (from ${LATER_TRANSPORTS[transport]})` : ''}`,
    ]
  return Object.keys(config)
    .filter((k) => config[k] !== undefined && !keys.includes(k))
    .map((k) => `"${k}"${LATER_FIELDS[k] ? ` (from ${LATER_FIELDS[k]})` : ''}`)
}

/** The one-line reason a mount is refused for `hostGaps`. */
export function gapMessage(gaps: readonly string[], host: HostClientShape): string {
  return `the host's @deepseek-ai/dsh-mcp-client ${host.version} does not support ${gaps.join(', ')}: remove ${gaps.length === 1 ? 'it' : 'them'} from the entry or update the host`
}

export const OfficialStdioSchema = z.strictObject({
  transport: z.literal('stdio'),
  ...Common,
  command: z.string().check(z.minLength(1)),
  args: z.optional(z.array(z.string())),
  env: z.optional(StringMap),
  cwd: z.optional(z.string()),
})

/** The remote transports take the same fields. */
const remoteSchema = <T extends 'streamable-http' | 'sse'>(transport: T) =>
  z.strictObject({
    transport: z.literal(transport),
    ...Common,
    url: z.string().check(z.minLength(1)),
    headers: z.optional(StringMap),
    oauth: z.optional(OAuthSchema),
  })

export const OfficialHttpSchema = remoteSchema('streamable-http')
export const OfficialSseSchema = remoteSchema('sse')

export const OfficialConfigSchema = z.discriminatedUnion('transport', [
  OfficialStdioSchema,
  OfficialHttpSchema,
  OfficialSseSchema,
])
export type OfficialConfig = z.output<typeof OfficialConfigSchema>

export interface MapOptions {
  /** The project root (or `$DSH_HOME` for user-layer servers): `cwd` resolves against it. */
  root: string
  /** The host's `process.platform` (an input: this module never reads it); decides the Windows launcher shim. */
  platform: string
}

/** Map an expanded, valid, full entry to the official client's config. */
export function toOfficialConfig(serverName: string, entry: Entry, opts: MapOptions): OfficialConfig {
  const transport = transportOf(entry)
  // The fields the table copies as written (fields.ts `official: 'copied'`); the rest are mapped below.
  const tuning: Partial<
    Pick<OfficialConfig, 'toolCallTimeoutMs' | 'failOnStartupError' | 'maxInstructionBytes' | 'reconnect'>
  > = {}
  for (const key of fieldsWhere((f) => f.official === 'copied')) {
    const value = (entry as Readonly<Record<string, unknown>>)[key]
    if (value !== undefined) (tuning as Record<string, unknown>)[key] = isRecord(value) ? { ...value } : value
  }
  if (transport === 'stdio') {
    if (entry.command === undefined)
      throw new TypeError(`toOfficialConfig(${serverName}): a stdio entry needs a command`)
    const launch = windowsLaunch({ command: entry.command, args: entry.args ?? [] }, opts.platform)
    const resolve = opts.platform === 'win32' ? path.win32.resolve : path.resolve
    return {
      transport: 'stdio',
      serverName,
      command: launch.command,
      ...(entry.args !== undefined || launch.args.length ? { args: launch.args } : {}),
      ...(entry.env !== undefined ? { env: { ...entry.env } } : {}),
      cwd: resolve(opts.root, entry.cwd ?? '.'),
      ...tuning,
    }
  }
  if (transport === 'streamable-http' || transport === 'sse') {
    if (entry.url === undefined) throw new TypeError(`toOfficialConfig(${serverName}): an http entry needs a url`)
    return {
      transport,
      serverName,
      url: entry.url,
      ...(entry.headers !== undefined ? { headers: { ...entry.headers } } : {}),
      ...(entry.oauth !== undefined ? { oauth: { ...entry.oauth } } : {}),
      ...tuning,
    }
  }
  throw new TypeError(`toOfficialConfig(${serverName}): entry has no transport`)
}

/**
 * fetch refuses a URL with credentials — and quotes it, credentials and all,
 * in its error: the launch moves `user:pass@` of an http server's URL into
 * an `Authorization: Basic` header (unless one is set). The trust
 * fingerprint is taken from the entry as written, not from this.
 */
export function credentialsAsHeader(config: OfficialConfig): OfficialConfig {
  if (config.transport !== 'streamable-http') return config
  let url: URL
  try {
    url = new URL(config.url)
  } catch {
    return config
  }
  if (!url.username && !url.password) return config
  const user = decodeURIComponent(url.username)
  const pass = decodeURIComponent(url.password)
  url.username = ''
  url.password = ''
  const headers = { ...config.headers }
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'authorization'))
    headers.Authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`
  return { ...config, url: url.href, headers }
}

/** Top-level keys the mirror knows for each transport (the differential test compares them with the installed client). */
export function mirroredKeys(): Record<'stdio' | 'streamable-http' | 'sse', string[]> {
  return {
    stdio: Object.keys(OfficialStdioSchema.shape).sort(),
    'streamable-http': Object.keys(OfficialHttpSchema.shape).sort(),
    sse: Object.keys(OfficialSseSchema.shape).sort(),
  }
}
