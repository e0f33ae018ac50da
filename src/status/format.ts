/**
 * The status file's format (docs/guide/status.md "Status"): the one place its
 * version, its states, its written shape and its decoded shape live. The
 * host's writer (src/host/status.ts) encodes with `encodeStatus`; the CLI's
 * reader (src/doctor/status.ts) decodes with `decodeStatus`.
 *
 * Contract: pure (no file system, no host). `encodeStatus` writes version
 * `STATUS_VERSION` as indented JSON with a trailing newline; the writer only
 * ever hands it names, states, counts and redacted errors. `decodeStatus`
 * never throws: text that is not JSON, not an object, not this version, or
 * written for another root is `{ reason }` (one line). Fields are sanitized
 * one by one (an unknown state reads as `unknown`, missing numbers as 0,
 * strings lose control characters and are bounded), so a hand-edited or
 * half-written file cannot break the CLI or the terminal. `host` is
 * `running` unless the file says `stopped` (an older file without it reads
 * `running`).
 *
 * @module
 */
import type { Scope } from '../config/layers.ts'
import type { Lifecycle } from '../config/schema.ts'
import { SERVER_STATES, type ServerState } from '../plan/states.ts'
import type { VerdictTag, VerdictView } from '../plan/verdict.ts'
import { isRecord } from '../config/guards.ts'
import { jsonTerminalSafe } from '../config/terminal-safe.ts'

/** The version this build writes and the only one it reads. */
export const STATUS_VERSION = 1

/** Every state a server row can be in, as the host writes it (plan/states.ts, the one vocabulary). */
export const STATUS_STATES = SERVER_STATES
export type { ServerState }

/** A state as read back: a state this build does not know reads `unknown`. */
export type StatusState = ServerState | 'unknown'

/** One server row as the host writes it. */
export interface WrittenServer {
  name: string
  effectiveName: string | null
  layer: Scope
  file: string
  state: ServerState
  toolCount: number
  error: string | null
  verdict?: VerdictView
  lifecycle: Lifecycle
  toolSource: 'cache' | 'live' | null
  lastUsedAt: string | null
  /** When this row last changed. */
  updatedAt: string
}

/** One refused config file as the host writes it. */
export interface WrittenFile {
  file: string
  layer: Scope
  error: string
  keptLastGood: boolean
}

/** A whole status file as the host writes it. */
export interface WrittenStatus {
  root: string
  pid: number
  host: 'running' | 'stopped'
  updatedAt: string
  servers: readonly WrittenServer[]
  files: readonly WrittenFile[]
}

/** One server row as read back (every field sanitized). */
export interface StatusServer {
  name: string
  effectiveName: string | null
  layer: string | null
  file: string | null
  state: StatusState
  toolCount: number
  error: string | null
  /** The row's verdict as the host judged it (plan/verdict.ts), or null when the file has none. */
  verdict: VerdictView | null
  updatedAt: string | null
  /** `eager` | `lazy` (null: written by a host without lifecycles). */
  lifecycle: string | null
  /** `cache` (a dormant lazy server) | `live` | null. */
  toolSource: string | null
  lastUsedAt: string | null
}

/** One refused config file as read back. */
export interface StatusFile {
  file: string
  layer: string | null
  error: string
  keptLastGood: boolean
}

/** A whole status file as read back. */
export interface ProjectStatus {
  root: string
  pid: number | null
  host: 'running' | 'stopped'
  updatedAt: string | null
  servers: StatusServer[]
  files: StatusFile[]
}

/** The file's text: JSON with every terminal control (C1, bidi) written as a `\uXXXX` escape, so a server's text cannot act on a terminal that shows the file. */
export function encodeStatus(status: WrittenStatus): string {
  return `${jsonTerminalSafe(JSON.stringify({ version: STATUS_VERSION, ...status }, null, 2))}\n`
}

