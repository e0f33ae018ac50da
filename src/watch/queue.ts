/**
 * The serialized reconcile queue.
 *
 * Contract: at most one run at a time. A request while a run is in progress
 * coalesces with every other such request into exactly one more run, which
 * starts when the current one ends. `request()` resolves when a run that
 * started after the call has finished (never rejects: a run's error goes to
 * `onError`). `idle()` resolves once nothing is running or pending. After
 * `close()`, requests resolve at once and nothing new starts.
 *
 * @module
 */

export interface ReconcileQueue {
  request(): Promise<void>
  /** A run is in progress or pending. */
  readonly busy: boolean
  idle(): Promise<void>
  close(): void
}

export function createQueue(run: () => Promise<void>, onError: (error: unknown) => void): ReconcileQueue {
  let running = false
  let pending: { promise: Promise<void>; resolve: () => void } | undefined
  let idleWaiters: (() => void)[] = []
  let closed = false

  const settleIdle = () => {
    if (running || pending) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const w of waiters) w()
  }

  const start = () => {
    const batch = pending!
    pending = undefined
    running = true
    void (async () => {
      try {
        await run()
      } catch (error) {
        onError(error)
      } finally {
        running = false
        batch.resolve()
        const queued = pending as typeof batch | undefined
        if (queued && !closed) start()
        else {
          if (queued) {
            queued.resolve()
            pending = undefined
          }
          settleIdle()
        }
      }
    })()
  }

  return {
    request() {
      if (closed) return Promise.resolve()
      if (!pending) {
        let resolve!: () => void
        const promise = new Promise<void>((r) => {
          resolve = r
        })
        pending = { promise, resolve }
      }
      const { promise } = pending
      if (!running) start()
      return promise
    },
    get busy() {
      return running || pending !== undefined
    },
    idle() {
      if (!running && !pending) return Promise.resolve()
      return new Promise<void>((r) => idleWaiters.push(r))
    },
    close() {
      closed = true
      if (!running && pending) {
        pending.resolve()
        pending = undefined
      }
      settleIdle()
    },
  }
}
