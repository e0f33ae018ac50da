/**
 * Mounts: one official `dsh-mcp-client` fork per effective server.
 *
 * Contract: `mount` validates the config against the official `Config`, and
 * refuses a field or transport the host's Config does not have (see
 * client-shape.ts; never dropped in silence) — a rejection marks the mount
 * failed, nothing throws to the caller — then forks
 * `ctx.plugin(mcpClient, config)` and returns at once; the mount settles as
 * `mounted` when the fork activates, or `failed` when it rejects or does not
 * activate within its bound (the entry's `startupTimeoutMs`, else the
 * plugin's `mountTimeoutMs`) — then its fork is disposed in the
 * background. `unmount` forgets the mount at once and disposes its fork in
 * the background; until that dispose resolves the fork's name stays *held*
 * (the official client still reserves it) and its tools belong to nobody.
 * A hung dispose therefore never blocks a caller; the stdio server of a
 * timed-out mount, or of one unmounted while still mounting, is ended (see
 * reap.ts) so its fork can let go. Every log record of a fork is redacted
 * in place before any exporter sees it (client-log.ts); connection errors
 * the official client only logs are picked up from those records (by
 * fiber) as `lastError`. A stdio
 * server is mounted through our launcher (launch.ts: stderr logged redacted,
 * its process group ended with it). A mount whose server loses an
 * established connection more often than the restart budget allows
 * (restart-budget.ts) fails with that reason and its fork is disposed, so
 * the client stops restarting it; `reload()` mounts it afresh.
 *
 * @module
 */
import type { Context, Fiber } from '@deepseek-ai/cordis'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import { gapMessage, hostGaps } from '../config/official.ts'
import { redact } from '../config/redact.ts'
import type { OfficialConfig } from '../config/official.ts'
import type { MountSpec } from '../plan/desired.ts'
import { mountedConfig } from './launch.ts'
import { hostClientShape } from './client-shape.ts'
import { watchClientLogs } from './client-log.ts'
import type { Log } from './log.ts'
import { reapStdioChild } from './reap.ts'
import { type RestartLimit, restartBudget } from './restart-budget.ts'

export type MountState = 'mounting' | 'mounted' | 'failed'

export interface Mount {
  readonly key: string
  readonly spec: MountSpec
  readonly effectiveName: string
  state: MountState
  /** Why it failed, or the official client's last connection error (redacted). */
  error: string | null
  fiber: Fiber | undefined
  /** Resolves once the mount is mounted or failed. */
  readonly settled: Promise<void>
  readonly startedAt: number
  /** The config the official client runs (for stdio: through the launcher). */
  readonly launched: OfficialConfig
}

export interface MountTableOptions {
  mountTimeoutMs: number
  /** `$DSH_HOME`: server logs live in its `mcp-logs/`. */
  dshHome: string
  /** Crash-loop bound (default restart-budget.ts RESTART_LIMIT). */
  restartLimit?: RestartLimit
  /** Rotation size of the server logs. */
  logMaxBytes?: number
  log: Log
  /** Names the host took from the repository's `.env` (project-env.ts): unset for each server unless its entry sets them. */
  projectEnv(): readonly string[]
  /** The project roots agents run in (host/launch.ts: no bare command resolves into one). */
  checkouts?(): readonly string[]
  /** A mount settled, or a drain finished (status and visibility may change). */
  onChange(): void
  /** A mount failed because an mcp-client that is not ours holds its name: it may be retried under another. */
  onNameTaken(key: string): void
}

export interface MountTable {
  readonly mounts: ReadonlyMap<string, Mount>
  mount(spec: MountSpec, effectiveName: string): Mount
  /** Forget a mount; its fork is disposed in the background. Resolves when that dispose is done. */
  unmount(key: string, reason: string): Promise<void>
  /** Names in use: key → name for live mounts, plus names held by draining forks and by mcp-clients not ours. */
  held(): Map<string, string>
  /** Effective name → key (`null` while draining): the ownership table. */
  owners(): Map<string, string | null>
  /** Resolves once no mount is `mounting`. */
  settledAll(): Promise<void>
  /** Disposes of forks that were mounted (prompt unless the server misbehaves); abandoned forks are not listed. */
  readonly drains: ReadonlySet<Promise<void>>
  /** Unmount everything and wait for every dispose, at most `boundMs` (a hung one finishes in the background). */
  disposeAll(boundMs: number): Promise<void>
}

