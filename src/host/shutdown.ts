/**
 * Releasing the runtime, in order.
 *
 * Contract: `shutdown` first records what is mounted now (a short-lived host
 * still warms the tool cache), then marks the state disposed (every handler
 * returns from then on), cancels the delayed reconcile requests, closes the
 * queue and releases visibility, the lazy servers and the recorder. The
 * stopped status is written before anything is awaited: the host's shutdown
 * is bounded (the CLI force-exits 5 s after a signal). Then the projects are
 * released, and it awaits, in order, the watcher's close, the queue's
 * running reconcile, every fork's shutdown (bounded by `DISPOSE_WAIT_MS`) and
 * the status writes.
 *
 * @module
 */
import type { LazyServers } from '../lazy/servers.ts'
import type { Recorder } from '../lazy/record.ts'
import type { Debounced } from '../watch/debounce.ts'
import type { FileWatcher } from '../watch/files.ts'
import type { ReconcileQueue } from '../watch/queue.ts'
import type { MountTable } from './mounts.ts'
import type { Projects } from './projects.ts'
import type { Reports } from './report.ts'
import type { RuntimeState } from './state.ts'
import type { StatusWriter } from './status.ts'
import type { VisibilityGuard } from './visibility.ts'

/** How long disposing the plugin waits for the forks to shut down. */
const DISPOSE_WAIT_MS = 5000

export interface RuntimeParts {
  state: RuntimeState
  /** Delayed reconcile requests, cancelled in this order. */
  delays: readonly Debounced[]
  queue: ReconcileQueue
  visibility: VisibilityGuard
  lazy: LazyServers
  recorder: Recorder
  reports: Reports
  projects: Projects
  watcher: FileWatcher | undefined
  mounts: MountTable
  status: StatusWriter
}

export async function shutdown(parts: RuntimeParts): Promise<void> {
  const { state, queue, visibility, lazy, recorder, reports, projects, watcher, mounts, status } = parts
  recorder.flush()
  state.disposed = true
  for (const delay of parts.delays) delay.cancel()
  queue.close()
  visibility.dispose()
  lazy.dispose()
  recorder.dispose()
  reports.stopped()
  projects.dispose()
  await watcher?.close()
  await queue.idle()
  await mounts.disposeAll(DISPOSE_WAIT_MS)
  await status.settled()
}
