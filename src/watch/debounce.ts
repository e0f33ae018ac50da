/**
 * A trailing debounce with an observable pending state.
 *
 * Contract: `trigger()` (re)starts the quiet period; `fn` runs once when
 * `ms` pass with no further trigger. `pending` is true from a trigger until
 * `fn` has been called; `settled()` resolves when it is no longer pending.
 * `cancel()` drops a pending call. The timer is unref'd — a pending
 * debounce never keeps the process alive — unless `keepAlive` is set (for a
 * delay someone may await with nothing else pending, e.g. `whenIdle()` right
 * after an agent joined a new project: an unref'd timer would let the process
 * exit under that await).
 *
 * @module
 */

export interface Debounced {
  trigger(): void
  readonly pending: boolean
  settled(): Promise<void>
  cancel(): void
}

export function debounce(fn: () => void, ms: number, opts: { keepAlive?: boolean } = {}): Debounced {
  let timer: NodeJS.Timeout | undefined
  let waiters: (() => void)[] = []
  const release = () => {
    const w = waiters
    waiters = []
    for (const r of w) r()
  }
  return {
    trigger() {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = undefined
        try {
          fn()
        } finally {
          release()
        }
      }, ms)
      if (!opts.keepAlive) timer.unref?.()
    },
    get pending() {
      return timer !== undefined
    },
    settled() {
      return timer === undefined ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))
    },
    cancel() {
      if (timer) clearTimeout(timer)
      timer = undefined
      release()
    },
  }
}
