/**
 * A launched server's process tree, marked so that nothing escapes its end.
 *
 * Contract:
 * - Every tree the launcher starts carries `TREE_ENV=<id>` in its
 *   environment (`newTreeMarker()`: 24 random hex digits, secret-free). A
 *   helper inherits it through `fork`, `setsid`, a double fork or
 *   `detached: true` — all of which leave the server's process group.
 * - `markedPids(id)` (Linux: /proc) lists every process of this user whose
 *   environment holds `TREE_ENV=<id>` exactly, never this process. Elsewhere
 *   it is empty (the process group is the bound there).
 * - `signalTree({ group, marker }, signal)` signals the process group
 *   `group` (POSIX) and every marked process; `treeAlive` says whether any
 *   of them is alive. `endTree` sends SIGTERM, then SIGKILL after `graceMs`
 *   to what is still alive (and to what was marked meanwhile), resolving
 *   when nothing is left (at most `graceMs` after the SIGKILL). `killTreeNow` is the
 *   synchronous SIGKILL for a last resort. None of them throws.
 * - A process that clears its environment (`env -i`) and leaves the group
 *   is not found: a documented limit.
 *
 * The launcher imports this before it starts a server: node builtins only.
 *
 * @module
 */
import { randomBytes } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { listProcs, sendSignal as kill } from './procs.ts'
import { TREE_ENV } from './spec.ts'

export { TREE_ENV }

const POSIX = process.platform !== 'win32'
const LINUX = process.platform === 'linux'

export interface Tree {
  /** The process group the server leads (its pid), when it has one. */
  group?: number | undefined
  /** The tree's marker value. */
  marker?: string | undefined
}

export function newTreeMarker(): string {
  return randomBytes(12).toString('hex')
}

/** Processes of this user (not this one) whose environment holds `TREE_ENV=<id>`. */
export function markedPids(id: string | undefined): number[] {
  if (!LINUX || !id || !/^[0-9a-f]{8,64}$/.test(id)) return []
  const needle = `${TREE_ENV}=${id}\0`
  const uid = process.getuid?.()
  return listProcs((pid) => {
    if (pid === process.pid) return false
    if (uid !== undefined && statSync(`/proc/${pid}`).uid !== uid) return false
    const env = readFileSync(`/proc/${pid}/environ`, 'latin1')
    return env.startsWith(needle) || env.includes(`\0${needle}`)
  })
}

export function signalTree(tree: Tree, signal: NodeJS.Signals): void {
  if (POSIX && tree.group) kill(-tree.group, signal)
  for (const pid of markedPids(tree.marker)) kill(pid, signal)
}

export function treeAlive(tree: Tree): boolean {
  if (POSIX && tree.group && kill(-tree.group, 0)) return true
  return markedPids(tree.marker).length > 0
}

export function killTreeNow(tree: Tree): void {
  signalTree(tree, 'SIGKILL')
}

export function endTree(tree: Tree, graceMs: number, pollMs = 25): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!treeAlive(tree)) return resolve()
    signalTree(tree, 'SIGTERM')
    const started = Date.now()
    const tick = setInterval(() => {
      if (!treeAlive(tree)) {
        clearInterval(tick)
        resolve()
      } else if (Date.now() - started >= graceMs) {
        clearInterval(tick)
        signalTree(tree, 'SIGKILL')
        // SIGKILL is not instant: wait (bounded) until the kernel has taken them.
        const killed = Date.now()
        const after = setInterval(() => {
          if (!treeAlive(tree) || Date.now() - killed >= graceMs) {
            clearInterval(after)
            resolve()
          }
        }, pollMs)
      }
    }, pollMs)
  })
}
