/**
 * Ending a stdio server that never answered.
 *
 * The official client cannot be disposed while it is still activating (cordis
 * defers a loading fiber's teardown until its `apply` returns), and its
 * `initialize` request waits ~60 s for a server that never speaks MCP. To
 * make a timed-out mount let go promptly, `reapStdioChild` ends the direct
 * child of this process that runs exactly the mount's command, arguments and
 * cwd: SIGTERM, then SIGKILL after `graceMs` if it is still alive. The
 * client then sees its transport close, its activation settles, and the
 * deferred dispose completes. Linux only (/proc); elsewhere a hung server is
 * left to the client's own timeout. Never throws.
 *
 * @module
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs'

export interface StdioIdentity {
  command: string
  args?: readonly string[]
  cwd?: string
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
  const found: number[] = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid !== process.pid) continue
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (argv[argv.length - 1] === '') argv.pop()
      if (argv.length !== want.length || argv.some((a, i) => a !== want[i])) continue
      if (cwd !== undefined && readlinkSync(`/proc/${entry}/cwd`) !== cwd) continue
      found.push(Number(entry))
    } catch {}
  }
  return found
}

export function reapStdioChild(id: StdioIdentity, graceMs = 2000): number[] {
  const pids = findStdioChildren(id)
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM')
    } catch {}
    const timer = setTimeout(() => {
      try {
        process.kill(pid, 0)
        process.kill(pid, 'SIGKILL')
      } catch {}
    }, graceMs)
    timer.unref?.()
  }
  return pids
}
