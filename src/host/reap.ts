/**
 * Ending a stdio server that never answered.
 *
 * The official client cannot be disposed while it is still activating (cordis
 * defers a loading fiber's teardown until its `apply` returns), and its
 * `initialize` request waits ~60 s for a server that never speaks MCP. To
 * make a timed-out mount let go promptly, `reapStdioChild` ends the mount's
 * server: every process carrying the mount's tree marker (launch/tree.ts:
 * the server this process started itself — host/stdio-hook.ts — and any
 * `setsid` or double-forked helper) and the process group each marked group
 * leader leads (a helper that ignores SIGTERM in the server's group), and,
 * when stdio servers start through the launcher process (the hook could not
 * be installed), the direct child of this process that runs exactly the
 * mount's command, arguments and cwd (that launcher) and the process groups
 * led by its children — all noted before anything is signalled, then
 * SIGTERM, then SIGKILL after `graceMs` if still alive.
 * The client then sees its transport close, its activation settles, and the
 * deferred dispose completes. Linux only (/proc); elsewhere a hung server is
 * left to the client's own timeout. Never throws.
 *
 * @module
 */
import { readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { listProcs, procStat, sendSignal } from '../launch/procs.ts'
import { markedPids, TREE_ENV } from '../launch/tree.ts'

export interface StdioIdentity {
  command: string
  args?: readonly string[] | undefined
  cwd?: string | undefined
  /** The launched env: its `TREE_ENV` marks every process of the server's tree. */
  env?: Readonly<Record<string, string>> | undefined
}

/** Process groups led by children of `parents` (the launcher starts each server as a group leader). */
function groupsLedByChildrenOf(parents: readonly number[]): number[] {
  return listProcs((pid) => {
    const st = procStat(pid)
    return parents.includes(st.ppid) && st.pgid === pid
  })
}

/** Pids of direct children of this process that run `id`. */
function findStdioChildren(id: StdioIdentity): number[] {
  if (process.platform !== 'linux') return []
  const want = [id.command, ...(id.args ?? [])]
  let cwd: string | undefined
  try {
    cwd = id.cwd ? realpathSync(id.cwd) : undefined
  } catch {
    cwd = id.cwd
  }
  return listProcs((pid) => {
    if (procStat(pid).ppid !== process.pid) return false
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    if (argv[argv.length - 1] === '') argv.pop()
    if (argv.length !== want.length || argv.some((a, i) => a !== want[i])) return false
    return cwd === undefined || readlinkSync(`/proc/${pid}/cwd`) === cwd
  })
}

/** Of `pids`, those that lead their own process group (a server started in this process: stdio-hook.ts). */
function groupLeaders(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      return procStat(pid).pgid === pid
    } catch {
      return false
    }
  })
}

export function reapStdioChild(id: StdioIdentity, graceMs = 2000): number[] {
  const pids = findStdioChildren(id)
  const marker = id.env?.[TREE_ENV]
  const marked = markedPids(marker)
  const groups = [...new Set([...groupsLedByChildrenOf(pids), ...groupLeaders(marked)])]
  const targets = [...pids, ...groups.map((g) => -g), ...marked]
  for (const t of targets) sendSignal(t, 'SIGTERM')
  if (targets.length > 0) {
    const timer = setTimeout(() => {
      for (const t of targets) sendSignal(t, 'SIGKILL')
      // Marked meanwhile (forked after the first look, or out of the group): no later chance.
      for (const pid of markedPids(marker)) sendSignal(pid, 'SIGKILL')
    }, graceMs)
    timer.unref?.()
  }
  return pids
}
