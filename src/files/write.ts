/**
 * Safe writes of a config file: read-modify-write under a cross-process lock,
 * replaced atomically.
 *
 * Contract:
 * - `updateFile(file, edit)` takes an exclusive lock (proper-lockfile, lock
 *   directory `<file>.lock` next to the file), reads the file's current text
 *   under the lock (`undefined` when it does not exist), calls `edit`, and —
 *   when `edit` returns a string different from the current text — replaces
 *   the file atomically (atomic.ts: a temp file of an unpredictable name
 *   created O_EXCL|O_NOFOLLOW in the same directory, fsync, rename, fsync of
 *   the directory — a link a repository planted at any name is never written
 *   through). A process killed at any instant leaves the old or the new
 *   content, never a truncated file; concurrent writers never lose an
 *   update because each re-reads under the lock. A `file` that is a
 *   symbolic link (one that stays in the project, with `within`) is written
 *   at its target; the link stays.
 * - `edit` may throw: nothing is written, the lock is released, and
 *   directories created for the file are removed again when still empty.
 * - A path that is a directory, unreadable, or a symbolic-link loop throws a
 *   `WriteError` before `edit` runs; so does, with `within` (a project
 *   root), a path through a symbolic link whose target leaves that root
 *   (`.dsh/mcp.yml` → `~/.bashrc`, `.dsh` → elsewhere): checked before the
 *   lock or any directory is created, and again under the lock. So is a
 *   lock path that cannot be a lock (lock-path.ts: a symbolic link — never
 *   followed — or not a directory): refused at once, nothing created. An
 *   existing file keeps its mode and owner; a created file gets
 *   `createMode` (default 0644 minus umask).
 * - With `private`, the replace is `writePrivateFile` (files/private-dir.ts):
 *   mode 0600 whether created or not, and a link planted at the path is
 *   replaced, never written through (the trust store).
 * - `writeFileSafely` is the same atomic replace without a read (exports).
 *
 * @module
 */
import { lstatSync, mkdirSync, readFileSync, realpathSync, rmdirSync, statSync } from 'node:fs'
import path from 'node:path'
import lockfile from 'proper-lockfile'
import { replaceFile } from './atomic.ts'
import { linkOutside } from './guard.ts'
import { lockPathProblem } from './lock-path.ts'
import { writePrivateFile } from './private-dir.ts'

export class WriteError extends Error {
  readonly file: string
  constructor(file: string, message: string) {
    super(`${file}: ${message}`)
    this.name = 'WriteError'
    this.file = file
  }
}

export interface UpdateOptions {
  /** Mode of a file this call creates (default 0644, whatever the umask; an existing file keeps its own). */
  createMode?: number
  /** Mode of directories this call creates (default 0755). */
  dirMode?: number
  /** How long to wait for another writer's lock, in ms (default 30000). */
  lockWaitMs?: number
  /** The project root the file must stay in: a link on the way that leaves it is refused before anything is created or locked. */
  within?: string
  /** Replace the file 0600 and never through a link (`writePrivateFile`); `createMode` does not apply. */
  private?: boolean
}

export interface UpdateResult {
  /** The file did not exist and was created. */
  created: boolean
  /** The file's content changed. */
  changed: boolean
  /** The text before the edit (`undefined`: the file did not exist). */
  before: string | undefined
  /** The text now on disk. */
  after: string | undefined
}

/** `edit` receives the current text (`undefined`: no file) and returns the new text, or `undefined` to leave the file alone. */
export type Edit = (current: string | undefined) => string | undefined | Promise<string | undefined>

const STALE_MS = 5_000

function lockOptions(waitMs: number): lockfile.LockOptions {
  // Backoff from 5 ms to 100 ms; enough retries to outlast `waitMs`, which
  // also covers a stale lock left by a SIGKILLed writer (STALE_MS).
  const retries = Math.max(1, Math.ceil(waitMs / 100) + 10)
  return {
    realpath: false,
    stale: STALE_MS,
    retries: { retries, factor: 1.25, minTimeout: 5, maxTimeout: 100, randomize: true },
    onCompromised: () => {},
  }
}

/** Read the current text for an edit: `undefined` when absent; throws WriteError when it is not a readable file. */
export function readForEdit(file: string): string | undefined {
  try {
    const st = statSync(file)
    if (st.isDirectory()) throw new WriteError(file, 'is a directory, not a config file')
    if (!st.isFile()) throw new WriteError(file, 'is not a regular file')
  } catch (err) {
    if (err instanceof WriteError) throw err
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    throw new WriteError(file, describe(err))
  }
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw new WriteError(file, describe(err))
  }
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied'
  if (code === 'ELOOP') return 'cannot be read: too many levels of symbolic links'
  if (code === 'EISDIR') return 'is a directory, not a config file'
  if (code === 'ENOTDIR') return 'cannot be created: a parent path is a file, not a directory'
  return `cannot be read: ${code ?? (err as Error).message}`
}

