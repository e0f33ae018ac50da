/**
 * The runtime's state in one object, and the signals its services send each
 * other (runtime.ts wires them; the services it wires read and write the
 * state).
 *
 * Contract: `RuntimeState.plan` is the last plan computed (a new project's
 * is computed on the spot when its first agent arrives); `userLayers` is the
 * user file as last read; `disposed` is set once, by dispose, and every
 * handler checks it. `retryFailed` (set by `reload()`), `retryKeys` (failed
 * mounts to try again under a new name) and `lostKeys` (HTTP mounts whose
 * server lost their session) are consumed by the next reconcile; `renames`
 * counts how often each key was renamed around a name held by an mcp-client
 * that is not ours. `visibleFor(state)` answers what an agent of a root may
 * see (a project not planned yet sees the global view), one `Visible` per
 * placement list. A `Signal` lets a service created early notify listeners
 * wired after it: `on` adds a listener, `fire` calls every listener in order
 * (none yet: nothing happens); `createSignals()` makes the runtime's
 * (`RuntimeSignals`). `late()` holds a service that two services need of
 * each other; `get()` before `set()` throws.
 *
 * @module
 */
import type { LayerInput } from '../config/layers.ts'
import type { Placement, Plan } from '../plan/desired.ts'
import { type Visible, visibleOf } from '../plan/visibility.ts'

export interface RuntimeState {
  plan: Plan
  userLayers: LayerInput[]
  disposed: boolean
  /** `reload()` asked to try failed servers again. */
  retryFailed: boolean
  /** Failed keys to mount again under a new name (another mcp-client holds theirs). */
  retryKeys: Set<string>
  /** HTTP mounts whose server lost their session: remounted on the next reconcile. */
  lostKeys: Set<string>
  /** How often each key was renamed around a name not ours. */
  renames: Map<string, number>
}

export function createRuntimeState(): RuntimeState {
  return {
    plan: { global: [], projects: new Map(), mounts: new Map() },
    userLayers: [],
    disposed: false,
    retryFailed: false,
    retryKeys: new Set(),
    lostKeys: new Set(),
    renames: new Map(),
  }
}

/** What an agent of `root` may see, from the state's current plan (null: outside any project). */
export function visibleFor(state: RuntimeState): (root: string | null) => Visible {
  const maps = new WeakMap<readonly Placement[], Visible>()
  return (root) => {
    const placements = root === null ? state.plan.global : (state.plan.projects.get(root) ?? state.plan.global)
    let visible = maps.get(placements)
    if (!visible) {
      visible = visibleOf(placements)
      maps.set(placements, visible)
    }
    return visible
  }
}

export interface Signal<T = void> {
  on(listener: (value: T) => void): void
  fire(value: T): void
}

export function signal<T = void>(): Signal<T> {
  const listeners: ((value: T) => void)[] = []
  return {
    on: (listener) => void listeners.push(listener),
    fire(value) {
      for (const l of listeners) l(value)
    },
  }
}

/** The signals between the runtime's services. */
export interface RuntimeSignals {
  /** A reconcile is wanted. */
  wanted: Signal
  /** A mount or a lazy server changed state: views and status follow. */
  changed: Signal<'mounts' | 'lazy'>
  /** A project had no agent for the grace period (its root). */
  expired: Signal<string>
}

export function createSignals(): RuntimeSignals {
  return { wanted: signal(), changed: signal(), expired: signal() }
}

export interface Late<T> {
  set(value: T): void
  get(): T
}

export function late<T>(what: string): Late<T> {
  let held: { value: T } | undefined
  return {
    set(value) {
      held = { value }
    },
    get() {
      if (!held) throw new Error(`${what} used before the runtime wired it`)
      return held.value
    },
  }
}
