/**
 * The one state vocabulary: what a row reads as at every edge, from its
 * verdict (plan/verdict.ts) and, for a row that runs, its live state.
 *
 * Contract: pure, data only. A verdict that is not `runs` reads the same
 * word everywhere (`SETTLED_STATE`): `needs-trust` → `untrusted`, `skipped`
 * → `skipped`, `refused` → `invalid`, `disabled`, `shadowed`. A row that runs
 * reads `active` in `list` (`listState`: the documented `list --json`
 * values) and its live state in `status`, the web panel and the host
 * (`LiveState`: `dormant | installing | starting | mounted | failed |
 * stopped`, plus `idle` — known, not mounted: no agent of the project needs
 * it now); `doctor` probes it (`ok | failed | timeout`). `refused-file` is a
 * config file refused as a whole (plan/verdict.ts `fileVerdictOf`). Every
 * state union of the package (status rows, doctor results, list rows, the
 * panel) is built from these lists — add a state here, nowhere else. A row
 * that runs may also carry a detail (`ROW_DETAILS`: `tools-changed`, read
 * `tools changed — review`), written beside its state, never instead of it.
 * A row's signed approval (a verdict detail: `VerdictView.signature`) reads
 * `signatureWords` at every edge (`signed by alice (trusted)`, `signed by an
 * unknown key`, …) with its tone (`SIGNATURE_TONE`).
 *
 * @module
 */
import type { SignatureAnswer, SignatureState } from '../trust/state.ts'
import type { VerdictTag } from './verdict.ts'

/** What a row that does not run reads as, everywhere. */
export const SETTLED_STATE = {
  'needs-trust': 'untrusted',
  skipped: 'skipped',
  refused: 'invalid',
  disabled: 'disabled',
  shadowed: 'shadowed',
} as const satisfies Record<Exclude<VerdictTag, 'runs'>, string>

export type SettledState = (typeof SETTLED_STATE)[keyof typeof SETTLED_STATE]
export const SETTLED_STATES = Object.values(SETTLED_STATE) as SettledState[]

/** Where a row that runs is, in a host. */
export const LIVE_STATES = ['dormant', 'installing', 'starting', 'mounted', 'failed', 'stopped', 'idle'] as const
export type LiveState = (typeof LIVE_STATES)[number]

/** A status row's state: the live state of a row that runs, else its settled state. */
export const SERVER_STATES = [...LIVE_STATES, ...SETTLED_STATES] as const
export type ServerState = LiveState | SettledState

/** `list`'s state: `active` for a row that runs (nothing is started to know more), else its settled state. */
export type ListState = 'active' | SettledState
export const LIST_STATES: readonly ListState[] = ['active', ...SETTLED_STATES]

/**
 * A detail a row that runs may carry beside its state, the same words at every edge (`list`, `list --json`,
 * `status`, the web panel, the agent's prompt line): `tools-changed` — a trusted server offers tools that differ
 * from the ones pinned at trust (trust/tool-pins.ts); those are withheld until `dsh-mcp trust <name>`.
 */
export const ROW_DETAILS = ['tools-changed'] as const
export type RowDetail = (typeof ROW_DETAILS)[number]
export const DETAIL_TEXT: Readonly<Record<RowDetail, string>> = { 'tools-changed': 'tools changed — review' }

/** `doctor`'s state: the probe's answer for a row that runs, else its settled state (a shadowed row is never probed). */
export const PROBE_STATES = ['ok', 'failed', 'timeout'] as const
export type DoctorState = (typeof PROBE_STATES)[number] | Exclude<SettledState, 'shadowed'>

/** The word a verdict that does not run reads as; null for `runs` (its live state, probe or `active` says more). */
export function settledState(tag: VerdictTag): SettledState | null {
  return tag === 'runs' ? null : SETTLED_STATE[tag]
}

export function listState(tag: VerdictTag): ListState {
  return settledState(tag) ?? 'active'
}

/**
 * Whether a fork that is up reads as failed: mounted, holding no tools, while
 * its client reports an error (the status file says `failed`; reload retries it).
 */
