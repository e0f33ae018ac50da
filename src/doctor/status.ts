/**
 * Reading the status file a running host wrote for a project (docs/guide/status.md
 * "Status"): what it mounted, under which effective name, with how many
 * tools, the last error, when, and whether the writing process still lives.
 *
 * Contract: `readProjectStatus` never throws. A missing file is `absent`; a
 * file that is not JSON, not version 1, written for another root, a link,
 * or owned (it or `mcp-status/`) by another user is `unreadable` with a
 * one-line reason. Fields are sanitized one by one (an
 * unknown state reads as `unknown`, missing numbers as 0, strings lose
 * control characters and are bounded), so a hand-edited or half-written file
 * cannot break the CLI or the terminal. `host` is what the file says (`running`
 * or `stopped`; an older file without it reads `running`); `hostState` joins
 * it with the writer's liveness: `running`, `stopped` (shut down cleanly) or
 * `died` (the file says running but its process is gone). `files` are the
 * config files the host refused, with their reason. `pidAlive` probes with signal 0 and
 * never signals a process group (pid ≤ 0 is "not alive").
 *
 * @module
 */
import { lstatSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ownedByOther } from '../files/private-dir.ts'
import { statusFilePath } from '../host/status-path.ts'

export const STATUS_STATES = ['mounted', 'starting', 'failed', 'untrusted', 'invalid', 'disabled', 'shadowed', 'idle', 'dormant', 'stopped'] as const
export type StatusState = (typeof STATUS_STATES)[number] | 'unknown'

export interface StatusServer {
  name: string
  effectiveName: string | null
  layer: string | null
  file: string | null
  state: StatusState
  toolCount: number
  error: string | null
  /** The row's verdict as the host judged it (plan/verdict.ts), or null when the file has none. */
  verdict: { tag: string; why: string | null; reason: string | null } | null
  updatedAt: string | null
  /** `eager` | `lazy` (null: written by a host without lifecycles). */
  lifecycle: string | null
  /** `cache` (a dormant lazy server) | `live` | null. */
  toolSource: string | null
  lastUsedAt: string | null
}

export interface StatusFile {
  file: string
  layer: string | null
  error: string
  keptLastGood: boolean
}

export interface ProjectStatus {
  root: string
  pid: number | null
  host: 'running' | 'stopped'
  updatedAt: string | null
  servers: StatusServer[]
  files: StatusFile[]
}

export type HostState = 'running' | 'stopped' | 'died'

/** Whether the host that wrote `s` runs, stopped cleanly, or died (its file says running, its pid is gone). */
export function hostState(s: Pick<ProjectStatus, 'host' | 'pid'>): HostState {
  if (s.host === 'stopped') return 'stopped'
  return pidAlive(s.pid) ? 'running' : 'died'
}

/** A server's state as it is now: a host that died left `mounted` rows that no longer run. */
export function stateNow(state: StatusState, host: HostState): StatusState {
  return host === 'died' && (state === 'mounted' || state === 'starting' || state === 'idle') ? 'stopped' : state
}

export type StatusRead =
  | { kind: 'absent'; file: string }
  | { kind: 'unreadable'; file: string; reason: string }
  | { kind: 'ok'; file: string; status: ProjectStatus }

const MAX_STATUS_BYTES = 4 * 1024 * 1024

function text(v: unknown, max = 500): string | null {
  if (typeof v !== 'string') return null
  const clean = v.replace(/[\u0000-\u001f\u007f\u009b]/g, ' ').trim()
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

function isoOrNull(v: unknown): string | null {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null
}

const VERDICT_TAGS = ['runs', 'needs-trust', 'skipped', 'refused', 'disabled', 'shadowed']

function verdictOf(v: unknown): StatusServer['verdict'] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  if (!VERDICT_TAGS.includes(o.tag as string)) return null
  return { tag: o.tag as string, why: text(o.why, 200), reason: text(o.reason) }
}