export function createMountTable(ctx: Context, opts: MountTableOptions): MountTable {
  const mounts = new Map<string, Mount>()
  const draining = new Map<symbol, string>()
  /** serverNames reserved by mcp-client instances that are not ours (learnt from rejections). */
  const external = new Set<string>()
  const drains = new Set<Promise<void>>()
  /** Every dispose still running, abandoned ones (failed or timed-out forks) included: what `disposeAll` waits for. */
  const allDrains = new Set<Promise<void>>()
  /** Mounts by fiber uid: log records carry the fiber itself, not the handle `ctx.plugin` returns. */
  const byUid = new Map<number, Mount>()
  const settlers = new WeakMap<Mount, () => void>()
  const failers = new WeakMap<Mount, (error: string, awaited?: boolean) => void>()
  const budgets = new WeakMap<Mount, ReturnType<typeof restartBudget>>()

  /**
   * Secret values per client fork, keyed by its Fiber (a uid turns `null` as a dispose starts, while the fork
   * may still log): what client-log.ts redacts with, for as long as the fork exists.
   */
  const secretsByFiber = new WeakMap<object, readonly string[]>()

  // The official client reports connection trouble only through ctx.logger: redact it, then attribute it by fiber.
  watchClientLogs(ctx, secretsByFiber, (uid, message, text) => {
    const m = byUid.get(uid)
    if (!m || m.state === 'failed') return
    if (/connection lost; reconnecting/.test(text) && budgets.get(m)?.lost(Date.now())) {
      // Not hung: its dispose is prompt, and whenIdle() waits for it.
      failers.get(m)?.(budgets.get(m)?.describe() ?? 'crash loop', true)
      return
    }
    if (/reconnected and re-synced/.test(text)) m.error = null
    else if (message.type === 'warn' || message.type === 'error') m.error = text
    else return
    opts.onChange()
  })

  const drain = (fiber: Fiber, name: string, awaited: boolean): Promise<void> => {
    const id = Symbol(name)
    draining.set(id, name)
    const p: Promise<void> = Promise.resolve()
      .then(() => fiber.dispose())
      .then(
        () => undefined,
        (error: unknown) => opts.log.debug('dispose of %s failed: %s', name, String(error)),
      )
      .finally(() => {
        draining.delete(id)
        drains.delete(p)
        allDrains.delete(p)
        opts.onChange()
      })
    if (awaited) drains.add(p)
    allDrains.add(p)
    return p
  }

  const mount = (spec: MountSpec, effectiveName: string): Mount => {
    const config = mountedConfig(spec, effectiveName, {
      dshHome: opts.dshHome,
      projectEnv: opts.projectEnv(),
      ...(opts.checkouts ? { checkouts: opts.checkouts() } : {}),
      ...(opts.logMaxBytes ? { logMaxBytes: opts.logMaxBytes } : {}),
    })
    let settle!: () => void
    const m: Mount = {
      key: spec.key,
      spec,
      effectiveName,
      state: 'mounting',
      error: null,
      fiber: undefined,
      settled: new Promise<void>((r) => {
        settle = r
      }),
      startedAt: Date.now(),
      launched: config,
    }
    settlers.set(m, settle)
    budgets.set(m, restartBudget(opts.restartLimit))
    mounts.set(spec.key, m)
    const fail = (error: string, awaited = false) => {
      m.state = 'failed'
      m.error = redact(error, spec.secrets)
      opts.log.warn('failed %s: %s', describe(m), m.error)
      const fiber = m.fiber
      m.fiber = undefined
      if (fiber) void drain(fiber, effectiveName, awaited)
      settle()
      opts.onChange()
    }
    failers.set(m, fail)
    const checked = mcpClient.Config['~standard'].validate(config)
    if ('then' in checked || checked.issues) {
      const issues = 'then' in checked ? [{ message: 'async validation' }] : (checked.issues ?? [])
      fail(`the official client rejected the config: ${issues.map((i) => i.message).join('; ')}`)
      return m
    }
    const host = hostClientShape()
    const gaps = host ? hostGaps(config, host) : []
    if (host && gaps.length > 0) {
      fail(gapMessage(gaps, host))
      return m
    }
    let fiber: Fiber
    try {
      fiber = ctx.plugin(mcpClient, config as mcpClient.Config)
    } catch (error) {
      fail(errorText(error))
      return m
    }
    m.fiber = fiber
    // `ctx.plugin` hands back a wrapper of the fiber; records carry the fiber itself (its context's `fiber`).
    secretsByFiber.set(fiber, spec.secrets)
    const own = (fiber.ctx as { fiber?: unknown } | undefined)?.fiber
    if (own && typeof own === 'object') secretsByFiber.set(own, spec.secrets)
    const uid = fiber.uid
    if (typeof uid === 'number') {
      byUid.set(uid, m)
      void m.settled.then(() => {
        if (m.state === 'failed') byUid.delete(uid)
      })
    }
    // The entry's own bound (its `startupTimeoutMs`, capped for repository files) wins over the plugin's.
    const bound = spec.settings?.startupTimeoutMs ?? opts.mountTimeoutMs
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), bound)
      timer.unref?.()
    })
    const activated = Promise.resolve(fiber).then(
      () => 'ok' as const,
      (error: unknown) => ({ error }),
    )
    void Promise.race([activated, timeout]).then((outcome) => {
      clearTimeout(timer)
      if (mounts.get(spec.key) !== m || m.state !== 'mounting') return
      if (outcome === 'ok') {
        m.state = 'mounted'
        opts.log.info('mounted %s in %d ms', describe(m), Date.now() - m.startedAt)
        settle()
        opts.onChange()
      } else if (outcome === 'timeout') {
        fail(`did not finish initialize + tools/list within ${bound} ms`)
        // A still-activating fork cannot be disposed: end its server so activation (and the dispose) settle.
        if (config.transport === 'stdio') reapStdioChild(config)
      } else {
        const text = errorText(outcome.error)
        const taken = /serverName "([^"]+)" is already in use/.exec(text)?.[1]
        fail(text)
        if (taken === effectiveName) {
          external.add(taken)
          opts.onNameTaken(spec.key)
        }
      }
    })
    return m
  }

  return {
    mounts,
    mount,
    unmount(key, reason) {
      const m = mounts.get(key)
      if (!m) return Promise.resolve()
      mounts.delete(key)
      for (const [uid, owner] of byUid) if (owner === m) byUid.delete(uid)
      opts.log.info('unmounted %s (%s)', describe(m), reason)
      const fiber = m.fiber
      m.fiber = undefined
      const healthy = m.state === 'mounted'
      if (m.state === 'mounting') {
        m.state = 'failed'
        m.error = 'unmounted before it finished mounting'
        settlers.get(m)?.()
        // Its fork cannot be disposed before activation settles (~60 s for a server that never answers): end its server.
        if (m.launched.transport === 'stdio') reapStdioChild(m.launched)
      }
      const p = fiber ? drain(fiber, m.effectiveName, healthy) : Promise.resolve()
      opts.onChange()
      return p
    },
    held() {
      const out = new Map<string, string>()
      for (const [key, m] of mounts) out.set(key, m.effectiveName)
      let i = 0
      for (const name of draining.values()) out.set(`\0draining:${i++}`, name)
      for (const name of external) out.set(`\0external:${name}`, name)
      return out
    },
    owners() {
      const out = new Map<string, string | null>()
      for (const name of draining.values()) out.set(name, null)
      for (const [key, m] of mounts) if (!out.has(m.effectiveName)) out.set(m.effectiveName, key)
      return out
    },
    async settledAll() {
      for (;;) {
        const pending = [...mounts.values()].filter((m) => m.state === 'mounting')
        if (pending.length === 0) return
        await Promise.all(pending.map((m) => m.settled))
      }
    },
    drains,
    async disposeAll(boundMs) {
      for (const key of [...mounts.keys()]) void this.unmount(key, 'plugin disposed')
      let timer: NodeJS.Timeout | undefined
      const bound = new Promise<void>((r) => {
        timer = setTimeout(r, boundMs)
        timer.unref?.()
      })
      await Promise.race([Promise.allSettled([...allDrains]), bound])
      clearTimeout(timer)
      if (allDrains.size > 0) opts.log.warn('%d server(s) still shutting down in the background', allDrains.size)
    },
  }
}

function describe(m: Mount): string {
  const where = m.spec.layer === 'user' ? 'user layer' : m.spec.origin
  return m.effectiveName === m.spec.name
    ? `"${m.spec.name}" (${where})`
    : `"${m.spec.name}" as "${m.effectiveName}" (${where})`
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
