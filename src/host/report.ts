/**
 * Reports: the runtime's state as the service's snapshot and as status files.
 *
 * Contract: `snapshot()` is every known project's rows (plan placements
 * joined with the live mounts and the registered tool counts) and the global
 * view, as of now. `write()` hands every known project's rows to the status
 * writer (which skips files whose rows did not change); `schedule()` does
 * the same from a microtask, once per burst, and never after `disposed()`.
 * `released(root)` writes a project this host no longer serves: every row it
 * would mount reads `idle`. `logPlacements()` warns once per row and reason
 * about rows that are skipped or invalid (untrusted rows are the trust
 * gate's to warn about) and forgets rows that recovered; a view whose
 * placements are the very array it already logged is not looked at again.
 * Nothing throws.
 *
 * @module
 */
import type { Lifecycle } from '../config/schema.ts'
import type { Placement, Plan } from '../plan/desired.ts'
import { ownership, toolsByKey } from '../plan/visibility.ts'
import type { Log } from './log.ts'
import type { LazyServers } from '../lazy/servers.ts'
import type { MountTable } from './mounts.ts'
import type { Projects } from './projects.ts'
import { type LazyView, type Snapshot, type StatusWriter, serverSnapshots } from './status.ts'
import type { VisibilityGuard } from './visibility.ts'

export interface ReportDeps {
  plan(): Plan
  projects: Projects
  mounts: MountTable
  /** Lazy servers: dormant ones own their cached tools and read `dormant`. */
  lazy: LazyServers
  /** The plugin's `defaultLifecycle`. */
  defaultLifecycle: Lifecycle
  visibility: VisibilityGuard
  status: StatusWriter
  log: Log
  disposed(): boolean
}

export interface Reports {
  /** Registered tools per mount key. */
  counts(): Map<string, number>
  snapshot(): Snapshot
  write(): void
  schedule(): void
  released(root: string): void
  logPlacements(): void
}

export function createReports(deps: ReportDeps): Reports {
  const { projects, mounts, lazy, visibility, status, log } = deps
  const lazyView: LazyView = {
    defaultLifecycle: deps.defaultLifecycle,
    info(key) {
      const s = lazy.get(key)
      return s && { dormant: s.state === 'dormant', source: s.source, lastUsedAt: s.lastUsedAt, error: s.error }
    },
  }

  const counts = () => {
    const out = new Map<string, number>()
    for (const [key, list] of toolsByKey(visibility.registered(), ownership(lazy.owners(mounts.owners())))) out.set(key, list.length)
    return out
  }

  const snapshot = (): Snapshot => {
    const plan = deps.plan()
    const tools = counts()
    return {
      projects: projects.list().map((p) => ({
        root: p.root,
        agents: p.agents.size,
        servers: serverSnapshots(plan.projects.get(p.root) ?? [], mounts.mounts, tools, lazyView),
      })),
      global: serverSnapshots(plan.global, mounts.mounts, tools, lazyView),
    }
  }

  const write = () => {
    for (const p of snapshot().projects) status.write(p.root, p.servers)
  }

  let queued = false
  const schedule = () => {
    if (queued || deps.disposed()) return
    queued = true
    queueMicrotask(() => {
      queued = false
      if (!deps.disposed()) write()
    })
  }

  const released = (root: string) => {
    const placements = deps.plan().projects.get(root)
    if (placements) status.write(root, serverSnapshots(placements, new Map(), new Map()))
  }

  /** Views already logged: a plan reuses the very array of a view that did not change (plan/memo.ts). */
  const logged = new WeakSet<readonly Placement[]>()
  const logPlacements = () => {
    const plan = deps.plan()
    const views: [string, readonly Placement[]][] = [['', plan.global], ...plan.projects]
    for (const [root, placements] of views) {
      if (logged.has(placements)) continue
      logged.add(placements)
      for (const p of placements) {
        // Terminated: `forget` takes a prefix, and server "s" must not re-arm "s1".
        const key = `skip:${root}\0${p.layer}\0${p.name}\0`
        if (p.want === 'skipped' || p.want === 'invalid') {
          log.once(key, 'warn', `skipped "${p.name}" (${p.layer}${root ? `, ${root}` : ''}): ${p.reason ?? p.want}`)
        } else log.forget(key)
      }
    }
  }

  return { counts, snapshot, write, schedule, released, logPlacements }
}
