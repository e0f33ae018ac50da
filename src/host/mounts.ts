/**
 * Mounts: one official `dsh-mcp-client` fork per effective server.
 *
 * Contract: the mount table is one object (`MountTableImpl`: the mounts,
 * the draining forks, the names held by mcp-clients not ours, each mount's
 * controls) with one release, `disposeAll`; `mount` after it fails at once.
 * `mount` starts the fork (mount-fork.ts: the config is validated against
 * the official `Config` and the host's own shape first — a rejection marks
 * the mount failed, nothing throws to the caller) and returns at once; the
 * mount settles as `mounted` when the fork activates, or `failed` when it
 * rejects or does not activate within its bound (the entry's
 * `startupTimeoutMs`, else the plugin's `mountTimeoutMs`) — then its fork is
 * disposed in the background. `unmount` forgets the mount at once and disposes its fork in
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
 * the client stops restarting it; `reload()` mounts it afresh. The record
 * and table types (`Mount`, `MountTable`, its options) are in mount-types.ts.
 *
 * @module
 */
import type { Context, Fiber } from '@deepseek-ai/cordis'
import { redact } from '../config/redact.ts'
import type { MountSpec } from '../plan/desired.ts'
import { missingCommand, mountedConfig } from './launch.ts'
import { clientCause } from '../plan/cause.ts'
import { causeText } from '../plan/states.ts'
import { watchClientLogs } from './client-log.ts'
import { Drains } from './mount-drains.ts'
import { type ForkOutcome, startFork } from './mount-fork.ts'
import type { Mount, MountTable, MountTableOptions } from './mount-types.ts'
import { reapStdioChild } from './reap.ts'
import { restartBudget } from './restart-budget.ts'

export type { Mount, MountState, MountTable, MountTableOptions } from './mount-types.ts'

/** What the table keeps per mount beside the public record: settle it, fail it, its crash-loop budget. */
interface Control {
  settle(): void
  fail(error: string, awaited?: boolean): void
  budget: ReturnType<typeof restartBudget>
}

export function createMountTable(ctx: Context, opts: MountTableOptions): MountTable {
  return new MountTableImpl(ctx, opts)
}

class MountTableImpl implements MountTable {
  readonly mounts = new Map<string, Mount>()
  readonly #ctx: Context
  readonly #opts: MountTableOptions
  /** Forks still disposing (their names held). */
  readonly #drains: Drains
  /** serverNames reserved by mcp-client instances that are not ours (learnt from rejections). */
  readonly #external = new Set<string>()
  /** Mounts by fiber uid: log records carry the fiber itself, not the handle `ctx.plugin` returns. */
  readonly #byUid = new Map<number, Mount>()
  readonly #controls = new WeakMap<Mount, Control>()
  /**
   * Secret values per client fork, keyed by its Fiber (a uid turns `null` as a dispose starts, while the fork
   * may still log): what client-log.ts redacts with, for as long as the fork exists.
   */
  readonly #secretsByFiber = new WeakMap<object, readonly string[]>()
  #disposed = false

