/**
 * The project's lock file on disk: `<root>/.dsh/mcp.lock`, read bounded (opened without following a
 * link and without waiting: a link, a FIFO, a device, a directory or more than 4 MiB is refused unread;
 * not through read.ts, which loads the config parser the launcher must not pay for) and parsed with the pure format (lock/format.ts: the schema and the canonical
 * text — the lock's own pure half), written through the one atomic writer (atomic.ts) in its canonical
 * text, mode 0644 (it is committed).
 *
 * Contract: `readLockFile(root)` never throws: `{ absent: true }`, `{ lock }` or `{ error }` (one line,
 * the file's problem or the field path). `writeLockFile(root, lock)` replaces the file atomically (a
 * reader sees the old lock or the new, never a part) and creates `.dsh/` when missing.
 *
 * @module
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { type LockFile, lockText, parseLock } from '../lock/format.ts'
import { replaceFile } from './atomic.ts'

const MAX = 4 * 1024 * 1024

export function lockPathOf(root: string): string {
  return path.join(root, '.dsh', 'mcp.lock')
}

export function readLockFile(root: string): { absent: true } | { lock: LockFile } | { error: string } {
  let fd: number
  try {
    fd = openSync(lockPathOf(root), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { absent: true }
    return { error: code === 'ELOOP' ? 'is a symbolic link; refused' : `cannot be read: ${code ?? 'error'}` }
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) return { error: 'is not a regular file' }
    if (st.size > MAX) return { error: `is larger than ${MAX / 1024 / 1024} MiB` }
    return parseLock(readFileSync(fd, 'utf8'))
  } catch (e) {
    return { error: `cannot be read: ${(e as NodeJS.ErrnoException).code ?? 'error'}` }
  } finally {
    closeSync(fd)
  }
}

export function writeLockFile(root: string, lock: LockFile): void {
  mkdirSync(path.join(root, '.dsh'), { recursive: true })
  replaceFile(lockPathOf(root), lockText(lock), { mode: 0o644 })
}
