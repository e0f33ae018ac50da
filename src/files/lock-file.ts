/**
 * The project's lock file on disk: `<root>/.dsh/mcp.lock`, read bounded (readBoundedText: no FIFO, no
 * device, at most 4 MiB) and parsed with the pure format (lock/format.ts: the schema and the canonical
 * text — the lock's own pure half), written through the one atomic writer (atomic.ts) in its canonical
 * text, mode 0644 (it is committed).
 *
 * Contract: `readLockFile(root)` never throws: `{ absent: true }`, `{ lock }` or `{ error }` (one line,
 * the file's problem or the field path). `writeLockFile(root, lock)` replaces the file atomically (a
 * reader sees the old lock or the new, never a part) and creates `.dsh/` when missing.
 *
 * @module
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { type LockFile, lockText, parseLock } from '../lock/format.ts'
import { replaceFile } from './atomic.ts'
import { readBoundedText } from './read.ts'

const MAX = 4 * 1024 * 1024

export function lockPathOf(root: string): string {
  return path.join(root, '.dsh', 'mcp.lock')
}

export function readLockFile(root: string): { absent: true } | { lock: LockFile } | { error: string } {
  const r = readBoundedText(lockPathOf(root), MAX)
  if ('absent' in r) return { absent: true }
  if ('failure' in r) return { error: r.failure.message }
  if (!('text' in r)) return { error: 'cannot be read' }
  return parseLock(r.text)
}

export function writeLockFile(root: string, lock: LockFile): void {
  mkdirSync(path.join(root, '.dsh'), { recursive: true })
  replaceFile(lockPathOf(root), lockText(lock), { mode: 0o644 })
}
