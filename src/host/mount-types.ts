/**
 * The mount table's public shapes: a mount record, the table's options and
 * its interface (mounts.ts implements them; mounts.ts re-exports them).
 *
 * Contract: types only, no code. A `Mount` is `mounting` until it settles
 * `mounted` or `failed`; its `error` is redacted, its `cause` typed when
 * known (plan/states.ts); `launched` is the config the official client runs.
 *
 * @module
 */
import type { Fiber } from '@deepseek-ai/cordis'
import type { OfficialConfig } from '../config/official.ts'
import type { MountSpec } from '../plan/desired.ts'
import type { Cause } from '../plan/states.ts'
import type { Log } from './log.ts'
import type { RestartLimit } from './restart-budget.ts'

export type MountState = 'mounting' | 'mounted' | 'failed'

export interface Mount {
  readonly key: string
  readonly spec: MountSpec
  readonly effectiveName: string
  state: MountState
  /** Why it failed, or the official client's last connection error (redacted); `causeText(cause)` when typed. */
  error: string | null
  /** The typed cause of `error` when known (plan/states.ts): a missing command, the client's retries. */
  cause: Cause | null
  fiber: Fiber | undefined
  /** Resolves once the mount is mounted or failed. */
  readonly settled: Promise<void>
  readonly startedAt: number
  /** The config the official client runs (for stdio: through the launcher). */
  readonly launched: OfficialConfig
}

export interface MountTableOptions {
  mountTimeoutMs: number
  /** `$DSH_HOME`: server logs live in its `mcp-logs/`. */
  dshHome: string
  /** Crash-loop bound (default restart-budget.ts RESTART_LIMIT). */
  restartLimit?: RestartLimit
  /** Rotation size of the server logs. */
  logMaxBytes?: number
  log: Log
  /** Names the host took from the repository's `.env` (project-env.ts): unset for each server unless its entry sets them. */
  projectEnv(): readonly string[]
  /** The project roots agents run in (host/launch.ts: no bare command resolves into one). */
  checkouts?(): readonly string[]
  /** A mount settled, or a drain finished (status and visibility may change). */
  onChange(): void
  /** A mount failed because an mcp-client that is not ours holds its name: it may be retried under another. */
  onNameTaken(key: string): void
}

export interface MountTable {
  readonly mounts: ReadonlyMap<string, Mount>
  mount(spec: MountSpec, effectiveName: string): Mount
  /** Forget a mount; its fork is disposed in the background. Resolves when that dispose is done. */
  unmount(key: string, reason: string): Promise<void>
  /** Names in use: key → name for live mounts, plus names held by draining forks and by mcp-clients not ours. */
  held(): Map<string, string>
  /** Effective name → key (`null` while draining): the ownership table. */
  owners(): Map<string, string | null>
  /** Resolves once no mount is `mounting`. */
  settledAll(): Promise<void>
  /** Disposes of forks that were mounted (prompt unless the server misbehaves); abandoned forks are not listed. */
  readonly drains: ReadonlySet<Promise<void>>
  /** Unmount everything and wait for every dispose, at most `boundMs` (a hung one finishes in the background). */
  disposeAll(boundMs: number): Promise<void>
}
