/**
 * Lazy servers: the state of every mount whose lifecycle is `lazy`.
 *
 * Contract: a lazy server is `dormant` (its cached tools registered, no
 * process), `waking` (its dormant tools unregistered, its real mount in the
 * mount table settling), `live` (mounted; released after `idleMs` without a
 * call, never while a call is in flight; `0` never) or `releasing` (its fork
 * disposing; its cached tools come back once the dispose is done, so a name
 * is never registered twice). `park` makes a newly planned server dormant
 * when its policy is lazy and its cache (memory, else `$DSH_HOME/mcp-cache`)
 * can serve its effective name; otherwise the caller mounts it as usual and
 * `sync` adopts it once mounted (it is cached then: record.ts), so it is
 * released after its idle time. `wake` is shared by concurrent callers (one
 * mount), mounts with `failOnStartupError` so a server that cannot start
 * says so at once, and on failure parks the server again (the next call
 * tries again) and resolves `{ ok: false, reason }` — it never rejects.
 * `sync` applies a new policy: a dormant server turned eager is woken, a
 * live one turned eager stops its idle timer (no remount either way).
 * Dormant servers hold their effective names (`held`) and own their tools
 * (`owners`), so names, deny sets and tool counts treat them like mounts.
 * One server's record (its state, calls in flight, timers) is server.ts's.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { MountSpec } from '../plan/desired.ts'
import { ownerIndex } from '../plan/tool-names.ts'
import type { LazyLog, LazyMounts } from './ports.ts'
import { type CacheRecord, readCache, toolsUnder } from './cache.ts'
import { registerDormant } from './dormant.ts'
import type { KeyPolicy } from './policy.ts'
import { clearTimer, type LazyServer, newServer, type WakeOutcome } from './server.ts'

export type { LazyServer, LazyState, WakeOutcome } from './server.ts'

export interface LazyServersDeps {
  ctx: Context
  mounts: LazyMounts
  dshHome: string
  log: LazyLog
  /** The latest record of a cache key this host made (record.ts), before the file is asked. */
  recorded(cacheKey: string): CacheRecord | undefined
  /** Write pending cache records now (before a release). */
  flush(): void
  /** State changed (status, visibility). */
  onChange(): void
}

export interface LazyServers {
  /** Specs of dormant and releasing servers: planned, not in the mount table. */
  parked(): Map<string, MountSpec>
  held(): Map<string, string>
  /** `base` (the mount table's owners) plus every dormant server's name. */
  owners(base: Map<string, string | null>): Map<string, string | null>
  setPolicy(policy: ReadonlyMap<string, KeyPolicy>): void
  /** Make a newly planned server dormant; false: mount it as usual. */
  park(spec: MountSpec, name: string): boolean
  /** The plan no longer wants `key`: drop its dormant tools and timers (the caller unmounts a mount). */
  forget(key: string): void
  /** After a reconcile: adopt mounted lazy servers, wake dormant ones turned eager. */
  sync(): void
  get(key: string): LazyServer | undefined
  /** The lazy server owning a public tool name. */
  serverOf(publicName: string): LazyServer | undefined
  wake(s: LazyServer): Promise<WakeOutcome>
  begin(s: LazyServer): void
  end(s: LazyServer): void
  /** Resolves when the given keys' wakes and releases are done; undefined when none is under way. */
  pendingFor(keys: Iterable<string>): Promise<void> | undefined
  dispose(): void
}

