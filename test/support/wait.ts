/**
 * Event-driven waiting for tests: conditions re-checked on host events and a
 * short interval, deferreds, and the next matching event. Tests never assert
 * after fixed sleeps, and no deadline here is a claim about speed: each is
 * generous (`PATIENCE_MS`) so a busy machine only makes a test slower, and
 * its failure says what never happened. How fast things happen is measured
 * by `npm run bench`.
 */
import type { Context } from '@deepseek-ai/cordis'

/** How long a test waits for something that should happen (tens of seconds: a busy machine is slow, not broken). */
export const PATIENCE_MS = 30_000

export interface Deferred<T> {
  readonly promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}

/** `Promise.withResolvers()` without needing the ES2024 lib typings. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

export interface WaitForOptions {
  /** Give up after this long (default `PATIENCE_MS`). */
  readonly timeoutMs?: number
  /** Fallback polling interval (default 10 ms). */
  readonly intervalMs?: number
  /** Re-check immediately whenever one of these events fires on `ctx`. */
  readonly ctx?: Context
  readonly events?: readonly string[]
  /** Prefix for the timeout error. */
  readonly message?: string
}

/**
 * Resolve with the first truthy value of `predicate` (sync or async). The
 * predicate is re-evaluated on every listed ctx event and on a short interval;
 * a throwing predicate counts as "not yet" (its last error is reported on timeout).
 */
export function waitFor<T>(predicate: () => T | Promise<T>, options: WaitForOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = PATIENCE_MS, intervalMs = 10 } = options
  return new Promise<NonNullable<T>>((resolve, reject) => {
    let done = false
    let running = false
    let again = false
    let last: unknown
    let lastError: unknown
    const disposers: (() => void)[] = []
    const finish = (fn: () => void): void => {
      done = true
      clearInterval(interval)
      clearTimeout(timer)
      for (const d of disposers) d()
      fn()
    }
    const check = async (): Promise<void> => {
      if (done) return
      if (running) {
        again = true
        return
      }
      running = true
      try {
        do {
          again = false
          try {
            const value = await predicate()
            last = value
            if (value) {
              finish(() => resolve(value as NonNullable<T>))
              return
            }
          } catch (error) {
            lastError = error
          }
        } while (again && !done)
      } finally {
        running = false
      }
    }
    const interval = setInterval(check, intervalMs)
    const timer = setTimeout(() => {
      finish(() => {
        const detail = lastError === undefined ? `last value: ${String(last)}` : `last error: ${String(lastError)}`
        reject(new Error(`${options.message ?? 'waitFor'} timed out after ${timeoutMs} ms (${detail})`))
      })
    }, timeoutMs)
    if (options.ctx !== undefined) {
      for (const name of options.events ?? []) {
        disposers.push(options.ctx.on(name as never, (() => void check()) as never))
      }
    }
    void check()
  })
}

/**
 * Resolve with the arguments of the next `name` event on `ctx` that passes
 * `filter`. Subscribe BEFORE triggering the action.
 */
export function nextEvent<A extends unknown[] = unknown[]>(
  ctx: Context,
  name: string,
  filter: (...args: A) => boolean = () => true,
  timeoutMs = PATIENCE_MS,
): Promise<A> {
  return new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`event "${name}" did not fire within ${timeoutMs} ms`))
    }, timeoutMs)
    const off = ctx.on(
      name as never,
      ((...args: A) => {
        if (!filter(...args)) return
        clearTimeout(timer)
        off()
        resolve(args)
      }) as never,
    )
  })
}

/**
 * `promise`, or a rejection saying `message` when it has not settled within
 * `timeoutMs` (for steps that must finish, e.g. a dispose: that they finish is
 * the claim; how fast is the bench's).
 */
export function settles<T>(promise: PromiseLike<T>, message: string, timeoutMs = PATIENCE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message}: not done after ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer))
}
