/**
 * The official `@deepseek-ai/dsh-mcp-client` Config, mirrored in zod, and the
 * one mapping from a friendly entry to it.
 *
 * Contract: `toOfficialConfig` writes only what the user wrote — the official
 * client keeps its own defaults — except `transport` (always set: omitting it
 * passes the official validation and then fails obscurely), `serverName`, and
 * `cwd` (always the resolved directory: the official default is the host's
 * cwd, never what a project means). The input must already be expanded.
 * The mirror is strict: a key it does not know is a bug in this mapping, and
 * the differential test keeps its key set equal to the installed client's.
 *
 * @module
 */
import path from 'node:path'
import * as z from 'zod'
import { transportOf } from './entry.ts'
import { type Entry, ReconnectSchema, SERVER_NAME_PATTERN } from './schema.ts'
import { windowsLaunch } from './windows.ts'

const ServerName = z.string().regex(SERVER_NAME_PATTERN)
const StringMap = z.record(z.string(), z.string())
const Common = {
  serverName: ServerName,
  toolCallTimeoutMs: z.number().optional(),
  failOnStartupError: z.boolean().optional(),
  reconnect: ReconnectSchema.optional(),
}

export const OfficialStdioSchema = z
  .object({
    transport: z.literal('stdio'),
    ...Common,
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: StringMap.optional(),
    cwd: z.string().optional(),
  })
  .strict()

export const OfficialHttpSchema = z
  .object({
    transport: z.literal('streamable-http'),
    ...Common,
    url: z.string().min(1),
    headers: StringMap.optional(),
  })
  .strict()

export const OfficialConfigSchema = z.discriminatedUnion('transport', [OfficialStdioSchema, OfficialHttpSchema])
export type OfficialConfig = z.output<typeof OfficialConfigSchema>

export interface MapOptions {
  /** The project root (or `$DSH_HOME` for user-layer servers): `cwd` resolves against it. */
  root: string
  /** `process.platform`; decides the Windows launcher shim. */
  platform?: string
}

/** Map an expanded, valid, full entry to the official client's config. */
export function toOfficialConfig(serverName: string, entry: Entry, opts: MapOptions): OfficialConfig {
  const transport = transportOf(entry)
  const tuning = {
    ...(entry.toolCallTimeoutMs !== undefined ? { toolCallTimeoutMs: entry.toolCallTimeoutMs } : {}),
    ...(entry.failOnStartupError !== undefined ? { failOnStartupError: entry.failOnStartupError } : {}),
    ...(entry.reconnect !== undefined ? { reconnect: { ...entry.reconnect } } : {}),
  }
  if (transport === 'stdio') {
    if (entry.command === undefined) throw new TypeError(`toOfficialConfig(${serverName}): a stdio entry needs a command`)
    const launch = windowsLaunch({ command: entry.command, args: entry.args ?? [] }, opts.platform ?? process.platform)
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
  if (transport === 'streamable-http') {
    if (entry.url === undefined) throw new TypeError(`toOfficialConfig(${serverName}): an http entry needs a url`)
    return {
      transport: 'streamable-http',
      serverName,
      url: entry.url,
      ...(entry.headers !== undefined ? { headers: { ...entry.headers } } : {}),
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
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) headers.Authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`
  return { ...config, url: url.href, headers }
}

/** Top-level keys the mirror knows for each transport (the differential test compares them with the installed client). */
export function mirroredKeys(): Record<'stdio' | 'streamable-http', string[]> {
  return {
    stdio: Object.keys(OfficialStdioSchema.shape).sort(),
    'streamable-http': Object.keys(OfficialHttpSchema.shape).sort(),
  }
}
