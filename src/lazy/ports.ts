/**
 * What the lazy layer is handed by the host: the slice of the mount table
 * and of the log it uses, as interfaces of its own, so `src/lazy` depends on
 * `src/plan` / `src/config` and these ports — never on a `src/host` module.
 *
 * Contract: types only. The host's `createMountTable` (src/host/mounts.ts)
 * and `createLog` (src/host/log.ts) satisfy them structurally; a test may
 * hand any object of this shape.
 *
 * @module
 */
import type { MountSpec } from '../plan/desired.ts'

/** One mount as the lazy layer reads it (the host's `Mount`). */
export interface LazyMount {
  readonly key: string
  readonly spec: MountSpec
  readonly effectiveName: string
  readonly state: 'mounting' | 'mounted' | 'failed'
  /** Why it failed, or the official client's last connection error (redacted). */
  readonly error: string | null
  /** Resolves once the mount is mounted or failed. */
  readonly settled: Promise<void>
}

/** The mount table as the lazy layer uses it: read the mounts, mount one, unmount one. */
export interface LazyMounts {
  readonly mounts: ReadonlyMap<string, LazyMount>
  mount(spec: MountSpec, effectiveName: string): LazyMount
  unmount(key: string, reason: string): Promise<void>
}

type Method = (format: string, ...args: unknown[]) => void

/** The host's log as the lazy layer uses it (every argument already redacted by the caller). */
export interface LazyLog {
  info: Method
  debug: Method
  once(key: string, level: 'info' | 'warn' | 'error', message: string): void
}
