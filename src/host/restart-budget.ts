/**
 * The crash-loop bound: how many times one mount's server may lose an
 * established connection (and be started again by the official client)
 * within a sliding window.
 *
 * Why: the official client's attempt budget resets whenever a connection
 * stays up past its stability window (`reconnect.maxDelayMs`), so a server
 * that initializes and dies every ~1.5 s under a short `maxDelayMs` is
 * restarted forever. This count never resets on a successful connect.
 *
 * Contract: pure (the caller passes the time). `lost(now)` records one loss
 * and returns true when that loss is more than `max` within the last
 * `windowMs` — the mount must then fail and stop. `describe()` is the
 * reason text for the status row.
 *
 * @module
 */

export const RESTART_LIMIT = { max: 5, windowMs: 60_000 } as const

export interface RestartLimit {
  max: number
  windowMs: number
}

export interface RestartBudget {
  lost(now: number): boolean
  describe(): string
}

export function restartBudget(limit: RestartLimit = RESTART_LIMIT): RestartBudget {
  const times: number[] = []
  return {
    lost(now) {
      times.push(now)
      while (times.length > 0 && now - (times[0] as number) > limit.windowMs) times.shift()
      return times.length > limit.max
    },
    describe() {
      return `crash loop: the server stopped ${times.length} times within ${Math.round(limit.windowMs / 1000)} s after starting; it is not restarted again — fix it, then reload (or edit its entry)`
    },
  }
}
