/**
 * Forks being disposed: their names stay held until each dispose is done.
 *
 * Contract: `drain(fiber, name, awaited)` disposes `fiber` in the background
 * (from a microtask: never inside the caller's step) and resolves once that
 * dispose settled — a failing dispose is logged at debug, never thrown —
 * then calls `onDone`. While it runs, `names()` lists `name` (the official
 * client still reserves it, and the fork's tools belong to nobody). A drain
 * marked `awaited` (a fork that was mounted: its dispose is prompt unless
 * the server misbehaves) is in `awaited` until done, what `whenIdle` waits
 * for; every drain, abandoned ones included, is what `settle(boundMs)` waits
 * for, at most `boundMs`, answering how many are still running.
 *
 * @module
 */
import type { Fiber } from '@deepseek-ai/cordis'
import type { Log } from './log.ts'

export class Drains {
  /** Disposes of forks that were mounted (prompt unless the server misbehaves). */
  readonly awaited = new Set<Promise<void>>()
  readonly #all = new Set<Promise<void>>()
  readonly #names = new Map<symbol, string>()
  readonly #log: Log
  readonly #onDone: () => void

  constructor(log: Log, onDone: () => void) {
    this.#log = log
    this.#onDone = onDone
  }

  names(): IterableIterator<string> {
    return this.#names.values()
  }

  drain(fiber: Fiber, name: string, awaited: boolean): Promise<void> {
    const id = Symbol(name)
    this.#names.set(id, name)
    const p: Promise<void> = Promise.resolve()
      .then(() => fiber.dispose())
      .then(
        () => undefined,
        (error: unknown) => this.#log.debug('dispose of %s failed: %s', name, String(error)),
      )
      .finally(() => {
        this.#names.delete(id)
        this.awaited.delete(p)
        this.#all.delete(p)
        this.#onDone()
      })
    if (awaited) this.awaited.add(p)
    this.#all.add(p)
    return p
  }

  /** Wait for every dispose, at most `boundMs`; answers how many still run (they finish in the background). */
  async settle(boundMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined
    const bound = new Promise<void>((r) => {
      timer = setTimeout(r, boundMs)
      timer.unref?.()
    })
    await Promise.race([Promise.allSettled([...this.#all]), bound])
    clearTimeout(timer)
    return this.#all.size
  }
}
