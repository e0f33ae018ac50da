/**
 * Reports: the runtime's state as the service's snapshot and as status files.
 *
 * Contract: `snapshot()` is every known project's rows (plan placements
 * joined with the live mounts and the registered tool counts) and the global
 * view, as of now. `write()` hands every known project's rows to the status
 * writer (which skips files whose rows did not change); `schedule()` does
 * the same from a microtask, once per burst, and never after `disposed()`.
 * `released(root)` writes a project this host no longer serves: every row it
 * would mount reads `idle`. `stopped()` writes every known project — and
 * every project released in this host run — as a host that shut down leaves
 * it (`host: "stopped"`, every row it would mount reads `stopped`). Each
 * project's refused config files go with its rows. `explained(root)` is why
 * the view's servers that do not run do not (explain.ts), as of now;
 * `web(current)` is the same for the `dsh web` panel (web.ts), and `onWrite`
 * listeners hear of every status write. `logPlacements()` warns once per row and reason
 * about rows that are skipped or invalid (untrusted rows are the trust
 * gate's to warn about) and forgets rows that recovered; a view whose
 * placements are the very array it already logged is not looked at again.
 * With the context budget on (`budget`), each status write and panel view
 * carries the project's numbers: per server its tools and schema tokens, per
 * agent how many tools are offered and deferred.
 * Nothing throws.
 *
 * @module
 */
import type { Lifecycle } from '../config/schema.ts'
import type { Placement, Plan } from '../plan/desired.ts'
import { explainProject } from './explain.ts'
import { ownership, toolsByKey } from '../plan/visibility.ts'
import type { Log } from './log.ts'
import type { RowDetail } from '../plan/states.ts'
import type { LazyServers } from '../lazy/servers.ts'
import type { MountTable } from './mounts.ts'
import type { Projects } from './projects.ts'
import { type LazyView, type Snapshot, type StatusWriter, serverSnapshots } from './status.ts'
import type { StatusBudget } from '../status/format.ts'
import type { Explained } from './tell.ts'
import { type WebView, webProject } from './web.ts'
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
  /** A running row's detail (host/tool-pins.ts `detail`). */
  detail?(root: string, name: string): RowDetail | null
  /** The context budget (host/budget.ts), when on: its numbers go into the status files and the panel. */
  budget?: BudgetNumbers
}

/** What the reports read of the context budget. */
export interface BudgetNumbers {
  toolBudget: number
  tokensOf(name: string): number
  agents(): readonly {
    root: string | null
    offered: number
    deferred: number
    offeredTokens: number
    totalTokens: number
  }[]
}

export interface Reports {
  /** Registered tools per mount key. */
  counts(): Map<string, number>
  snapshot(): Snapshot
  write(): void
  schedule(): void
  released(root: string): void
  stopped(): void
  /** Why the servers of `root`'s view (null: the global view) that do not run do not, as of now. */
  explained(root: string | null): Explained
  /** The `dsh web` panel's view: `current` (the session's project) first, then every other known project. */
  web(current: string | null): WebView
  /** Called after every status write (and the stopped one); returns the unsubscribe. */
  onWrite(listener: () => void): () => void
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

  /** The live snapshot options of project `root`'s rows. */
  const live = (root: string) => ({
    lazy: lazyView,
    detail: (name: string) => deps.detail?.(root, name) ?? null,
  })

  const counts = () => {
    const out = new Map<string, number>()
    for (const [key, list] of toolsByKey(visibility.registered(), ownership(lazy.owners(mounts.owners()))))
      out.set(key, list.length)
    return out
  }

  const snapshot = (): Snapshot => {
    const plan = deps.plan()
    const tools = counts()
    return {
      projects: projects.list().map((p) => ({
        root: p.root,
        agents: p.agents.size,
        servers: serverSnapshots(plan.projects.get(p.root) ?? [], mounts.mounts, tools, live(p.root)),
        files: projects.refused(p.root),
      })),
      global: serverSnapshots(plan.global, mounts.mounts, tools, { lazy: lazyView }),
    }
  }

