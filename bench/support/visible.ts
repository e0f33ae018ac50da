/**
 * The instant a condition on the tool registry first holds, observed from
 * inside the synchronous `tools/change` event (so the time is that of the
 * registration itself, not of a later poll).
 *
 * Contract: resolves with `performance.now()` at the first `tools/change`
 * (or the immediate check) where `predicate()` is true; rejects after
 * `timeoutMs`. The listener is removed either way.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'

export function whenTools(ctx: Context, predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let done = false
    const finish = (fn: () => void) => {
      done = true
      off()
      clearTimeout(timer)
      fn()
    }
    const check = () => {
      if (done) return
      let ok = false
      try {
        ok = predicate()
      } catch {
        // A throwing predicate counts as "not yet"; the next tools/change checks again.
      }
      if (ok) {
        const at = performance.now()
        finish(() => resolve(at))
      }
    }
    const off = ctx.on('tools/change', check)
    const timer = setTimeout(
      () => finish(() => reject(new Error(`${what}: not seen within ${timeoutMs} ms`))),
      timeoutMs,
    )
    check()
  })
}

/** Whether `agent` (or the global view) sees a tool named `name`. */
export function sees(ctx: Context, name: string, agent?: Parameters<Context['tools']['schemas']>[0]): boolean {
  return ctx.tools.schemas(agent).some((s) => s.name === name)
}
