/**
 * One lazy server's record: its state, where its registered tools come from,
 * its calls in flight and its timers and pending steps.
 *
 * Contract: data and two helpers only. `newServer(spec, name, state)` makes
 * the record of a server entering the lazy set (`dormant`: its tools come
 * from the cache; otherwise from the live fork); `clearTimer(s)` stops its
 * idle timer. The states and what moves a server between them are
 * servers.ts's.
 *
 * @module
 */
import type { MountSpec } from '../plan/desired.ts'

export type LazyState = 'dormant' | 'waking' | 'live' | 'releasing'

export interface LazyServer {
  readonly key: string
  readonly spec: MountSpec
  readonly name: string
  state: LazyState
  /** Where its registered tools come from right now. */
  source: 'cache' | 'live'
  lastUsedAt: number | null
  /** Why the last start failed (redacted by the mount table). */
  error: string | null
  inflight: number
  unregister: (() => void) | undefined
  timer: NodeJS.Timeout | undefined
  waking: Promise<WakeOutcome> | undefined
  releasing: Promise<void> | undefined
}

export type WakeOutcome = { ok: true } | { ok: false; reason: string }

export function newServer(spec: MountSpec, name: string, state: LazyState): LazyServer {
  return {
    key: spec.key,
    spec,
    name,
    state,
    source: state === 'dormant' ? 'cache' : 'live',
    lastUsedAt: null,
    error: null,
    inflight: 0,
    unregister: undefined,
    timer: undefined,
    waking: undefined,
    releasing: undefined,
  }
}

export function clearTimer(s: LazyServer): void {
  clearTimeout(s.timer)
  s.timer = undefined
}