export function readsFailed(mount: { state: string; error: string | null }, toolCount: number): boolean {
  return mount.state === 'mounted' && toolCount === 0 && !!mount.error
}

/** How a state is coloured at every edge (the CLI's paint, the panel's dot): one tone per word. */
export type Tone = 'ok' | 'warn' | 'error' | 'idle'
export const STATE_TONE: Readonly<Record<ServerState | ListState | DoctorState | 'unknown', Tone>> = {
  active: 'ok',
  mounted: 'ok',
  dormant: 'ok',
  ok: 'ok',
  installing: 'warn',
  starting: 'warn',
  untrusted: 'warn',
  skipped: 'warn',
  unknown: 'warn',
  failed: 'error',
  timeout: 'error',
  invalid: 'error',
  disabled: 'idle',
  shadowed: 'idle',
  idle: 'idle',
  stopped: 'idle',
}

/** The CLI's colour of a tone. */
export const TONE_COLOR = { ok: 'green', warn: 'yellow', error: 'red', idle: 'gray' } as const

/** The CLI colour of a state word (list, status, doctor). */
export function stateColor(state: keyof typeof STATE_TONE): (typeof TONE_COLOR)[Tone] {
  return TONE_COLOR[STATE_TONE[state]]
}

/**
 * Why a row that runs is `failed` or retrying: one typed value the host sets (host/mounts.ts) and every edge renders
 * with {@link causeText} — the host log, the status file and `dsh-mcp status`, the panel, the agent's prompt line.
 * Built from the command's name and counts only, never an env or header value.
 */
export type Cause =
  | { kind: 'command-not-found'; command: string }
  | { kind: 'not-executable'; command: string }
  | { kind: 'retrying'; attempt: number; max: number; delayMs: number; lost: boolean }
  | { kind: 'gave-up'; attempts: number }

/** What is left to do, said with every cause: the file is watched, so an edit applies without a restart. */
export const CAUSE_FIX = 'fix the file; it reloads live'

export function causeText(c: Cause): string {
  switch (c.kind) {
    case 'command-not-found':
      return `command not found: ${c.command} — ${CAUSE_FIX}`
    case 'not-executable':
      return `command not executable: ${c.command} — ${CAUSE_FIX}`
    case 'retrying': {
      const wait = c.delayMs >= 1000 ? `${Math.round(c.delayMs / 1000)} s` : `${c.delayMs} ms`
      return `${c.lost ? 'lost its connection' : 'could not start or connect'}; retry ${c.attempt} of ${c.max} in ${wait} (dsh-mcp logs shows why) — ${CAUSE_FIX}`
    }
    case 'gave-up':
      return `gave up after ${c.attempts} failed attempts (dsh-mcp logs shows why) — ${CAUSE_FIX}`
  }
}
/** A signed approval's detail, the same words at every edge (list, status, panel, prompt line, review). */
export function signatureWords(a: SignatureAnswer): string {
  switch (a.state) {
    case 'trusted':
      return `signed by ${a.signer ?? 'a listed signer'} (trusted)`
    case 'unknown-signer':
      return 'signed by an unknown key'
    case 'stale':
      return 'signed for an older version (changed since signed)'
    case 'bad':
      return 'bad signature (not valid for this project, server and version)'
    case 'revoked':
      return 'signature withdrawn by you (dsh-mcp untrust)'
    case 'no-verifier':
      return 'signature ignored: ssh-keygen not found'
    case 'file-refused':
      return 'signature ignored: .dsh/mcp.trust refused'
  }
}

/** Every signature state (the status file's schema reads them from here). */
export const SIGNATURE_STATES = [
  'trusted',
  'unknown-signer',
  'stale',
  'bad',
  'revoked',
  'no-verifier',
  'file-refused',
] as const satisfies readonly SignatureState[]

export const SIGNATURE_TONE: Readonly<Record<SignatureState, Tone>> = {
  trusted: 'ok',
  'unknown-signer': 'warn',
  stale: 'warn',
  bad: 'error',
  revoked: 'idle',
  'no-verifier': 'warn',
  'file-refused': 'error',
}
