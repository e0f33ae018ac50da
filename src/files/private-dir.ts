/**
 * Private directories and files under `$DSH_HOME`: the one place that creates
 * `$DSH_HOME`, `mcp-status/`, `mcp-logs/`, `mcp-cache/` and writes the files
 * in them.
 *
 * Contract:
 * - `ensurePrivateDir(dir, { base })` creates `dir` (and missing parents up
 *   to `base`) with mode 0700 whatever the umask (chmod after mkdir), and
 *   returns `dir`. An existing directory is accepted only when it is a real
 *   directory (a directory below `base` may not be a symbolic link; `base`
 *   itself may be one, judged by its target), owned by this user, and not
 *   writable by others or by a group other than the user's primary group
 *   (`writableBy`); a directory below `base` that this user owns with looser
 *   bits than 0700 is tightened to 0700. Anything else throws a
 *   `PrivateDirError` naming the path, why, and how to repair it.
 * - `writePrivateFile(file, text)` replaces `file` atomically with mode 0600
 *   (atomic.ts: an unpredictable temp name created O_EXCL|O_NOFOLLOW, fsync,
 *   rename, directory fsync). Rename replaces a symbolic link planted at
 *   `file` and never writes through it. The directory is checked by
 *   `ensurePrivateDir` first.
 * - `openPrivateAppend(file)` opens `file` for appending (O_APPEND|O_CREAT|
 *   O_NOFOLLOW, mode 0600), refuses a link, a non-regular file or a file
 *   owned by another user, chmods it to 0600 and returns the fd.
 * - `ensureHomeDir(dshHome, "logs")` is the shorthand for a named
 *   sub-directory of `$DSH_HOME` (`PRIVATE_DIRS`).
 * - `ownedByOther(st)` / `writableBy(st)` / `uid()` are the ownership
 *   primitives the readers share (no uid on Windows: nothing is "another user's").
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
} from 'node:fs'
import path from 'node:path'
import { replaceFile } from './atomic.ts'

export class PrivateDirError extends Error {
  readonly path: string
  constructor(p: string, message: string) {
    super(`${p}: ${message}`)
    this.name = 'PrivateDirError'
    this.path = p
  }
}

/** Names of the private directories under `$DSH_HOME`. */
export const PRIVATE_DIRS = {
  status: 'mcp-status',
  logs: 'mcp-logs',
  cache: 'mcp-cache',
  review: 'mcp-tool-review',
} as const

const NOFOLLOW = constants.O_NOFOLLOW ?? 0

/** This process's uid, or undefined where there is none (Windows). */
export function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined
}

/** Whether `st` belongs to a user other than this process's (never on Windows). */
export function ownedByOther(st: Pick<Stats, 'uid'>): boolean {
  const me = uid()
  return me !== undefined && st.uid !== me
}

/**
 * Who besides the owner can write `st`: every user, or a group that is not
 * this user's own primary group (with user-private groups and umask 002,
 * every file is group-writable by the user's own group: that is accepted).
 */
export function writableBy(st: Pick<Stats, 'mode' | 'gid'>): string | undefined {
  if ((st.mode & 0o002) !== 0) return 'every user'
  const gid = typeof process.getgid === 'function' ? process.getgid() : undefined
  if ((st.mode & 0o020) !== 0 && gid !== undefined && st.gid !== gid) return `its group (gid ${st.gid})`
  return undefined
}

function owner(st: Pick<Stats, 'uid'>): string {
  return `uid ${st.uid}`
}

function check(dir: string, st: Stats, below: boolean): void {
  if (!st.isDirectory()) throw new PrivateDirError(dir, 'is not a directory')
  if (ownedByOther(st))
    throw new PrivateDirError(
      dir,
      `is owned by another user (${owner(st)}); remove it or point DSH_HOME at a directory you own`,
    )
  if (below) {
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700)
    return
  }
  const w = writableBy(st)
  if (w) throw new PrivateDirError(dir, `is writable by ${w}; run chmod go-w ${dir}`)
}

/** Create or accept a private directory (see the module contract). `base` defaults to `dir`. */
export function ensurePrivateDir(dir: string, opts: { base?: string } = {}): string {
  const target = path.resolve(dir)
  const base = path.resolve(opts.base ?? dir)
  const chain: string[] = []
  for (let d = target; ; d = path.dirname(d)) {
    chain.unshift(d)
    if (d === base || path.dirname(d) === d) break
  }
  if (chain[0] !== base) throw new PrivateDirError(target, `is not inside ${base}`)
  for (const d of chain) {
    const isBase = d === base
    let st: Stats | undefined
    try {
      st = isBase ? statSync(d) : lstatSync(d)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new PrivateDirError(d, `cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
    }
    if (st === undefined) {
      try {
        mkdirSync(d, { recursive: isBase, mode: 0o700 })
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new PrivateDirError(d, `cannot be created: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
      }
      st = isBase ? statSync(d) : lstatSync(d)
      if (st.isDirectory() && !ownedByOther(st)) chmodSync(d, 0o700)
      st = isBase ? statSync(d) : lstatSync(d)
    }
    if (st.isSymbolicLink())
      throw new PrivateDirError(d, 'is a symbolic link; remove it (dsh-mcp creates this directory itself)')
    check(d, st, !isBase)
  }
  return target
}

/** Atomically replace `file` with `text`, mode 0600, never through a link (see the module contract). */
export function writePrivateFile(file: string, text: string): void {
  replaceFile(file, text, { mode: 0o600 })
}

/** Open `file` for appending, mode 0600, refusing links and other users' files; returns the fd. */
export function openPrivateAppend(file: string): number {
  let fd: number
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW, 0o600)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ELOOP' || code === 'EMLINK') throw new PrivateDirError(file, 'is a symbolic link; remove it')
    throw new PrivateDirError(file, `cannot be opened: ${code ?? String(err)}`)
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new PrivateDirError(file, 'is not a regular file')
    if (ownedByOther(st)) throw new PrivateDirError(file, `is owned by another user (${owner(st)}); remove it`)
    if (st.nlink > 1) throw new PrivateDirError(file, 'has other hard links; remove it')
    fchmodSync(fd, 0o600)
    return fd
  } catch (err) {
    closeSync(fd)
    throw err
  }
}

/** `ensurePrivateDir($DSH_HOME/<mcp-status|mcp-logs|mcp-cache>, { base: $DSH_HOME })`: the directory's path. */
export function ensureHomeDir(dshHome: string, which: keyof typeof PRIVATE_DIRS): string {
  return ensurePrivateDir(path.join(dshHome, PRIVATE_DIRS[which]), { base: dshHome })
}
