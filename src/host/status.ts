/**
 * Snapshots and status files (docs/guide/status.md).
 *
 * Contract: `serverSnapshots` turns placements plus live mounts into the
 * user-facing state of each row (plan/states.ts, the one vocabulary): a row
 * whose verdict is not `runs` reads its settled state (`untrusted | skipped
 * | invalid | disabled | shadowed`), one that runs its live state (`mounted
 * | starting | failed | idle | dormant | stopped`; `starting`:
 * wanted and being mounted for a project with live agents; `idle`: wanted,
 * not mounted, no agent waits for it; `dormant`: a lazy server that is
 * stopped, offering its cached tools; `stopped`: the host stopped), with its
 * lifecycle, where its tools come from and its last use. A mount
 * whose fork is up but holds no tools while the official client reports a
 * connection error reads as `failed` (the client keeps reconnecting; we never
 * tear it down). Each row carries its verdict (plan/verdict.ts). `effectiveName` is null unless mounted. The status writer
 * writes this host's own file, `$DSH_HOME/mcp-status/<hash>.<pid>.json` (src/status/path.ts: concurrent hosts of
 * one project each write theirs; before its first write for a root it removes that root's files whose host is
 * gone — a dead pid, or the older pid-less name — through status/alive.ts `pidAlive`), in the
 * format of src/status/format.ts, atomically (0600 in a 0700
 * directory, never through a link planted at its path; a directory owned
 * by another user is refused — `files/private-dir.ts`), coalescing bursts
 * (one write in flight per file, the latest content wins), skips a write
 * whose servers are what it last wrote there (the file's `updatedAt` is the
 * last change: its pid says whether the host is still running), and never
 * throws; it only ever receives names, states, counts and redacted errors.
 * A file also carries the project's config files the host refused (they do
 * not parse, or were refused on read) with their one-line reason, and
 * `host: "running" | "stopped"` (`stopped` once the host shut down cleanly).
 * A mounted or dormant row carries its `detail` (`tools-changed`: some of
 * its tools are withheld until reviewed, host/tool-pins.ts), else null.
 *
 * @module
 */
import type { Scope } from '../config/layers.ts'
import type { Lifecycle } from '../config/schema.ts'
import type { Placement } from '../plan/desired.ts'
import type { Log } from './log.ts'
import type { Mount } from './mounts.ts'
import { ensureHomeDir, writePrivateFile } from '../files/private-dir.ts'
import { type Cause, readsFailed, type RowDetail, type ServerState, settledState } from '../plan/states.ts'
import { encodeStatus, type StatusBudget, type WrittenFile, type WrittenServer } from '../status/format.ts'
import { readdirSync, unlinkSync } from 'node:fs'
import path from 'node:path'
import { pidAlive } from '../status/alive.ts'
import { statusDir, statusFileOf, statusFilePath } from '../status/path.ts'

/** A config file of the project the host refused: it contributes nothing (or its last good version). */
export interface FileProblem {
  file: string
  layer: Scope
  /** One line: why (file:line:col and the rule, never a value). */
  reason: string
  /** Whether its last good version is still in use. */
  keptLastGood: boolean
}

/** What the lazy layer (src/lazy) says of one mount key; `dormant`: stopped, its cached tools registered. */
export interface LazyInfo {
  dormant: boolean
  source: 'cache' | 'live'
  lastUsedAt: number | null
  error: string | null
}

/** The lifecycle inputs of a snapshot: the plugin default and the lazy layer's view of a key. */
export interface LazyView {
  defaultLifecycle: Lifecycle
  info(key: string): LazyInfo | undefined
}

/**
 * One row as the host holds it: the written row (status/format.ts) without
 * its stamp, the error as `lastError`. `verdict` is tag, kind of reason and
 * reason — never a value; `toolSource` says where its tools come from (null:
 * none registered); `lastUsedAt` is the last tool call through this host
 * (ISO time), lazy servers only.
 */
export interface ServerSnapshot extends Omit<WrittenServer, 'error' | 'updatedAt'> {
  lastError: string | null
  /** The typed cause of `lastError` when the host knows it (plan/states.ts; its text is `lastError`). */
  cause?: Cause | null
}

export interface ProjectSnapshot {
  root: string
  agents: number
  servers: ServerSnapshot[]
  files: FileProblem[]
}

export interface Snapshot {
  /** Known projects (with agents, pinned, or in their grace period). */
  projects: ProjectSnapshot[]
  /** The user layer as an agent outside any project sees it. */
  global: ServerSnapshot[]
}

export { readsFailed }

/**
 * How the host serves a view: `live` (agents wait: a wanted row not mounted
 * yet reads `starting`), `released` (no agent: it reads `idle`), `stopped`
 * (the host shut down: every wanted row reads `stopped`).
 */
export type Serving = 'live' | 'released' | 'stopped'

export interface SnapshotOptions {
  serving?: Serving
  lazy?: LazyView
  /** A running row's detail (host/tool-pins.ts: `tools-changed`), by row name. */
  detail?: (name: string) => RowDetail | null
}

