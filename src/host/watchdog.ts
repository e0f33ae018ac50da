/**
 * The host's side of its watchdog (launch/watchdog.ts): the stdio trees this host started, told to one
 * small process that ends them if the host is killed outright. One process per host, started with the
 * first tree (not before: a host with no stdio server starts none), never per server.
 *
 * Contract: `watchdog().watch(tree)` lists a started tree (its process group and marker),
 * `forget(tree)` unlists it once nothing of it is left. The watchdog runs on this process's node,
 * detached, with an empty environment (it needs nothing, and carries no tree's marker), stdin a pipe
 * only this process holds, stdout and stderr ignored; it keeps neither the host's event loop nor its
 * exit waiting. If it dies, the next `watch` starts another and lists every tree still running. If it
 * cannot start, trees are still ended by the host (dispose, unmount, reap, the server's exit): only the
 * host-killed case goes unguarded. POSIX only (elsewhere a no-op). Never throws.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process'
import type { Writable } from 'node:stream'
import type { Tree } from '../launch/tree.ts'
import { watchdogScript } from '../launch/where.ts'

export interface Watchdog {
  watch(tree: Tree): void
  forget(tree: Tree): void
  /** The watchdog's pid, while one runs (tests, the bench). */
  readonly pid: number | undefined
}

const POSIX = process.platform !== 'win32'
const live = new Set<string>()
let proc: ChildProcess | undefined

const lineOf = (op: '+' | '-', t: Tree) => `${op}${t.group ?? '-'} ${t.marker}\n`

function send(text: string): void {
  try {
    proc?.stdin?.write(text)
  } catch {
    // a watchdog gone meanwhile: the next watch starts another
  }
}

function ensure(): void {
  if (proc || !POSIX) return
  try {
    const child = spawn(process.execPath, [watchdogScript()], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {},
      windowsHide: true,
    })
    proc = child
    child.on('error', () => {
      if (proc === child) proc = undefined
    })
    child.on('exit', () => {
      if (proc === child) proc = undefined
    })
    child.stdin?.on('error', () => {})
    child.unref()
    ;(child.stdin as (Writable & { unref?: () => void }) | null)?.unref?.()
    if (live.size > 0) send([...live].join(''))
  } catch {
    proc = undefined
  }
}

const dog: Watchdog = {
  watch(tree) {
    if (!tree.marker) return
    const line = lineOf('+', tree)
    live.add(line)
    if (!proc) ensure()
    else send(line)
  },
  forget(tree) {
    if (!tree.marker) return
    if (!live.delete(lineOf('+', tree))) return
    send(lineOf('-', tree))
  },
  get pid() {
    return proc?.pid
  },
}

export function watchdog(): Watchdog {
  return dog
}