/** Create the parent directory; returns the first directory created (to undo), if any. */
function ensureParent(file: string, mode: number | undefined): string | undefined {
  try {
    // 0755 unless told: never group- or world-writable, whatever the umask (the guard refuses such a .dsh/).
    return mkdirSync(path.dirname(file), { recursive: true, mode: mode ?? 0o755 })
  } catch (err) {
    throw new WriteError(file, describe(err))
  }
}

/** Remove directories from `file`'s parent up to `first` when they are empty. */
function undoParents(file: string, first: string | undefined): void {
  if (!first) return
  let d = path.dirname(file)
  for (;;) {
    try {
      rmdirSync(d)
    } catch {
      return
    }
    if (d === first) return
    const up = path.dirname(d)
    if (up === d) return
    d = up
  }
}

/** Throw the `WriteError` a write of `file` would, when its lock path cannot be a lock (lock-path.ts). */
export function refuseLockPath(file: string): void {
  const problem = lockPathProblem(file)
  if (problem) throw new WriteError(file, `refusing to write: ${problem}`)
}

async function acquire(file: string, waitMs: number): Promise<() => Promise<void>> {
  refuseLockPath(file)
  try {
    return await lockfile.lock(file, lockOptions(waitMs))
  } catch (err) {
    // Planted while we waited: say so, not "locked".
    refuseLockPath(file)
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new WriteError(
        file,
        `is locked by another writer (${path.basename(file)}.lock); try again, or remove that directory if no dsh-mcp is running`,
      )
    }
    throw new WriteError(file, `cannot be locked: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
}

/**
 * Replace `file` (its target when it is a link) atomically: an existing file
 * keeps its mode and owner, a new one gets `createMode` (default 0644).
 */
function replace(file: string, text: string, existed: boolean, createMode: number | undefined): void {
  try {
    if (!existed) {
      replaceFile(file, text, { mode: createMode ?? 0o644 })
      return
    }
    const dest = lstatSync(file).isSymbolicLink() ? realpathSync(file) : file
    const st = statSync(dest)
    replaceFile(dest, text, { mode: st.mode & 0o7777, owner: { uid: st.uid, gid: st.gid } })
  } catch (err) {
    throw new WriteError(file, `cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
}

function refuseLinkOut(file: string, within: string | undefined): void {
  const out = within === undefined ? undefined : linkOutside(file, within)
  if (out)
    throw new WriteError(
      file,
      `refusing to write: ${out.link} is a symbolic link to ${out.target}, outside the project ${within}; dsh-mcp never writes through it (replace the link with a regular file or directory)`,
    )
}

/** Locked read-modify-write with an atomic replace (see the module contract). */
export async function updateFile(file: string, edit: Edit, opts: UpdateOptions = {}): Promise<UpdateResult> {
  // Refuse a link out of the project, a directory or an unreadable path before creating anything.
  refuseLinkOut(file, opts.within)
  readForEdit(file)
  refuseLockPath(file)
  const created = ensureParent(file, opts.dirMode)
  let release: (() => Promise<void>) | undefined
  let wrote = false
  try {
    release = await acquire(file, opts.lockWaitMs ?? 30_000)
    refuseLinkOut(file, opts.within)
    const before = readForEdit(file)
    const after = await edit(before)
    if (after === undefined || after === before) return { created: false, changed: false, before, after: before }
    // A created file is 0644 unless told (0600 for secrets), whatever the umask.
    if (opts.private) writePrivateFile(file, after)
    else replace(file, after, before !== undefined, opts.createMode)
    wrote = true
    return { created: before === undefined, changed: true, before, after }
  } finally {
    if (release) await release().catch(() => {})
    if (!wrote) undoParents(file, created)
  }
}

/** Atomic replace without a read (atomic.ts). */
export async function writeFileSafely(
  file: string,
  text: string,
  opts: Pick<UpdateOptions, 'createMode' | 'dirMode'> = {},
): Promise<void> {
  const before = readForEdit(file)
  const created = ensureParent(file, opts.dirMode)
  try {
    replace(file, text, before !== undefined, opts.createMode)
  } catch (err) {
    undoParents(file, created)
    throw err
  }
}