const VERDICT_TAGS: Record<VerdictTag, true> = {
  runs: true,
  'needs-trust': true,
  skipped: true,
  refused: true,
  disabled: true,
  shadowed: true,
}

function text(v: unknown, max = 500): string | null {
  if (typeof v !== 'string') return null
  const clean = v.replace(/[\u0000-\u001f\u007f\u009b]/g, ' ').trim()
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

function isoOrNull(v: unknown): string | null {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null
}

function verdictOf(v: unknown): StatusServer['verdict'] {
  if (!isRecord(v) || typeof v.tag !== 'string' || !Object.hasOwn(VERDICT_TAGS, v.tag)) return null
  const out: VerdictView = { tag: v.tag as VerdictTag, why: text(v.why, 200), reason: text(v.reason) }
  const names = (x: unknown) =>
    Array.isArray(x)
      ? x.slice(0, 64).flatMap((n) => (typeof n === 'string' && /^[A-Za-z_]\w{0,127}$/.test(n) ? [n] : []))
      : undefined
  const variables = names(v.variables)
  const withheld = names(v.withheld)
  const fix = text(v.fix)
  const file = text(v.file, 4096)
  if (variables) out.variables = variables
  if (withheld) out.withheld = withheld
  if (fix) out.fix = fix
  if (file) out.file = file
  return out
}

function stateOf(v: unknown): StatusState {
  return (STATUS_STATES as readonly unknown[]).includes(v) ? (v as ServerState) : 'unknown'
}

function server(v: unknown): StatusServer | undefined {
  if (!isRecord(v)) return undefined
  const name = text(v.name, 64)
  if (!name) return undefined
  const count =
    typeof v.toolCount === 'number' && Number.isSafeInteger(v.toolCount) && v.toolCount >= 0 ? v.toolCount : 0
  return {
    name,
    effectiveName: text(v.effectiveName, 64),
    layer: text(v.layer, 32),
    file: text(v.file, 4096),
    state: stateOf(v.state),
    toolCount: count,
    error: text(v.error),
    verdict: verdictOf(v.verdict),
    updatedAt: isoOrNull(v.updatedAt),
    lifecycle: v.lifecycle === 'eager' || v.lifecycle === 'lazy' ? v.lifecycle : null,
    toolSource: v.toolSource === 'cache' || v.toolSource === 'live' ? v.toolSource : null,
    lastUsedAt: isoOrNull(v.lastUsedAt),
  }
}

function refusedFile(v: unknown): StatusFile | undefined {
  if (!isRecord(v)) return undefined
  const file = text(v.file, 4096)
  if (!file) return undefined
  return { file, layer: text(v.layer, 32), error: text(v.error) ?? 'refused', keptLastGood: v.keptLastGood === true }
}

/** Decode a status file's text for `root` (the canonical root it must name). */
export function decodeStatus(raw: string, root: string): ProjectStatus | { reason: string } {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return { reason: 'is not valid JSON (being written, or damaged)' }
  }
  if (!isRecord(value)) return { reason: 'is not a status object' }
  if (value.version !== STATUS_VERSION)
    return {
      reason: `has version ${JSON.stringify(value.version ?? null)}; this dsh-mcp reads version ${STATUS_VERSION}`,
    }
  if (typeof value.root === 'string' && value.root !== root)
    return { reason: `belongs to another project (${text(value.root, 4096)})` }
  const pid = typeof value.pid === 'number' && Number.isSafeInteger(value.pid) && value.pid > 0 ? value.pid : null
  const servers = Array.isArray(value.servers)
    ? value.servers.map(server).filter((s): s is StatusServer => s !== undefined)
    : []
  const files = Array.isArray(value.files)
    ? value.files.map(refusedFile).filter((f): f is StatusFile => f !== undefined)
    : []
  return {
    root,
    pid,
    host: value.host === 'stopped' ? 'stopped' : 'running',
    updatedAt: isoOrNull(value.updatedAt),
    servers,
    files,
  }
}