function server(v: unknown): StatusServer | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined
  const o = v as Record<string, unknown>
  const name = text(o.name, 64)
  if (!name) return undefined
  const state = STATUS_STATES.includes(o.state as (typeof STATUS_STATES)[number]) ? (o.state as StatusState) : 'unknown'
  const count = typeof o.toolCount === 'number' && Number.isSafeInteger(o.toolCount) && o.toolCount >= 0 ? o.toolCount : 0
  return {
    name,
    effectiveName: text(o.effectiveName, 64),
    layer: text(o.layer, 32),
    file: text(o.file, 4096),
    state,
    toolCount: count,
    error: text(o.error),
    verdict: verdictOf(o.verdict),
    updatedAt: isoOrNull(o.updatedAt),
    lifecycle: o.lifecycle === 'eager' || o.lifecycle === 'lazy' ? o.lifecycle : null,
    toolSource: o.toolSource === 'cache' || o.toolSource === 'live' ? o.toolSource : null,
    lastUsedAt: isoOrNull(o.lastUsedAt),
  }
}

function refusedFile(v: unknown): StatusFile | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined
  const o = v as Record<string, unknown>
  const file = text(o.file, 4096)
  if (!file) return undefined
  return { file, layer: text(o.layer, 32), error: text(o.error) ?? 'refused', keptLastGood: o.keptLastGood === true }
}

/** Decode a status file's text for `root` (the canonical root it must name). */
export function parseProjectStatus(raw: string, root: string): ProjectStatus | { reason: string } {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return { reason: 'is not valid JSON (being written, or damaged)' }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { reason: 'is not a status object' }
  const o = value as Record<string, unknown>
  if (o.version !== 1) return { reason: `has version ${JSON.stringify(o.version ?? null)}; this dsh-mcp reads version 1` }
  if (typeof o.root === 'string' && o.root !== root) return { reason: `belongs to another project (${text(o.root, 4096)})` }
  const pid = typeof o.pid === 'number' && Number.isSafeInteger(o.pid) && o.pid > 0 ? o.pid : null
  const servers = Array.isArray(o.servers) ? o.servers.map(server).filter((s): s is StatusServer => s !== undefined) : []
  const files = Array.isArray(o.files) ? o.files.map(refusedFile).filter((f): f is StatusFile => f !== undefined) : []
  return { root, pid, host: o.host === 'stopped' ? 'stopped' : 'running', updatedAt: isoOrNull(o.updatedAt), servers, files }
}

export function readProjectStatus(dshHome: string, canonicalRoot: string): StatusRead {
  const file = statusFilePath(dshHome, canonicalRoot)
  const foreign = foreignStatus(file)
  if (foreign) return { kind: 'unreadable', file, reason: foreign }
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent', file }
    return { kind: 'unreadable', file, reason: `cannot be read (${code ?? 'error'})` }
  }
  if (raw.length > MAX_STATUS_BYTES) return { kind: 'unreadable', file, reason: 'is too large to be a status file' }
  const parsed = parseProjectStatus(raw, canonicalRoot)
  return 'reason' in parsed ? { kind: 'unreadable', file, reason: parsed.reason } : { kind: 'ok', file, status: parsed }
}

/** Why a status file (or its directory) another user could have planted is not read, or undefined. */
function foreignStatus(file: string): string | undefined {
  for (const p of [path.dirname(file), file]) {
    try {
      const st = lstatSync(p)
      if (st.isSymbolicLink()) return `is refused: ${p} is a symbolic link; remove it (the plugin writes it again)`
      if (ownedByOther(st)) return `is refused: ${p} is owned by another user (uid ${st.uid}); remove it (the plugin writes it again)`
    } catch {
      return undefined
    }
  }
  return undefined
}

export function pidAlive(pid: number | null): boolean {
  if (pid === null || !Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** "just now", "3 s ago", "5 min ago", "2 h ago", "4 d ago" (a future time reads as "just now"). */
export function ageText(fromIso: string | null, now = Date.now()): string {
  if (fromIso === null) return 'at an unknown time'
  const ms = now - Date.parse(fromIso)
  if (!(ms >= 1000)) return 'just now'
  const s = Math.floor(ms / 1000)
  if (s < 120) return `${s} s ago`
  const m = Math.floor(s / 60)
  if (m < 120) return `${m} min ago`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h} h ago`
  return `${Math.floor(h / 24)} d ago`
}