export function createLazyServers(deps: LazyServersDeps): LazyServers {
  const { ctx, mounts, log } = deps
  const servers = new Map<string, LazyServer>()
  let policy: ReadonlyMap<string, KeyPolicy> = new Map()
  let index = ownerIndex([])
  let disposed = false
  const reindex = () => {
    index = ownerIndex([...servers.values()].map((s) => s.name))
  }

  /** No cache key (no cache secret): nothing is ever offered from a cache. */
  const recordOf = (spec: MountSpec) =>
    spec.cacheKey ? (deps.recorded(spec.cacheKey) ?? readCache(deps.dshHome, spec.cacheKey)) : undefined

  /**
   * Register the cached tools of `s` (already in `servers`); false when no usable record exists.
   * It is `dormant` — its name owned — *before* the first registration, so the deny sets of that
   * very `tools/change` already cover every cached tool (no foreign agent sees one, even for an instant).
   */
  const registerCached = (s: LazyServer): boolean => {
    const record = recordOf(s.spec)
    const tools = record && toolsUnder(record, s.name)
    if (!tools) return false
    s.state = 'dormant'
    s.source = 'cache'
    reindex()
    s.unregister = registerDormant(ctx, tools, {
      wake: async (name) => {
        const owner = serverOf(name)
        const outcome = owner ? await wake(owner) : { ok: false as const, reason: 'not a lazy server' }
        if (!outcome.ok) throw new Error(outcome.reason)
      },
      onRefused: (name, error) => log.debug('cached tool %s not registered: %s', name, String(error)),
    })
    return true
  }

  const arm = (s: LazyServer) => {
    clearTimer(s)
    const p = policy.get(s.key)
    if (disposed || s.state !== 'live' || s.inflight > 0 || !p?.lazy || p.idleMs === 0) return
    s.timer = setTimeout(() => release(s, p.idleMs), p.idleMs)
    s.timer.unref?.()
  }

  const release = (s: LazyServer, idleMs: number) => {
    s.timer = undefined
    if (disposed || servers.get(s.key) !== s || s.state !== 'live' || s.inflight > 0) return
    deps.flush()
    if (!recordOf(s.spec)) return // nothing to offer while stopped: keep it running
    s.state = 'releasing'
    log.info('"%s" had no call for %d ms: stopping it until the next call', s.name, idleMs)
    s.releasing = mounts.unmount(s.key, 'idle').then(() => {
      s.releasing = undefined
      if (disposed || servers.get(s.key) !== s) return
      if (!registerCached(s)) {
        servers.delete(s.key)
        reindex()
      }
      deps.onChange()
    })
    deps.onChange()
  }

  /** Follow a mount of `s` until it settles: live (idle timer armed), or failed (parked again). */
  const follow = async (s: LazyServer, m: ReturnType<LazyMounts['mount']>): Promise<WakeOutcome> => {
    await m.settled
    if (servers.get(s.key) !== s || disposed)
      return { ok: false, reason: m.error ?? 'the server was removed while starting' }
    if (mounts.mounts.get(s.key) === m && m.state === 'mounted') {
      s.state = 'live'
      s.source = 'live'
      s.error = null
      arm(s)
      deps.onChange()
      return { ok: true }
    }
    const reason = m.error ?? 'the server could not start'
    s.error = reason
    if (!recordOf(s.spec)) {
      // Nothing cached to offer instead (a first start): it stays failed in the mount table, like an eager one.
      if (servers.get(s.key) === s) servers.delete(s.key)
      reindex()
      deps.onChange()
      return { ok: false, reason }
    }
    if (mounts.mounts.get(s.key) === m) await mounts.unmount(s.key, 'lazy start failed')
    if (servers.get(s.key) === s && !disposed && !registerCached(s)) servers.delete(s.key)
    reindex()
    deps.onChange()
    return { ok: false, reason }
  }

  const wake = (s: LazyServer): Promise<WakeOutcome> => {
    if (s.state === 'live') return Promise.resolve({ ok: true })
    if (s.waking) return s.waking
    s.waking = (async (): Promise<WakeOutcome> => {
      if (s.releasing) await s.releasing
      if (disposed || servers.get(s.key) !== s) return { ok: false, reason: 'the server is no longer configured' }
      if (s.state === 'live') return { ok: true }
      s.unregister?.()
      s.unregister = undefined
      s.state = 'waking'
      // A start on demand must answer now: no background retries behind a call that waits.
      const spec: MountSpec = { ...s.spec, config: { ...s.spec.config, failOnStartupError: true } }
      const m = mounts.mount(spec, s.name)
      deps.onChange()
      return follow(s, m)
    })().finally(() => {
      s.waking = undefined
    })
    return s.waking
  }

  function serverOf(publicName: string): LazyServer | undefined {
    const name = index.ownerOf(publicName)
    if (name === undefined) return undefined
    for (const s of servers.values()) if (s.name === name) return s
    return undefined
  }

  return {
    parked() {
      const out = new Map<string, MountSpec>()
      for (const s of servers.values()) if (s.state === 'dormant' || s.state === 'releasing') out.set(s.key, s.spec)
      return out
    },
    held() {
      const out = new Map<string, string>()
      for (const s of servers.values()) if (s.state === 'dormant' || s.state === 'releasing') out.set(s.key, s.name)
      return out
    },
    owners(base) {
      // A dormant server's name may still be reserved by a failed fork that registered nothing: the cached tools are its.
      for (const s of servers.values()) if (s.state === 'dormant' && base.get(s.name) == null) base.set(s.name, s.key)
      return base
    },
    setPolicy(next) {
      policy = next
    },
    park(spec, name) {
      if (disposed || !policy.get(spec.key)?.lazy) return false
      const s = newServer(spec, name, 'waking')
      servers.set(spec.key, s)
      if (!registerCached(s)) {
        servers.delete(spec.key)
        reindex()
        return false
      }
      log.info(
        '"%s" is lazy: offering its %s cached tool(s); it starts on the first call',
        name,
        String(recordOf(spec)?.tools.length ?? 0),
      )
      return true
    },
    forget(key) {
      const s = servers.get(key)
      if (!s) return
      clearTimer(s)
      // Unregistered while still owned: a tool left registered for a moment stays denied to foreign agents.
      s.unregister?.()
      s.unregister = undefined
      servers.delete(key)
      reindex()
    },
    sync() {
      for (const [key, m] of mounts.mounts) {
        const lazy = policy.get(key)?.lazy === true
        const s = servers.get(key)
        if (!s && lazy) {
          const adopted = newServer(m.spec, m.effectiveName, m.state === 'mounted' ? 'live' : 'waking')
          servers.set(key, adopted)
          reindex()
          if (m.state === 'mounting') void follow(adopted, m)
          else arm(adopted)
        } else if (s && !lazy && s.state === 'live') {
          clearTimer(s)
          servers.delete(key)
          reindex()
        } else if (s?.state === 'live') arm(s)
      }
      for (const s of servers.values()) if (s.state === 'dormant' && policy.get(s.key)?.lazy === false) void wake(s)
    },
    get: (key) => servers.get(key),
    serverOf,
    wake,
    begin(s) {
      s.inflight++
      s.lastUsedAt = Date.now()
      clearTimer(s)
    },
    end(s) {
      s.inflight = Math.max(0, s.inflight - 1)
      s.lastUsedAt = Date.now()
      arm(s)
    },
    pendingFor(keys) {
      const waits: Promise<unknown>[] = []
      for (const k of keys) {
        const s = servers.get(k)
        if (s?.waking) waits.push(s.waking)
        if (s?.releasing) waits.push(s.releasing)
      }
      return waits.length ? Promise.allSettled(waits).then(() => undefined) : undefined
    },
    dispose() {
      disposed = true
      for (const s of servers.values()) {
        clearTimer(s)
        s.unregister?.()
        s.unregister = undefined
      }
      servers.clear()
    },
  }
}