export function serverSnapshots(
  placements: readonly Placement[],
  mounts: ReadonlyMap<string, Mount>,
  toolCounts: ReadonlyMap<string, number>,
  opts: SnapshotOptions = {},
): ServerSnapshot[] {
  const { serving = 'live', lazy } = opts
  return placements.map((p): ServerSnapshot => {
    const info = p.key ? lazy?.info(p.key) : undefined
    const lifecycle = p.lifecycle ?? lazy?.defaultLifecycle ?? 'eager'
    const lastUsedAt = info?.lastUsedAt == null ? null : new Date(info.lastUsedAt).toISOString()
    const row = (s: Omit<ServerSnapshot, 'lifecycle' | 'toolSource' | 'lastUsedAt' | 'detail'>): ServerSnapshot => ({
      ...s,
      lifecycle,
      toolSource: s.toolCount > 0 ? (info?.source ?? 'live') : null,
      lastUsedAt,
      detail: s.state === 'mounted' || s.state === 'dormant' ? (opts.detail?.(p.name) ?? null) : null,
    })
    const base = { name: p.name, layer: p.layer, file: p.file, verdict: p.verdict }
    const settled = settledState(p.verdict.tag)
    if (settled !== null || !p.key) {
      const state: ServerState = settled ?? 'failed'
      const lastError = state === 'shadowed' || state === 'disabled' ? null : p.verdict.reason
      return row({ ...base, effectiveName: null, state, toolCount: 0, lastError })
    }
    if (serving === 'stopped')
      return row({ ...base, effectiveName: null, state: 'stopped', toolCount: 0, lastError: null })
    const m = mounts.get(p.key)
    const toolCount = toolCounts.get(p.key) ?? 0
    if (info?.dormant) return row({ ...base, effectiveName: null, state: 'dormant', toolCount, lastError: info.error })
    if (!m || m.state === 'mounting')
      return row({
        ...base,
        effectiveName: null,
        state: serving === 'live' || m ? 'starting' : 'idle',
        toolCount: 0,
        lastError: m?.error ?? null,
      })
    if (m.state === 'failed')
      return row({ ...base, effectiveName: null, state: 'failed', toolCount: 0, lastError: m.error, cause: m.cause })
    const state: ServerState = readsFailed(m, toolCount) ? 'failed' : 'mounted'
    return row({
      ...base,
      effectiveName: state === 'mounted' ? m.effectiveName : null,
      state,
      toolCount,
      lastError: m.error,
      cause: m.cause,
    })
  })
}

export interface StatusWriter {
  write(
    root: string,
    servers: readonly ServerSnapshot[],
    files?: readonly FileProblem[],
    host?: 'running' | 'stopped',
    budget?: StatusBudget,
  ): void
  settled(): Promise<void>
}

interface Slot {
  writing: Promise<void> | undefined
  next: string | undefined
  /** The servers of the last content queued; dropped when a write fails, so the next one retries. */
  last: string | undefined
  /** The root it reports; whether the files of its gone hosts were removed (before the first write). */
  root: string
  swept: boolean
}

/** Remove `root`'s status files whose host is gone (a dead pid, or the older pid-less name); never throws. */
function sweepGone(dshHome: string, root: string): void {
  const dir = statusDir(dshHome)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const of = statusFileOf(name, root)
    if (!of || of.pid === process.pid || (of.pid !== null && pidAlive(of.pid))) continue
    try {
      unlinkSync(path.join(dir, name))
    } catch {
      // gone already, or not ours to remove: the reader leaves it out while a host runs
    }
  }
}

export function createStatusWriter(dshHome: string, log: Log): StatusWriter {
  const slots = new Map<string, Slot>()
  const stamps = new Map<string, { sig: string; at: string }>()
  const inflight = new Set<Promise<void>>()

  const stamp = (root: string, s: ServerSnapshot, now: string): string => {
    const id = `${root}\0${s.layer}\0${s.file}\0${s.name}`
    const sig = JSON.stringify([s.state, s.effectiveName, s.toolCount, s.lastError, s.detail])
    const prev = stamps.get(id)
    if (prev && prev.sig === sig) return prev.at
    stamps.set(id, { sig, at: now })
    return now
  }

  const pump = (file: string, slot: Slot) => {
    if (slot.writing || slot.next === undefined) return
    const text = slot.next
    slot.next = undefined
    const p: Promise<void> = (async () => {
      try {
        ensureHomeDir(dshHome, 'status')
        if (!slot.swept) {
          slot.swept = true
          sweepGone(dshHome, slot.root)
        }
        writePrivateFile(file, text)
      } catch (error) {
        slot.last = undefined
        log.once(
          `status:${file}`,
          'warn',
          `could not write the status file ${file}: ${String((error as Error).message ?? error)}`,
        )
      }
    })().finally(() => {
      slot.writing = undefined
      inflight.delete(p)
      pump(file, slot)
    })
    slot.writing = p
    inflight.add(p)
  }

  return {
    write(root, servers, files = [], host = 'running', budget) {
      const file = statusFilePath(dshHome, root)
      let slot = slots.get(file)
      if (!slot) {
        slot = { writing: undefined, next: undefined, last: undefined, root, swept: false }
        slots.set(file, slot)
      }
      // Unchanged servers: unchanged stamps too, so nothing to write.
      const body = JSON.stringify([servers, files, host, budget])
      if (body === slot.last) return
      slot.last = body
      const now = new Date().toISOString()
      const rows = servers.map(
        (s): WrittenServer => ({
          name: s.name,
          effectiveName: s.effectiveName,
          layer: s.layer,
          file: s.file,
          state: s.state,
          toolCount: s.toolCount,
          error: s.lastError,
          ...(s.verdict ? { verdict: s.verdict } : {}),
          lifecycle: s.lifecycle,
          toolSource: s.toolSource,
          lastUsedAt: s.lastUsedAt,
          detail: s.detail,
          updatedAt: stamp(root, s, now),
        }),
      )
      const refused = files.map(
        (f): WrittenFile => ({ file: f.file, layer: f.layer, error: f.reason, keptLastGood: f.keptLastGood }),
      )
      slot.next = encodeStatus({
        root,
        pid: process.pid,
        host,
        updatedAt: now,
        servers: rows,
        files: refused,
        ...(budget ? { budget } : {}),
      })
      pump(file, slot)
    },
    async settled() {
      while (inflight.size > 0) await Promise.allSettled([...inflight])
    },
  }
}