  const listeners = new Set<() => void>()
  const changed = () => {
    for (const l of listeners) {
      try {
        l()
      } catch (error) {
        log.debug('status listener failed: %s', String(error))
      }
    }
  }

  /** A project's budget numbers: per server (its row name) tools and schema tokens, per agent offered vs deferred. */
  const budgetOf = (root: string): StatusBudget | undefined => {
    const b = deps.budget
    if (!b || b.toolBudget <= 0) return undefined
    const byKey = toolsByKey(visibility.registered(), ownership(lazy.owners(mounts.owners())))
    const servers = (deps.plan().projects.get(root) ?? []).flatMap((p) => {
      const names = p.key && p.verdict.tag === 'runs' ? byKey.get(p.key) : undefined
      return names ? [{ name: p.name, tools: names.length, tokens: names.reduce((n, t) => n + b.tokensOf(t), 0) }] : []
    })
    const agents = b
      .agents()
      .filter((a) => a.root === root)
      .map(({ offered, deferred, offeredTokens, totalTokens }) => ({ offered, deferred, offeredTokens, totalTokens }))
    return { toolBudget: b.toolBudget, servers, agents }
  }

  const write = () => {
    for (const p of snapshot().projects) status.write(p.root, p.servers, p.files, 'running', budgetOf(p.root))
    changed()
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

  /** Projects released in this host run, with their rows then: their files, too, say `stopped` when the host stops. */
  const releasedRows = new Map<string, readonly Placement[]>()
  const released = (root: string) => {
    const placements = deps.plan().projects.get(root)
    if (!placements) return
    releasedRows.set(root, placements)
    status.write(root, serverSnapshots(placements, new Map(), new Map(), { serving: 'released' }))
  }

  const stopped = () => {
    const plan = deps.plan()
    const known = projects.list()
    for (const p of known)
      status.write(
        p.root,
        serverSnapshots(plan.projects.get(p.root) ?? [], new Map(), new Map(), { serving: 'stopped' }),
        projects.refused(p.root),
        'stopped',
      )
    for (const [root, placements] of releasedRows) {
      if (!known.some((p) => p.root === root))
        status.write(root, serverSnapshots(placements, new Map(), new Map(), { serving: 'stopped' }), [], 'stopped')
    }
    changed()
  }

  const web = (current: string | null): WebView => {
    const plan = deps.plan()
    const tools = counts()
    const list = projects.list().sort((a, b) => Number(b.root === current) - Number(a.root === current))
    return {
      current,
      projects: list.map((p) => {
        const placements = plan.projects.get(p.root) ?? []
        return webProject(
          p.root,
          p.agents.size,
          placements,
          serverSnapshots(placements, mounts.mounts, tools, live(p.root)),
          projects.refused(p.root),
          budgetOf(p.root),
        )
      }),
    }
  }

  const onWrite = (listener: () => void) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }

  const explained = (root: string | null): Explained => {
    const plan = deps.plan()
    const placements = root === null ? plan.global : (plan.projects.get(root) ?? plan.global)
    const rows = serverSnapshots(
      placements,
      mounts.mounts,
      counts(),
      root === null || !plan.projects.has(root) ? { lazy: lazyView } : live(root),
    )
    const active = placements.filter((p) => p.verdict.tag !== 'disabled' && p.verdict.tag !== 'shadowed').length
    return {
      root,
      active,
      reasons: explainProject(root, placements, rows, root === null ? [] : projects.refused(root)),
    }
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
        if (p.verdict.tag === 'skipped' || p.verdict.tag === 'refused') {
          const why = p.verdict.reason ?? p.verdict.tag
          log.once(key, 'warn', `skipped "${p.name}" (${p.layer}${root ? `, ${root}` : ''}): ${why}`)
        } else log.forget(key)
      }
    }
  }

  return { counts, snapshot, write, schedule, released, stopped, explained, web, onWrite, logPlacements }
}
