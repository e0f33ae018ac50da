/**
 * Child-process bookkeeping for the MCP fixtures (`--pidfile-dir`): each live
 * fixture writes `<dir>/<pid>` and removes it on a clean exit. A pidfile whose
 * pid is no longer alive is a fixture that died by SIGKILL (or crashed hard).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'

/** Whether a process with this pid exists (signal 0 probe; EPERM counts as alive). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Every pid with a pidfile in `dir` (alive or not), ascending. */
export function pidfilePids(dir: string): number[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => /^\d+$/.test(f))
    .map(Number)
    .sort((a, b) => a - b)
}

/** Pids with a pidfile in `dir` that are still alive. */
export function livePids(dir: string): number[] {
  return pidfilePids(dir).filter(isAlive)
}

/** Number of live fixture processes recorded in `dir`. */
export function countLive(dir: string): number {
  return livePids(dir).length
}

/** Kill (SIGKILL) every live pid recorded in `dir` — a last-resort reaper for `after()` hooks. */
export function reapAll(dir: string): number[] {
  const killed: number[] = []
  for (const pid of livePids(dir)) {
    try {
      process.kill(pid, 'SIGKILL')
      killed.push(pid)
    } catch {}
  }
  return killed
}

/** Pids listed in a `--marker` file (`<pid> start` lines), in spawn order. */
export function markerPids(content: string): number[] {
  return content
    .split('\n')
    .map((line) => /^(\d+) start$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
}

/** Pids recorded in a `--marker` file; a missing file reads as `[]` (never spawned). */
export function readMarker(file: string): number[] {
  if (!existsSync(file)) return []
  return markerPids(readFileSync(file, 'utf8'))
}

/** Live (not zombie) pids, other than this process, whose argv or environment holds `tag` (Linux /proc). */
export function taggedPids(tag: string): number[] {
  const out: number[] = []
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'latin1')
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue
      const text = readFileSync(`/proc/${e}/cmdline`, 'latin1') + readFileSync(`/proc/${e}/environ`, 'latin1')
      if (text.includes(tag)) out.push(Number(e))
    } catch {}
  }
  return out
}

/** SIGKILL every process `taggedPids(tag)` finds (clean-up after a test that failed). */
export function killTagged(tag: string): void {
  for (const pid of taggedPids(tag)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
}

/** Live members of a process group (Linux /proc); a zombie is gone (a reparented one may never be reaped in a container). */
export function liveInGroup(group: number): number[] {
  const found: number[] = []
  for (const entry of existsSync('/proc') ? readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z' && Number(fields[2]) === group) found.push(Number(entry))
    } catch {
      // gone while read
    }
  }
  return found
}

/** Alive and not a zombie (a zombie is gone, only not yet reaped; Linux /proc). */
export function aliveNotZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
