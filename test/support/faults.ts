/**
 * Shared helpers for the reliability suite: unhandled-rejection capture, the
 * mounted view of a project (from `ctx.projectMcp.snapshot()`), waits on a
 * real host, CPU sampling of this process, and a seeded PRNG so a failing
 * storm can be replayed.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { after, before } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { mcpToolNames, PATIENCE_MS, waitFor } from './host.ts'
import { reapAll } from './procs.ts'
import { type RuntimeWorld, startWorld, type WorldOptions } from './runtime.ts'
import { cleanupAll } from './tmp.ts'

/** Collect every `unhandledRejection` until `stop()` (the listener also stops the default crash). */
export function trackRejections(): { list: unknown[]; stop(): void } {
  const list: unknown[] = []
  const on = (reason: unknown) => {
    list.push(reason)
  }
  process.on('unhandledRejection', on)
  return { list, stop: () => process.off('unhandledRejection', on) }
}

/**
 * One real host with the plugin for a whole test file (`before`), torn down in
 * `after` with every fixture reaped, and the file failing if any fault caused
 * an unhandled rejection. `started` receives the world once it is up.
 */
export function useFaultWorld(options: WorldOptions, started: (w: RuntimeWorld) => void): void {
  let w: RuntimeWorld | undefined
  const rejections = trackRejections()
  before(async () => {
    w = await startWorld(options)
    started(w)
  })
  after(async () => {
    if (w) {
      await w.dispose()
      reapAll(w.pids)
    }
    cleanupAll()
    rejections.stop()
    assert.deepEqual(rejections.list.map(String), [], 'no unhandled rejection')
  })
}

/** `name → state` of a project's rows, from the snapshot. */
export function statesOf(w: RuntimeWorld, root: string): Record<string, string> {
  const p = w.mcp.snapshot().projects.find((x) => x.root === root)
  return Object.fromEntries((p?.servers ?? []).map((s) => [s.name, s.state]))
}

/** Sorted names of a project's `mounted` rows. */
export function mountedOf(w: RuntimeWorld, root: string): string[] {
  const p = w.mcp.snapshot().projects.find((x) => x.root === root)
  return (p?.servers ?? [])
    .filter((s) => s.state === 'mounted')
    .map((s) => s.name)
    .sort()
}

/** Wait until `agent` sees exactly `want` (sorted MCP tool names); re-checked on every `tools/change`. */
export function untilTools(
  w: RuntimeWorld,
  agent: Agent,
  want: readonly string[],
  message: string,
  timeoutMs = PATIENCE_MS,
): Promise<true> {
  const target = JSON.stringify([...want].sort())
  return waitFor(() => JSON.stringify(mcpToolNames(w.host.ctx, agent)) === target || undefined, {
    ctx: w.host.ctx,
    events: ['tools/change'],
    timeoutMs,
    message: `${message} (want ${target}, have ${JSON.stringify(mcpToolNames(w.host.ctx, agent))})`,
  })
}

/** mulberry32: a tiny seeded PRNG in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** CPU time (user + system, ms) of a process from /proc (this process by default). */
export function cpuMsOf(pid: number | 'self' = 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return (ticks * 1000) / 100
}

/** Inotify watches held by this process (sum of `inotify wd:` lines over every inotify fd). */
export function inotifyWatches(): number {
  let n = 0
  for (const fd of readdirSafe('/proc/self/fdinfo')) {
    let info: string
    try {
      info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
    } catch {
      continue
    }
    for (const line of info.split('\n')) if (line.startsWith('inotify wd:')) n++
  }
  return n
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** Run `fn` and measure how long it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now()
  const value = await fn()
  return { value, ms: performance.now() - t0 }
}

/** Pids of this process's live direct children (from /proc). */
export function childPids(): number[] {
  const out: number[] = []
  for (const entry of readdirSafe('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z') out.push(Number(entry))
    } catch {}
  }
  return out.sort((a, b) => a - b)
}
