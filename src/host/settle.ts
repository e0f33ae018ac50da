/**
 * Settling: what "nothing is pending" means, for a project and for the host.
 *
 * Contract: `pendingFor(keys)` is undefined when no debounced edit, no
 * reconcile and no mount of the given mount keys is outstanding — the
 * first-step hold then does not wait at all; otherwise a promise that
 * resolves once they have all settled (keys are re-read after each
 * reconcile, so a mount a reconcile starts is waited for too). `whenIdle()`
 * resolves once debounced edits, reconciles, mounts, the unmounts of healthy
 * mounts and status writes have all settled (a hung dispose of an abandoned
 * fork is not waited for). Neither ever rejects. While either is awaited
 * it holds the event loop open (the edit debounce's timer is unref'd so a
 * pending edit alone never keeps a process alive; someone awaiting the
 * result must not see the loop end under that await).
 *
 * @module
 */
import type { Debounced } from '../watch/debounce.ts'
import type { ReconcileQueue } from '../watch/queue.ts'
import type { MountTable } from './mounts.ts'
import type { StatusWriter } from './status.ts'

export interface SettleDeps {
  /** Delayed reconcile requests (the edit debounce, the new-project kick). */
  delays: readonly Debounced[]
  queue: ReconcileQueue
  mounts: MountTable
  status: StatusWriter
}

export interface Settle {
  pendingFor(keys: () => Iterable<string>): Promise<void> | undefined
  whenIdle(): Promise<void>
}

/** Run `wait` with a ref'd timer holding the event loop open until it settles. */
async function held<T>(wait: () => Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, 2 ** 30)
  try {
    return await wait()
  } finally {
    clearInterval(hold)
  }
}

export function createSettle({ delays, queue, mounts, status }: SettleDeps): Settle {
  const delayed = () => delays.some((d) => d.pending)
  const undelayed = () => Promise.all(delays.map((d) => d.settled()))
  const mountingOf = (keys: Iterable<string>) =>
    [...keys].map((k) => mounts.mounts.get(k)).filter((m) => m?.state === 'mounting')
  const anyMounting = () => [...mounts.mounts.values()].some((m) => m.state === 'mounting')
  return {
    pendingFor(keys) {
      if (!queue.busy && !delayed() && mountingOf(keys()).length === 0) return undefined
      return held(async () => {
        for (;;) {
          await undelayed()
          await queue.idle()
          const waiting = mountingOf(keys())
          if (waiting.length === 0 && !queue.busy && !delayed()) return
          await Promise.all(waiting.map((m) => m!.settled))
        }
      })
    },
    whenIdle: () =>
      held(async () => {
        for (let i = 0; i < 100; i++) {
          await undelayed()
          await queue.idle()
          await mounts.settledAll()
          await Promise.allSettled([...mounts.drains])
          await new Promise<void>((r) => setImmediate(r))
          await status.settled()
          if (!delayed() && !queue.busy && !anyMounting()) return
        }
      }),
  }
}
