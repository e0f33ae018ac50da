/**
 * What `dsh-mcp doctor` (and `list --check`) reports per server.
 *
 * Contract: `DoctorResult` is the stable JSON shape of `doctor --json` (spec
 * §5): every key is always present (absent facts are `null` or `[]`), so
 * consumers can rely on the exact key set. No field ever carries an env or
 * header value: `error`, `hint` and `stderrTail` are redacted before they
 * leave the engine.
 *
 * States, in order of cause (the first that applies wins):
 * - `invalid`  the entry (or its file) has errors; `error` has file:line:col
 * - `disabled` `enabled: false` (not a failure)
 * - `skipped`  a `${VAR}` without a default is not set: the host skips the
 *              server, so doctor does not start it either
 * - `untrusted` a project-layer server not trusted (or changed since): NOT
 *              started; `hint` carries the exact `dsh-mcp trust` command
 * - `ok` | `failed` | `timeout` the real connection (initialize + tools/list)
 *
 * @module
 */
import type { Scope } from '../config/layers.ts'
import type { DoctorState } from '../plan/states.ts'

/** The probe's answer for a row that runs, else the verdict's settled state (plan/states.ts, the one vocabulary). */
export type { DoctorState }

export interface DoctorResult {
  name: string
  scope: Scope
  file: string
  state: DoctorState
  toolCount: number
  tools: string[]
  /** initialize + tools/list wall time; `null` when no connection was attempted. */
  latencyMs: number | null
  /** One line: what went wrong; `null` when ok or disabled. */
  error: string | null
  /** One line: what to do about it; `null` when there is nothing to suggest. */
  hint: string | null
  /** `serverInfo` from initialize. */
  server: { name: string; version: string } | null
  /** Last lines the server wrote to stderr (stdio only, on failure), redacted. */
  stderrTail: string[]
}

/** Every key of a DoctorResult, in JSON order (tests assert the exact set). */
export const DOCTOR_RESULT_KEYS = [
  'name',
  'scope',
  'file',
  'state',
  'toolCount',
  'tools',
  'latencyMs',
  'error',
  'hint',
  'server',
  'stderrTail',
] as const

/** States that count as a broken server (doctor exits 1): everything but `ok` and `disabled`. */
export function isBroken(state: DoctorState): boolean {
  return state !== 'ok' && state !== 'disabled'
}