  constructor(ctx: Context, opts: MountTableOptions) {
    this.#ctx = ctx
    this.#opts = opts
    this.#drains = new Drains(opts.log, () => opts.onChange())
    // The official client reports connection trouble only through ctx.logger: redact it, then attribute it by fiber.
    // The exporter lives as long as the plugin's context: a fork still draining in the background stays redacted.
    watchClientLogs(ctx, this.#secretsByFiber, (uid, message, text) => this.#onRecord(uid, message.type, text))
  }

  get drains(): ReadonlySet<Promise<void>> {
    return this.#drains.awaited
  }

  mount(spec: MountSpec, effectiveName: string): Mount {
    const opts = this.#opts
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
      // A command that is not there: the launcher still says so in the server log, the mount fails with this.
      cause: missingCommand(spec) ?? null,
      fiber: undefined,
      settled: new Promise<void>((r) => {
        settle = r
      }),
      startedAt: Date.now(),
      launched: config,
    }
    const fail = (error: string, awaited = false) => {
      m.state = 'failed'
      m.error = m.cause ? causeText(m.cause) : redact(error, spec.secrets)
      opts.log.warn('failed %s: %s', describe(m), m.error)
      const fiber = m.fiber
      m.fiber = undefined
      if (fiber) void this.#drains.drain(fiber, effectiveName, awaited)
      settle()
      opts.onChange()
    }
    this.#controls.set(m, { settle, fail, budget: restartBudget(opts.restartLimit) })
    this.mounts.set(spec.key, m)
    if (this.#disposed) {
      fail('the plugin is shutting down')
      return m
    }
    // The entry's own bound (its `startupTimeoutMs`, capped for repository files) wins over the plugin's.
    const bound = spec.settings?.startupTimeoutMs ?? opts.mountTimeoutMs
    startFork(this.#ctx, config, bound, {
      fail,
      started: (fiber) => this.#started(m, fiber),
      outcome: (outcome) => this.#settled(m, outcome, bound),
    })
    return m
  }

  unmount(key: string, reason: string): Promise<void> {
    const m = this.mounts.get(key)
    if (!m) return Promise.resolve()
    this.mounts.delete(key)
    for (const [uid, owner] of this.#byUid) if (owner === m) this.#byUid.delete(uid)
    this.#opts.log.info('unmounted %s (%s)', describe(m), reason)
    const fiber = m.fiber
    m.fiber = undefined
    const healthy = m.state === 'mounted'
    if (m.state === 'mounting') {
      m.state = 'failed'
      m.error = 'unmounted before it finished mounting'
      this.#controls.get(m)?.settle()
      // Its fork cannot be disposed before activation settles (~60 s for a server that never answers): end its server.
      if (m.launched.transport === 'stdio') reapStdioChild(m.launched)
    }
    const p = fiber ? this.#drains.drain(fiber, m.effectiveName, healthy) : Promise.resolve()
    this.#opts.onChange()
    return p
  }

  held(): Map<string, string> {
    const out = new Map<string, string>()
    for (const [key, m] of this.mounts) out.set(key, m.effectiveName)
    let i = 0
    for (const name of this.#drains.names()) out.set(`\0draining:${i++}`, name)
    for (const name of this.#external) out.set(`\0external:${name}`, name)
    return out
  }

  owners(): Map<string, string | null> {
    const out = new Map<string, string | null>()
    for (const name of this.#drains.names()) out.set(name, null)
    for (const [key, m] of this.mounts) if (!out.has(m.effectiveName)) out.set(m.effectiveName, key)
    return out
  }

  async settledAll(): Promise<void> {
    for (;;) {
      const pending = [...this.mounts.values()].filter((m) => m.state === 'mounting')
      if (pending.length === 0) return
      await Promise.all(pending.map((m) => m.settled))
    }
  }

  async disposeAll(boundMs: number): Promise<void> {
    this.#disposed = true
    for (const key of [...this.mounts.keys()]) void this.unmount(key, 'plugin disposed')
    const left = await this.#drains.settle(boundMs)
    if (left > 0) this.#opts.log.warn('%d server(s) still shutting down in the background', left)
  }

  /** A fork was started: record it for redaction (its wrapper and its own fiber) and for attributing its logs. */
  #started(m: Mount, fiber: Fiber): void {
    m.fiber = fiber
    // `ctx.plugin` hands back a wrapper of the fiber; records carry the fiber itself (its context's `fiber`).
    this.#secretsByFiber.set(fiber, m.spec.secrets)
    const own = (fiber.ctx as { fiber?: unknown } | undefined)?.fiber
    if (own && typeof own === 'object') this.#secretsByFiber.set(own, m.spec.secrets)
    const uid = fiber.uid
    if (typeof uid === 'number') {
      this.#byUid.set(uid, m)
      void m.settled.then(() => {
        if (m.state === 'failed') this.#byUid.delete(uid)
      })
    }
  }

  /** The fork's outcome; false when the mount was forgotten or settled meanwhile. */
  #settled(m: Mount, outcome: ForkOutcome, bound: number): boolean {
    if (this.mounts.get(m.key) !== m || m.state !== 'mounting') return false
    const control = this.#controls.get(m)!
    if (outcome.kind === 'mounted') {
      m.state = 'mounted'
      this.#opts.log.info('mounted %s in %d ms', describe(m), Date.now() - m.startedAt)
      control.settle()
      this.#opts.onChange()
    } else if (outcome.kind === 'timeout') control.fail(`did not finish initialize + tools/list within ${bound} ms`)
    else {
      control.fail(outcome.error)
      if (outcome.taken === m.effectiveName) {
        this.#external.add(outcome.taken)
        this.#opts.onNameTaken(m.key)
      }
    }
    return true
  }

  /** A log record of one of our forks: a crash loop fails the mount; a warning or error is its `lastError`. */
  #onRecord(uid: number, type: string, text: string): void {
    const m = this.#byUid.get(uid)
    if (!m || m.state === 'failed') return
    const control = this.#controls.get(m)
    if (/connection lost; reconnecting/.test(text) && control?.budget.lost(Date.now())) {
      // Not hung: its dispose is prompt, and whenIdle() waits for it.
      control.fail(control.budget.describe() ?? 'crash loop', true)
      return
    }
    // The client's retry lines, typed and said plainly (bounded: attempt N of M; then given up); others as they came.
    const cause = clientCause(text)
    // A command that is not there cannot come back by retrying: fail now, with that cause (an edit remounts it).
    if (control && (m.cause?.kind === 'command-not-found' || m.cause?.kind === 'not-executable')) {
      if (type === 'warn' || type === 'error') control.fail(causeText(m.cause), true)
      return
    }
    if (/reconnected and re-synced/.test(text)) {
      m.error = null
      m.cause = null
    } else if (cause) {
      m.cause = cause
      m.error = causeText(cause)
    } else if (type === 'warn' || type === 'error') {
      m.error = text
      m.cause = null
    } else return
    this.#opts.onChange()
  }
}

function describe(m: Mount): string {
  const where = m.spec.layer === 'user' ? 'user layer' : m.spec.origin
  return m.effectiveName === m.spec.name
    ? `"${m.spec.name}" (${where})`
    : `"${m.spec.name}" as "${m.effectiveName}" (${where})`
}
