/**
 * Reading the status file a running host wrote for a project (docs/guide/status.md
 * "Status"): what it mounted, under which effective name, with how many
 * tools, the last error, when, and whether the writing process still lives.
 *
 * Contract: `readProjectStatuses` reads every host's status file of a root
 * (src/status/path.ts: one per host pid, and the older pid-less name) and
 * never throws; `mergeStatuses` orders them for `dsh-mcp status`: the files
 * of hosts that run, newest first; when none runs, only the newest file (a
 * stopped or died host's last word). A missing file is `absent`; a
 * file that is a link (symbolic, or hard: link count > 1; opened O_NOFOLLOW
 * and compared by dev+ino with the file checked, so a swap in between is
 * refused), owned (it or `mcp-status/`) by another user, too
 * large, or that src/status/format.ts does not decode (not JSON, another
 * version, written for another root) is `unreadable` with a one-line reason.
 * `hostState` joins the file's `host` with the writer's liveness: `running`,
 * `stopped` (shut down cleanly) or `died` (the file says running but its
 * process is gone). `pidAlive` probes with signal 0 and never signals a
 * process group (pid ≤ 0 is "not alive").
 *
 * @module
 */
import { lstatSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { type FileIdentity, readPinned } from '../files/pinned-read.ts'
import { ownedByOther } from '../files/private-dir.ts'
import { decodeStatus, type ProjectStatus, type StatusState } from '../status/format.ts'
import { pidAlive } from '../status/alive.ts'
import { statusDir, statusFileOf, statusFilePattern } from '../status/path.ts'

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

/** Every status file of `canonicalRoot` (one per host), read; `absent` alone when there is none. */
export function readProjectStatuses(dshHome: string, canonicalRoot: string): StatusRead[] {
  // Each file is then checked as it is read (a linked or foreign directory included: foreignStatus).
  const dir = statusDir(dshHome)
  let names: string[] = []
  try {
    names = readdirSync(dir)
  } catch {
    names = []
  }
  const files = names.filter((n) => statusFileOf(n, canonicalRoot)).map((n) => path.join(dir, n))
  if (files.length === 0) return [{ kind: 'absent', file: statusFilePattern(dshHome, canonicalRoot) }]
  return files.map((f) => readStatusFile(f, canonicalRoot))
}

/**
 * The statuses `dsh-mcp status` shows, in order: every running host's, newest first; with none running, the newest
 * file alone (what the last host saw). The files of hosts that are gone are left out while one runs.
 */
export function mergeStatuses(
  reads: readonly StatusRead[],
): { file: string; status: ProjectStatus; host: HostState }[] {
  const ok = reads
    .filter((r): r is Extract<StatusRead, { kind: 'ok' }> => r.kind === 'ok')
    .map((r) => ({ file: r.file, status: r.status, host: hostState(r.status) }))
    .sort((a, b) => Date.parse(b.status.updatedAt ?? '') - Date.parse(a.status.updatedAt ?? '') || 0)
  const running = ok.filter((r) => r.host === 'running')
  return running.length > 0 ? running : ok.slice(0, 1)
}

/** One status file, read as checked. */
export function readStatusFile(file: string, canonicalRoot: string): StatusRead {
  let checked: FileIdentity | undefined
  try {
    checked = lstatSync(file)
  } catch {
    checked = undefined
  }
  const foreign = foreignStatus(file)
  if (foreign) return { kind: 'unreadable', file, reason: foreign }
  if (checked === undefined) return { kind: 'absent', file }
  // Opened without following a link, and it must be the very file just checked (files/pinned-read.ts).
  const read = readPinned(file, { max: MAX_STATUS_BYTES, checked })
  if ('absent' in read) return { kind: 'absent', file }
  if ('problem' in read)
    return { kind: 'unreadable', file, reason: `is refused: ${read.problem}; remove it (the plugin writes it again)` }
  const raw = read.text
  const parsed = decodeStatus(raw, canonicalRoot)
  return 'reason' in parsed ? { kind: 'unreadable', file, reason: parsed.reason } : { kind: 'ok', file, status: parsed }
}

/** Why a status file (or its directory) another user could have planted is not read, or undefined. */
function foreignStatus(file: string): string | undefined {
  for (const p of [path.dirname(file), file]) {
    try {
      const st = lstatSync(p)
      if (st.isSymbolicLink()) return `is refused: ${p} is a symbolic link; remove it (the plugin writes it again)`
      if (ownedByOther(st))
        return `is refused: ${p} is owned by another user (uid ${st.uid}); remove it (the plugin writes it again)`
      if (p === file && st.nlink > 1)
        return `is refused: ${p} has ${st.nlink} hard links (refused like a symbolic link); remove it (the plugin writes it again)`
    } catch {
      return undefined
    }
  }
  return undefined
}

export { pidAlive }

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
