/**
 * The trust gate (docs/guide/trust.md): which project-layer rows may mount.
 *
 * Contract:
 * - `check(root, row)` answers `trusted | untrusted | changed | store-problem`
 *   for a row that needs trust (any repository contribution; a row from the
 *   user's file alone is answered `trusted`; a row without an entry is never
 *   trusted): `trustStateOf(store, canonicalRoot(root), row.name,
 *   rowFingerprint(row))`. A store that cannot be used for the root (see
 *   store.ts: unreadable, invalid, a symbolic link, another user's, group- or
 *   world-writable, or inside the project) answers `store-problem` for every
 *   such row — fail closed — and `storeProblem(root)` says why and how to
 *   repair it. A repository can never trust itself.
 * - `refresh()` runs at the start of every reconcile: the next `check`
 *   reads the store file again (once per refresh; whether it may be used
 *   is judged once per root per refresh). A fingerprint is computed once
 *   per entry object (parsed entries are never mutated).
 * - `files()` is `[trustFilePath(dshHome)]` while the gate is on, so the
 *   runtime watches the store (create, change, delete) and trusting or
 *   untrusting takes effect live.
 * - Off (every row trusted, no file watched) with `mode: 'all'` or env
 *   `DSH_MCP_TRUST_ALL=1`; the env is read at each call.
 * - Warnings: one per server and fingerprint — not per reconcile — naming
 *   the server, its file and project, whether it is new or changed since
 *   trusted, and the exact command to run (`dsh-mcp trust -C <root>
 *   <name>`, quoted as needed). A server seen trusted re-arms its warning.
 *   An ignored store is reported once per project and reason. Messages hold
 *   names and paths only, never an env or header value. A row that the team
 *   seam (`team`, team-gate.ts) answers `trusted` is not warned about; any
 *   other signature answer is named in the warning (plan/states.ts words).
 * - `revoked(root, name)`: the store's `untrust` mark for a signed row (true
 *   while the store cannot be used: fail closed).
 * - `pinned(root, name)`: a row the last `check` answered `trusted` from the
 *   store, or one the team seam answered `trusted` (`signed`: its pins live
 *   in the store's `signedTools`, keyed by project, name and the signed
 *   fingerprint), with its pinned tools (host/tool-pins.ts withholds what
 *   differs from them).
 *
 * @module
 */
import path from 'node:path'
import { rowFingerprint } from '../config/fingerprint.ts'
import type { Row } from '../config/layers.ts'
import type { TrustFn } from '../plan/desired.ts'
import { trustCommand } from '../trust/command.ts'
import { signatureWords } from '../plan/states.ts'
import {
  emptyTrustStore,
  needsTrust,
  revokedIn,
  type SignatureAnswer,
  signedPinsOf,
  type TrustState,
  type TrustStore,
  trustGateOff,
  trustRecordOf,
  trustStateOf,
} from '../trust/state.ts'
import { canonicalRoot, loadTrustStore, trustFilePath, trustStoreRefusal } from '../trust/store.ts'
import type { Log } from './log.ts'
import type { PinSubject } from './tool-pins.ts'
import { samePins } from '../trust/tool-pins.ts'

export interface TrustGate {
  check: TrustFn
  /** What is wrong with the store for `root` (as of the last refresh), or undefined; always undefined while the gate is off. */
  storeProblem(root: string): string | undefined
  files(): string[]
  refresh(): void
  /** Whether the user withdrew the team signature of `name` in `root` (`dsh-mcp untrust`; true while the store cannot be used). */
  revoked(root: string, name: string): boolean
  /**
   * The row `name` of `root` as last checked, when it needed trust and the store trusted it (never with the
   * gate off): its canonical root, fingerprint and pinned tools (tool-pins.ts, host/tool-pins.ts).
   */
  pinned(root: string, name: string): PinSubject | undefined
  /** Changes whenever what `pinned` answers for some row changed (new pins, a row no longer trusted). */
  pinsVersion(): number
}

export interface TrustGateOptions {
  mode: 'require' | 'all'
  dshHome: string
  env: Readonly<Record<string, string | undefined>>
  log: Pick<Log, 'warn'>
  /** The team seam (team-gate.ts): a row its signature lets run is not warned about. */
  team?: (root: string, row: Row) => SignatureAnswer | undefined
}

