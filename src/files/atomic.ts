/**
 * The one atomic file writer: every config file, `.dsh/.gitignore`,
 * `mcp.schema.json`, `export -o`, the trust store, status and cache files.
 *
 * Contract: `replaceFile(file, text, { mode })` replaces `file` with `text`
 * so that a reader (or a process killed at any instant) sees the old
 * content or the new, never a truncated file:
 * - the temp file is `.<name>.<pid>.<12 random hex>.tmp` in `file`'s
 *   directory, created with O_CREAT|O_EXCL|O_NOFOLLOW (mode 0600 until the
 *   final mode is set): a name a repository cannot predict, and an open that
 *   fails — never writes through — on anything planted there (a link, a
 *   file). A planted name collision (EEXIST) retries with a fresh name.
 * - the data is written and fsynced, the mode set with fchmod (`mode`,
 *   whatever the umask), the owner with fchown when `owner` is given and
 *   differs (only root can), then the temp file is renamed over `file` and
 *   the directory fsynced (where the platform allows it).
 * - rename replaces `file` itself: a symbolic link at `file` is replaced,
 *   never followed. A caller that means to write a link's target resolves it
 *   first (`write.ts`, for links inside the project).
 * - on any error the temp file is removed and the error thrown; `file` is
 *   untouched.
 *
 * Why not write-file-atomic: its temp name is `<file>.<murmurhash of
 * __filename, pid, thread, invocation>`, opened without O_EXCL/O_NOFOLLOW,
 * so a repository could plant a link at every name a run can use and have
 * `dsh-mcp add` write through it outside the repository.
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'

const NOFOLLOW = constants.O_NOFOLLOW ?? 0
const ATTEMPTS = 8

export interface ReplaceOptions {
  /** The file's mode (permission bits), set whatever the umask. */
  mode: number
  /** Keep this owner (an existing file's); applied only when it differs from the process's own. */
  owner?: { uid: number; gid: number }
}

/** A fresh unpredictable temp path next to `file`. */
export function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
}

function openTemp(file: string): { fd: number; tmp: string } {
  for (let i = 1; ; i++) {
    const tmp = tempPathFor(file)
    try {
      return { fd: openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600), tmp }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i >= ATTEMPTS) throw err
    }
  }
}

function fsyncDir(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0))
    fsyncSync(fd)
  } catch {
    // Not every platform can open or fsync a directory (Windows): the rename stands.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Replace `file` atomically with `text` (see the module contract). */
export function replaceFile(file: string, text: string | Uint8Array, opts: ReplaceOptions): void {
  const { fd, tmp } = openTemp(file)
  let closed = false
  let renamed = false
  try {
    const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text
    let off = 0
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off)
    fchmodSync(fd, opts.mode)
    const me = typeof process.getuid === 'function' ? process.getuid() : undefined
    if (
      opts.owner &&
      me !== undefined &&
      (opts.owner.uid !== me || (typeof process.getgid === 'function' && opts.owner.gid !== process.getgid()))
    ) {
      try {
        fchownSync(fd, opts.owner.uid, opts.owner.gid)
      } catch {
        // Only root may give a file away; others keep the file as theirs (as any editor would).
      }
    }
    fsyncSync(fd)
    closeSync(fd)
    closed = true
    renameSync(tmp, file)
    renamed = true
  } finally {
    if (!closed) {
      try {
        closeSync(fd)
      } catch {}
    }
    if (!renamed) {
      try {
        unlinkSync(tmp)
      } catch {}
    }
  }
  fsyncDir(path.dirname(file))
}
