/**
 * Recording: every mounted server's tool list goes into the metadata cache.
 *
 * Contract: `schedule()` (called on every registry change and mount change)
 * coalesces into one pass a few milliseconds later; `flush()` runs it now.
 * Per server: one recorded less than `RECORD_EVERY_MS` ago is left to one
 * follow-up pass at the end of that interval (a server announcing
 * `tools/list_changed` again and again is recorded at most every 5 s,
 * always ending on its latest list; `flush()` records every server now).
 * Definitions are read in one read of the registry (`definitions`), not
 * one registry view per tool.
 * A pass looks at every mount that is `mounted` and does not read as failed
 * (up, no tools, an error), collects what the official client registered
 * under its effective name (public name, description, input and output
 * schema, as the registry holds them, its secrets redacted: cache.ts) and writes the record of its cache key
 * when it differs from the last one this host wrote — so a re-sync after
 * `tools/list_changed` refreshes the cache (a mount without a cache key — no
 * cache secret — records nothing) and a server whose real list
 * differs from its cache converges on the real one. The latest record per
 * cache key is kept in memory (`recorded`), so a release right after a
 * failed write still parks the right tools. A write failure is logged once
 * per file; nothing throws.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { LazyLog, LazyMounts } from './ports.ts'
import { readsFailed } from '../plan/states.ts'
import { ownership, toolsByKey } from '../plan/visibility.ts'
import { CACHE_VERSION, type CacheRecord, cachedTool, cachePath, writeCache } from './cache.ts'

/** Coalescing delay of a recording pass. */
const RECORD_DELAY_MS = 20
/** A server recorded this recently is recorded again by one follow-up pass once this much has passed (a release flushes first). */
const RECORD_EVERY_MS = 5000

export interface RecorderDeps {
  ctx: Context
  mounts: LazyMounts
  dshHome: string
  /** Registered MCP tool names (visibility's cached listing). */
  registered(): string[]
  /** Every global definition by name in one read (the host's registry view); absent: `ctx.tools.get` per name. */
  definitions?(): ReadonlyMap<string, unknown> | undefined
  log: LazyLog
}

type Definition = Parameters<typeof cachedTool>[1]

export interface Recorder {
  schedule(): void
  flush(): void
  recorded(cacheKey: string): CacheRecord | undefined
  dispose(): void
}

export function createRecorder(deps: RecorderDeps): Recorder {
  const latest = new Map<string, CacheRecord>()
  /** Signature (tools JSON) last written per cache key. */
  const written = new Map<string, string>()
  /** When each cache key was last recorded (a churning server is recorded at most every `RECORD_EVERY_MS`). */
  const lastAt = new Map<string, number>()
  let timer: NodeJS.Timeout | undefined
  let disposed = false

  const schedule = (ms: number) => {
    if (disposed || timer) return
    timer = setTimeout(() => pass(false), ms)
    timer.unref?.()
  }

  const pass = (now: boolean) => {
    clearTimeout(timer)
    timer = undefined
    if (disposed) return
    const at = Date.now()
    let later: number | undefined
    const defs = deps.definitions?.()
    const definition = (name: string) => (defs ? defs.get(name) : deps.ctx.tools.get(name)) as Definition | undefined
    const owners = new Map<string, string | null>()
    for (const [key, m] of deps.mounts.mounts) if (m.state === 'mounted') owners.set(m.effectiveName, key)
    const byKey = toolsByKey(deps.registered(), ownership(owners))
    for (const [key, m] of deps.mounts.mounts) {
      if (m.state !== 'mounted') continue
      const names = byKey.get(key) ?? []
      if (readsFailed(m, names.length)) continue
      const cacheKey = m.spec.cacheKey
      if (!cacheKey) continue // no cache secret: nothing is recorded
      // Recorded a moment ago (a server re-listing again and again): one follow-up pass records its latest list.
      const since = at - (lastAt.get(cacheKey) ?? Number.NEGATIVE_INFINITY)
      if (!now && since < RECORD_EVERY_MS) {
        later = Math.min(later ?? RECORD_EVERY_MS, RECORD_EVERY_MS - since)
        continue
      }
      lastAt.set(cacheKey, at)
      const tools = []
      for (const name of names) {
        const def = definition(name)
        // The server's credentials never reach the cache file (descriptions and schema texts redacted).
        if (def) tools.push(cachedTool(m.effectiveName, def, m.spec.credentials))
      }
      tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      const sig = `${m.effectiveName}\0${JSON.stringify(tools)}`
      if (written.get(cacheKey) === sig) continue
      const record: CacheRecord = {
        version: CACHE_VERSION,
        key: cacheKey,
        server: m.effectiveName,
        recordedAt: new Date().toISOString(),
        tools,
      }
      latest.set(cacheKey, record)
      written.set(cacheKey, sig)
      if (writeCache(deps.dshHome, record)) deps.log.debug('cached %d tool(s) of "%s"', tools.length, m.effectiveName)
      else
        deps.log.once(
          `cache:${cacheKey}`,
          'warn',
          `could not write the tool cache ${cachePath(deps.dshHome, cacheKey)}`,
        )
    }
    if (later !== undefined) schedule(later)
  }

  return {
    schedule: () => schedule(RECORD_DELAY_MS),
    flush: () => pass(true),
    recorded: (k) => latest.get(k),
    dispose() {
      disposed = true
      clearTimeout(timer)
    },
  }
}
