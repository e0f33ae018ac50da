/**
 * Known projects and the generations of their config files.
 *
 * Contract: a project is known while it has agents, is pinned (the host's
 * own cwd), or is within its grace period (`graceMs` after its last agent
 * left; an agent arriving within it cancels the expiry). `load(root)` reads
 * the project's layer files fresh — its own and, in a monorepo, those of each
 * directory above it up to the repository root (config/inherit.ts; cut at
 * `inherit: false`); a parent's file is read once for all projects that
 * inherit it, watched once, and keeps its last good version while any known
 * project still inherits it; a file that does not parse contributes its
 * last good generation (per file) and its diagnostics are logged once per
 * distinct text as `file:line:col`; a missing file contributes nothing; a
 * refused file (`files/guard.ts`: another user's, or a link out of the
 * project) contributes its refusal and no entries — never a last good
 * version — and is judged again on every load. The
 * user layer is read the same way. A file whose stat signature (mtime, ctime,
 * size, inode) is unchanged since a read made well after its mtime (past any
 * timestamp granularity — the "racy git" rule) is not read or parsed again;
 * `refused(root)` lists the project's files that do not parse or were
 * refused on read, each with its first diagnostic line;
 * any other file whose bytes equal those of its last parse is read but not
 * parsed again (its last result, and its last log line, stand). Reads never
 * throw. `load` also reads the `.dsh/mcp.lock` of the project's directory and
 * of each parent (`locks`, a new map only when a lock's content changed; the
 * plan attaches each locked row's entry to its trust fingerprint), and
 * `files()` lists those lock paths to watch like the config files.
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import { readFileSync, statSync } from 'node:fs'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { type Diagnostic, formatDiagnostic } from '../config/diagnostics.ts'
import { chainLayerFiles, readChain } from '../config/inherit.ts'
import { type LayerFile, type LayerInput, userLayerFile } from '../config/layers.ts'
import { allDiagnostics } from '../config/parse.ts'
import { lockPathOf, readLockFile } from '../files/lock-file.ts'
import { guardFor, type Locations, projectChainOf, readConfigFile } from '../files/read.ts'
import { type LockFile, lockText } from '../lock/format.ts'
import type { Log } from './log.ts'
import type { FileProblem } from './status.ts'

/** A read this long after the file's mtime cannot have raced a same-timestamp write. */
const RACY_MS = 2000

function statOf(file: string): { sig: string; mtimeMs?: number; size?: number; regular?: boolean } {
  try {
    // No throw for a missing file (most layer files are): an exception per file per reconcile is the costly part.
    const st = statSync(file, { throwIfNoEntry: false })
    if (!st) return { sig: 'error:ENOENT' }
    return {
      sig: `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}:${st.mode}`,
      mtimeMs: Math.max(st.mtimeMs, st.ctimeMs),
      size: st.size,
      regular: st.isFile(),
    }
  } catch (error) {
    return { sig: `error:${(error as NodeJS.ErrnoException).code ?? 'unknown'}` }
  }
}

/** Diagnostic lines one read of a file logs: a file of 256 entries can hold thousands of problems; `dsh-mcp validate` lists them. */
const MAX_LOGGED_LINES = 50

function logLines(diagnostics: readonly Diagnostic[], file: string): string[] {
  const lines = diagnostics.slice(0, MAX_LOGGED_LINES).map((d) => formatDiagnostic(d))
  const more = diagnostics.length - lines.length
  if (more > 0) lines.push(`${file}: ${more} more problems not logged; \`dsh-mcp validate\` lists them`)
  return lines
}

const formatFirst = (d: Parameters<typeof formatDiagnostic>[0] | undefined) => (d ? formatDiagnostic(d) : undefined)

/** Whether `file` holds exactly `bytes` now (unreadable: no). */
function sameBytes(file: string, bytes: Buffer): boolean {
  try {
    return readFileSync(file).equals(bytes)
  } catch {
    return false
  }
}

