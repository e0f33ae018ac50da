/**
 * Kernel-side count of this process's inotify watches: every
 * `anon_inode:inotify` descriptor in `/proc/self/fd`, and the `inotify wd:`
 * lines of its `/proc/self/fdinfo` entry (one per watched inode).
 *
 * Contract: Linux only; elsewhere `inotifyWatches()` returns `null` and the
 * callers fall back to the watcher's own view of what it watches.
 *
 * @module
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** Number of inotify watches this process holds right now, or `null` without /proc. */
export function inotifyWatches(): number | null {
  let fds: string[]
  try {
    fds = readdirSync('/proc/self/fd')
  } catch {
    return null
  }
  let count = 0
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue
      const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
      for (const line of info.split('\n')) if (line.startsWith('inotify wd:')) count++
    } catch {
      // The descriptor closed between the listing and the read: it holds no watch now.
    }
  }
  return count
}

/** Resolve once the watch count is back to `baseline` (closing is asynchronous), or after `timeoutMs`. */
export async function settleTo(baseline: number | null, timeoutMs = 5_000): Promise<number | null> {
  const deadline = performance.now() + timeoutMs
  let now = inotifyWatches()
  while (now !== baseline && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    now = inotifyWatches()
  }
  return now
}