export function createTrustGate(opts: TrustGateOptions): TrustGate {
  const off = () => opts.mode === 'all' || trustGateOff(opts.env)
  /** Per root since the last refresh: its canonical form and the store as read for it. */
  let seen = new Map<string, { canonical: string; store: TrustStore; problem: string | undefined }>()
  /** The store as read since the last refresh, and its own problem (a store inside a project is judged per root, above). */
  let shared: { store: TrustStore; refused: string | undefined } | undefined
  const fingerprints = new WeakMap<object, string>()
  const fingerprintOf = (row: Row) => {
    // A locked row's pin (lock/pin.ts) is made with the row: it keys the fingerprint that covers the lock too.
    const key: object = row.lock ?? row.entry!
    let fp = fingerprints.get(key)
    if (fp === undefined) {
      fp = rowFingerprint(row)
      fingerprints.set(key, fp)
    }
    return fp
  }
  /** root\0name → verdict\0fingerprint last warned about. */
  const warned = new Map<string, string>()
  /** Store refusals already reported, root\0reason. */
  const refusals = new Set<string>()
  /** root\0name → the row as last trusted through the store (its pins). */
  const subjects = new Map<string, PinSubject>()
  let pinsVersion = 0

  const storeFor = (root: string): { canonical: string; store: TrustStore; problem: string | undefined } => {
    let got = seen.get(root)
    if (!got) {
      const canonical = canonicalRoot(root)
      shared ??= loadTrustStore(opts.dshHome)
      const refused = shared.refused ?? trustStoreRefusal(opts.dshHome, canonical)
      if (!refused) for (const k of [...refusals]) if (k.startsWith(`${canonical}\0`)) refusals.delete(k)
      got = { canonical, store: refused ? emptyTrustStore() : shared.store, problem: refused }
      seen.set(root, got)
    }
    return got
  }

  const warn = (root: string, row: Row, verdict: 'untrusted' | 'changed', fingerprint: string) => {
    const key = `${root}\0${row.name}`
    const team = opts.team?.(root, row)
    if (team?.state === 'trusted') {
      warned.delete(key)
      return
    }
    const state = `${verdict}\0${fingerprint}\0${team?.state ?? ''}`
    if (warned.get(key) === state) return
    warned.set(key, state)
    const where = `${row.scope} server "${row.name}" (${path.relative(root, row.file) || row.file} in ${root})`
    const what =
      verdict === 'changed'
        ? 'changed since trusted: it is stopped until trusted again'
        : 'is not trusted, so it was not started'
    const signed = team ? ` (${signatureWords(team)})` : ''
    opts.log.warn('%s %s%s; review it, then run: %s', where, what, signed, trustCommand(root, row.name))
  }

  /** The gate's answer for one row; a row trusted through the store is recorded as a pin subject under `id`. */
  const judge = (root: string, row: Row, id: string): TrustState => {
    if (off() || !needsTrust(row)) return 'trusted'
    if (!row.entry) return 'untrusted'
    const { canonical, store, problem } = storeFor(root)
    if (problem) {
      if (!refusals.has(`${canonical}\0${problem}`)) {
        refusals.add(`${canonical}\0${problem}`)
        opts.log.warn('the trust store is ignored for %s (its servers are stopped): %s', canonical, problem)
      }
      return 'store-problem'
    }
    const fingerprint = fingerprintOf(row)
    const verdict = trustStateOf(store, canonical, row.name, fingerprint)
    if (verdict === 'trusted') {
      warned.delete(`${root}\0${row.name}`)
      const tools = trustRecordOf(store, canonical, row.name)?.tools
      subjects.set(id, { canonical, fingerprint, tools })
    } else {
      warn(root, row, verdict, fingerprint)
      // A row that runs on a team signature is pinned too, in the user's own store (red team r3 MEDIUM-1).
      if (opts.team?.(root, row)?.state === 'trusted')
        subjects.set(id, {
          canonical,
          fingerprint,
          tools: signedPinsOf(store, canonical, row.name, fingerprint),
          signed: true,
        })
    }
    return verdict
  }

  return {
    check(root: string, row: Row): TrustState {
      const id = `${root}\0${row.name}`
      const before = subjects.get(id)
      subjects.delete(id)
      const answer = judge(root, row, id)
      const after = subjects.get(id)
      // Only a move in what `pinned` answers counts (the same pins read again from a re-read store do not).
      const same =
        before && after
          ? before.fingerprint === after.fingerprint && samePins(before.tools, after.tools)
          : before === after
      if (!same) pinsVersion++
      return answer
    },
    storeProblem: (root) => (off() ? undefined : storeFor(root).problem),
    revoked(root, name) {
      const { canonical, store, problem } = storeFor(root)
      return problem !== undefined || revokedIn(store, canonical, name)
    },
    files: () => (off() ? [] : [trustFilePath(opts.dshHome)]),
    pinned: (root, name) => (off() ? undefined : subjects.get(`${root}\0${name}`)),
    pinsVersion: () => pinsVersion,
    refresh() {
      seen = new Map()
      shared = undefined
    },
  }
}