export interface Project {
  readonly root: string
  readonly agents: Set<Agent>
  pinned: boolean
  layers: LayerInput[]
  /** The `.dsh/mcp.lock` of the project's directory and its parents (a new map only when one changed). */
  locks: ReadonlyMap<string, LockFile>
  grace: NodeJS.Timeout | undefined
}

export interface ProjectsOptions {
  loc: Locations
  legacyMcpJson: boolean
  userLayer: boolean
  graceMs: number
  log: Log
  /** A project's grace period ended: it is no longer known. */
  onExpire(root: string): void
}

export interface Projects {
  get(root: string): Project | undefined
  list(): Project[]
  /** Know `root` (reading its files when new). Returns whether it was new. */
  ensure(root: string, opts?: { pinned?: boolean }): boolean
  attach(root: string, agent: Agent): void
  detach(root: string, agent: Agent): void
  /** Re-read a project's files into `layers`. */
  load(root: string): void
  /** The user layer, read fresh. */
  loadUser(): LayerInput[]
  /** The project's config files the host refused, with why. */
  refused(root: string): FileProblem[]
  /** Every config file to watch. */
  files(): string[]
  dispose(): void
}

export function createProjects(opts: ProjectsOptions): Projects {
  const projects = new Map<string, Project>()
  const lastGood = new Map<string, LayerInput>()
  /** Per file: its stat signature, whether that signature can be trusted, the bytes last parsed (UTF-8 text only) and the result. */
  const reads = new Map<
    string,
    { sig: string; safe: boolean; bytes: Buffer | undefined; value: LayerInput | undefined }
  >()
  const userFile = userLayerFile(opts.loc.dshHome)
  /** Per file: why it is refused (absent: it is fine). */
  const problems = new Map<string, FileProblem>()

  const readLayer = (layer: LayerFile): LayerInput | undefined => {
    const stat = statOf(layer.file)
    const safe = stat.mtimeMs === undefined || Date.now() - stat.mtimeMs > RACY_MS
    const cached = reads.get(layer.file)
    if (cached?.safe && cached.sig === stat.sig) return cached.value
    // The same bytes as last time: reading is cheap, parsing is not (a regular file only: a FIFO would block).
    if (cached?.bytes && stat.regular && cached.bytes.length === stat.size && sameBytes(layer.file, cached.bytes)) {
      reads.set(layer.file, { ...cached, sig: stat.sig, safe })
      return cached.value
    }
    const { value, text } = readFresh(layer)
    // A refusal is judged again on every load (its directories or the allow list may change, not the file).
    const judged = safe && !value?.parsed.refused
    reads.set(layer.file, {
      sig: stat.sig,
      safe: judged,
      bytes: text === undefined ? undefined : Buffer.from(text, 'utf8'),
      value,
    })
    return value
  }

  const readFresh = (layer: LayerFile): { value: LayerInput | undefined; text?: string } => {
    const key = `file:${layer.file}`
    const r = readConfigFile(
      layer,
      { allowPartial: layer.scope === 'local', userFile: layer.scope === 'user' },
      guardFor(layer, opts.loc),
    )
    problems.delete(layer.file)
    if (r.absent) {
      lastGood.delete(layer.file)
      opts.log.forget(key)
      return { value: undefined }
    }
    const diagnostics = allDiagnostics(r.parsed)
    const lines = logLines(diagnostics, layer.file)
    if (r.parsed.refused) {
      // Refused unread (another user's file, a link out of the project): no last good version either.
      lastGood.delete(layer.file)
      opts.log.once(key, 'warn', lines.join('\n'))
      problems.set(layer.file, {
        file: layer.file,
        layer: layer.scope,
        reason: r.parsed.refused.message,
        keptLastGood: false,
      })
      return { value: { layer, parsed: r.parsed } }
    }
    if (!r.parsed.ok) {
      const prev = lastGood.get(layer.file)
      const tail = prev ? 'keeping its last good version mounted' : 'nothing from it is mounted'
      opts.log.once(key, 'warn', `${lines.join('\n')}\n(${layer.file} does not parse; ${tail})`)
      problems.set(layer.file, {
        file: layer.file,
        layer: layer.scope,
        reason: formatFirst(diagnostics.find((d) => d.severity === 'error')) ?? lines[0] ?? 'does not parse',
        keptLastGood: prev !== undefined,
      })
      return { value: prev, ...(r.text === undefined ? {} : { text: r.text }) }
    }
    if (lines.length) opts.log.once(key, 'warn', lines.join('\n'))
    else opts.log.forget(key)
    const input: LayerInput = { layer, parsed: r.parsed }
    lastGood.set(layer.file, input)
    return { value: input, ...(r.text === undefined ? {} : { text: r.text }) }
  }

  const legacy = { legacyMcpJson: opts.legacyMcpJson }
  /** The project's files and those of the directories above it up to the repository root (config/inherit.ts). */
  const layerFiles = (root: string) => chainLayerFiles(projectChainOf(root, opts.loc), legacy)

  const load = (root: string) => {
    const p = projects.get(root)
    if (!p) return
    const chain = projectChainOf(root, opts.loc)
    p.layers = readChain(chain, legacy, readLayer)
    // Each lock the project's rows may be locked by (their trust covers it: lock/pin.ts); unreadable: none
    // (the launcher refuses to start from a lock that does not read, launch/locked.ts).
    const locks = new Map<string, LockFile>()
    for (const dir of chain) {
      const r = readLockFile(dir)
      if ('lock' in r) locks.set(dir, r.lock)
    }
    const same =
      locks.size === p.locks.size &&
      [...locks].every(([d, l]) => p.locks.has(d) && lockText(p.locks.get(d)!) === lockText(l))
    if (!same) p.locks = locks
  }

  const stopGrace = (p: Project) => {
    if (p.grace) clearTimeout(p.grace)
    p.grace = undefined
  }

  return {
    get: (root) => projects.get(root),
    list: () => [...projects.values()],
    ensure(root, { pinned = false } = {}) {
      const existing = projects.get(root)
      if (existing) {
        if (pinned) existing.pinned = true
        return false
      }
      projects.set(root, { root, agents: new Set(), pinned, layers: [], locks: new Map(), grace: undefined })
      load(root)
      return true
    },
    attach(root, agent) {
      const p = projects.get(root)
      if (!p) return
      p.agents.add(agent)
      stopGrace(p)
    },
    detach(root, agent) {
      const p = projects.get(root)
      if (!p) return
      p.agents.delete(agent)
      if (p.agents.size > 0 || p.pinned || p.grace) return
      p.grace = setTimeout(() => {
        p.grace = undefined
        if (p.agents.size > 0 || p.pinned || projects.get(root) !== p) return
        projects.delete(root)
        // A parent directory's file other known projects still inherit keeps its last good version.
        const shared = new Set([...projects.keys()].flatMap((r) => layerFiles(r).map((l) => l.file)))
        for (const l of layerFiles(root)) {
          if (shared.has(l.file)) continue
          lastGood.delete(l.file)
          reads.delete(l.file)
          problems.delete(l.file)
          opts.log.forget(`file:${l.file}`)
        }
        opts.onExpire(root)
      }, opts.graceMs)
      p.grace.unref?.()
    },
    load,
    loadUser: () => (opts.userLayer ? [readLayer(userFile)].flatMap((l) => l ?? []) : []),
    refused: (root) => layerFiles(root).flatMap((l) => problems.get(l.file) ?? []),
    files() {
      const out = new Set([...projects.keys()].flatMap((root) => layerFiles(root).map((l) => l.file)))
      for (const root of projects.keys()) for (const dir of projectChainOf(root, opts.loc)) out.add(lockPathOf(dir))
      if (opts.userLayer) out.add(userFile.file)
      return [...out]
    },
    dispose() {
      for (const p of projects.values()) stopGrace(p)
      projects.clear()
    },
  }
}
