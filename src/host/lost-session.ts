/**
 * Remounting an HTTP server that lost its session. The official client never
 * opens a new session when a streamable-HTTP server has lost its own (it
 * restarted: every call then fails with 404 "Session not found").
 *
 * Contract: on the first such tool result of a mounted streamable-HTTP
 * server, its key goes to `state.lostKeys` (the next reconcile unmounts and
 * mounts it again), its error says it reconnects, the status is rescheduled
 * and a reconcile is asked for. Only the SDK's transport error counts, never
 * a tool's own error result that happens to say so. Nothing happens once the
 * state is disposed, or while the key already waits for its remount.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import { ownership } from '../plan/visibility.ts'
import type { Log } from './log.ts'
import type { MountTable } from './mounts.ts'
import type { RuntimeState } from './state.ts'

const SESSION_LOST = /^Streamable HTTP error: Error POSTing to endpoint: .*session not found/is

export interface LostSessionDeps {
  state: RuntimeState
  mounts: MountTable
  log: Log
  /** The status changed (the mount's error). */
  changed(): void
  /** Ask for a reconcile. */
  reconcile(): void
}

export function remountLostSessions(ctx: Context, deps: LostSessionDeps): void {
  const { state, mounts, log } = deps
  ctx.on('tools/result', (exec, result) => {
    if (state.disposed || !result.isError || !SESSION_LOST.test(result.error.message)) return
    const own = ownership(mounts.owners())
    const server = own.index.ownerOf(exec.name)
    const key = server === undefined ? undefined : own.owners.get(server)
    const m = key ? mounts.mounts.get(key) : undefined
    if (!key || !m || m.state !== 'mounted' || m.spec.config.transport !== 'streamable-http' || state.lostKeys.has(key))
      return
    state.lostKeys.add(key)
    m.error = 'the server no longer knows this session (it restarted?): reconnecting'
    log.warn('"%s" lost its session on the server: remounting it', m.effectiveName)
    deps.changed()
    deps.reconcile()
  })
}
