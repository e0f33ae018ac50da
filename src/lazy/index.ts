/**
 * The lazy layer, wired: the recorder (every mount's tools into the cache),
 * the lazy servers and the first-call wrapper, as the runtime uses them.
 *
 * Contract: `startLazy` registers one `tools/change` listener (recording) and
 * one `tools/execute` wrapper (wake.ts), both released with `ctx`. A caller
 * may call a tool of a starting or stopping server when its plan view and
 * filters admit it (`visibleFor` the agent's project; no agent: allowed, as
 * for any registered tool). `onChange` runs on every lazy state change.
 * It reads (creating when absent) the per-user cache secret (secret.ts) and
 * returns it for the plan's cache keys; without one (an unusable directory,
 * logged) no cache key exists and every lazy server starts as an eager one.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { LazyLog, LazyMounts } from './ports.ts'
import { denySet, ownership, type Visible } from '../plan/visibility.ts'
import { createRecorder, type Recorder } from './record.ts'
import { ensureCacheSecret } from './secret.ts'
import { createLazyServers, type LazyServers } from './servers.ts'
import { wakeOnCall } from './wake.ts'

export { lifecyclePolicy } from './policy.ts'
export type { LazyServers } from './servers.ts'

export interface LazyDeps {
  mounts: LazyMounts
  dshHome: string
  log: LazyLog
  /** Registered MCP tool names (the visibility guard's cached listing). */
  registered(): string[]
  /** Every global tool definition by name in one read (record.ts); absent: one lookup per name. */
  definitions?(): ReadonlyMap<string, unknown> | undefined
  /** The project of a tracked agent (`null`: none; undefined: not tracked). */
  rootOf(agent: Agent): string | null | undefined
  visibleFor(root: string | null): Visible
  /** Resolves once every agent's view is derived (host/visibility.ts `settled`): a woken server's call awaits it. */
  settled?(): Promise<void>
  onChange(): void
}

export function startLazy(
  ctx: Context,
  deps: LazyDeps,
): { servers: LazyServers; recorder: Recorder; cacheSecret: Uint8Array | undefined } {
  let cacheSecret: Uint8Array | undefined
  try {
    cacheSecret = ensureCacheSecret(deps.dshHome)
  } catch (err) {
    deps.log.once(
      'cache-secret',
      'warn',
      `no tool-metadata cache (lazy servers start at once): ${(err as Error).message}`,
    )
  }
  const recorder = createRecorder({
    ctx,
    mounts: deps.mounts,
    dshHome: deps.dshHome,
    registered: deps.registered,
    ...(deps.definitions ? { definitions: deps.definitions } : {}),
    log: deps.log,
  })
  ctx.on('tools/change', () => recorder.schedule())
  const servers = createLazyServers({
    ctx,
    mounts: deps.mounts,
    dshHome: deps.dshHome,
    log: deps.log,
    recorded: recorder.recorded,
    flush: recorder.flush,
    onChange: deps.onChange,
  })
  wakeOnCall(ctx, {
    servers,
    mayCall: (agent, key, server, name) =>
      !agent ||
      denySet([name], ownership(new Map([[server, key]])), deps.visibleFor(deps.rootOf(agent) ?? null)).length === 0,
    ...(deps.settled ? { settled: deps.settled } : {}),
  })
  return { servers, recorder, cacheSecret }
}
