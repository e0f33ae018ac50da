/**
 * A trailing debounce with an observable pending state.
 *
 * Contract: `trigger()` (re)starts the quiet period; `fn` runs once when
 * `ms` pass with no further trigger. `pending` is true from a trigger until
 * `fn` has been called; `settled()` resolves when it is no longer pending.
 * `cancel()` drops a pending call. The timer is unref'd:
 * a pending debounce never keeps the process alive.
 *
 * @module
 */

export interface Debounced {
  trigger(): void
  readonly pending: boolean
  settled(): Promise<void>
  cancel(): void
}

export function debounce(fn: () => void, ms: number): Debounced {
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
      timer.unref?.()
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
