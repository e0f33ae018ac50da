/**
 * What may sit at a writer's lock path.
 *
 * Writers lock `<file>` with proper-lockfile, whose lock is the directory
 * `<file>.lock`, made with `mkdir` and judged (held, stale) through `stat`,
 * which follows links. A symbolic link planted there — to a directory, to
 * `/dev/null`, to a file elsewhere, or dangling — would make a writer wait
 * for a lock no one holds, or fail with a bare errno.
 *
 * Contract: `lockPathProblem(file)` says, in one line naming the lock path
 * and (for a link) its target, why `<file>.lock` cannot be a lock: it is a
 * symbolic link (never followed: only `lstat` and `readlink` touch it),
 * something other than a directory, or a directory holding files (a lock is
 * an empty one: a checkout can commit a full one, which a writer would wait
 * on for 30 s and then fail to take over); `undefined` when it is absent or
 * an empty directory (another writer's lock, or a stale one proper-lockfile
 * takes over). It never changes the file system. Node builtins only (the trust
 * store calls it before it loads the lock library).
 *
 * @module
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs'

export function lockPathFor(file: string): string {
  return `${file}.lock`
}

export function lockPathProblem(file: string): string | undefined {
  const lock = lockPathFor(file)
  let st: ReturnType<typeof lstatSync>
  try {
    st = lstatSync(lock)
  } catch {
    return undefined
  }
  if (st.isSymbolicLink()) {
    let target = '?'
    try {
      target = readlinkSync(lock)
    } catch {
      // gone since the lstat: the message still names the link
    }
    return `its lock ${lock} is a symbolic link to ${target}; dsh-mcp never follows a link at its lock: remove the link (rm '${lock}') and try again`
  }
  if (!st.isDirectory())
    return `its lock ${lock} is not a lock directory (something else was put there); remove it and try again`
  // A lock is an empty directory: one holding files was put there (a checkout can commit one), and waiting on it
  // would time out only to fail on removing it.
  let entries = 0
  try {
    entries = readdirSync(lock).length
  } catch {
    // gone since the lstat (a writer released it): nothing to refuse
  }
  if (entries > 0)
    return `its lock ${lock} is a directory holding files, not a lock (one was committed or put there); remove it and try again`
  return undefined
}
