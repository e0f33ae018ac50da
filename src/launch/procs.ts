/**
 * This machine's processes as /proc shows them (Linux), and signalling one.
 *
 * Contract:
 * - `listProcs(pick)` calls `pick(pid)` for every process in /proc and
 *   returns the pids it kept. A process that ends while `pick` reads it (a
 *   read throws) is skipped; an unreadable /proc, or a platform without one,
 *   lists nothing.
 * - `procStat(pid)` is a process's parent and process group, from
 *   `/proc/<pid>/stat` (it throws when the process is gone).
 * - `sendSignal(target, signal)` signals a pid (or, negative, a process
 *   group) and says whether it was delivered; it never throws (a process
 *   already gone, or not ours to signal, is not an error here).
 *
 * The launcher imports this before it starts a server: node builtins only.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcStat {
  ppid: number
  pgid: number
}

export function listProcs(pick: (pid: number) => boolean): number[] {
  if (process.platform !== 'linux') return []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    // No /proc to read (a container without it): there is nothing to list.
    return []
  }
  const found: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (pick(Number(entry))) found.push(Number(entry))
    } catch {
      // The process ended while being read: skipped.
    }
  }
  return found
}

export function procStat(pid: number): ProcStat {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The command name (in parentheses) may hold spaces and `)`: the fields start after the last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { ppid: Number(fields[1]), pgid: Number(fields[2]) }
}

export function sendSignal(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal)
    return true
  } catch {
    // ESRCH (gone) or EPERM (not ours): not delivered.
    return false
  }
}
