/**
 * The host's half of signed team approvals (docs/guide/trust.md "Teams"):
 * each known project's committed `.dsh/mcp.trust`, judged against the
 * user's own `trustedSigners`.
 *
 * Contract:
 * - `prepare(roots, user)` runs at every reconcile, after the layers were
 *   read: the signers come from the user layer's file only (a repository
 *   file's `trustedSigners` never reaches here: config/read-document.ts);
 *   each root's team file is read again (a link or unreadable file →
 *   `file-refused` for its rows, warned once per root and reason) and every
 *   record by a listed signer is verified with `ssh-keygen -Y verify`
 *   (async; results cached). With no `ssh-keygen` on `PATH`, signatures are
 *   ignored and that is warned once.
 * - `check(root, row)` (sync, the plan's `team` seam; a root not seen by the
 *   last prepare — a project judged on the spot — is read and verified
 *   synchronously once) answers the pure
 *   `judgeSigned` verdict with the cached result: trust/state.ts
 *   `SignatureAnswer`, or undefined when the row has no signed record.
 *   `revoked(root, name)` (the personal store's `untrust` marks) is asked
 *   through the trust gate, so a store that cannot be used never lets a
 *   signature count (the plan does not ask then).
 * - `files(roots)`: the team file of each root, watched so a new signature
 *   or its removal applies live (the user file is watched as a layer, so
 *   removing a signer applies live too).
 *
 * @module
 */
import { rowFingerprint } from '../config/fingerprint.ts'
import type { LayerInput, Row } from '../config/layers.ts'
import type { TrustedSigner } from '../config/signers.ts'
import type { TeamTrustFile } from '../trust/signed.ts'
import type { SignatureAnswer } from '../trust/state.ts'
import { rowFiles } from '../trust/row-files.ts'
import { createTeamJudge, keygenCheckouts, projectPathOf, readTeamTrust, teamTrustPath } from '../trust/team.ts'
import type { Log } from './log.ts'

export interface TeamGate {
  prepare(roots: readonly string[], user: readonly LayerInput[]): Promise<void>
  check(root: string, row: Row): SignatureAnswer | undefined
  files(roots: readonly string[]): string[]
}

export interface TeamGateOptions {
  env: Readonly<Record<string, string | undefined>>
  log: Pick<Log, 'warn'>
  /** Whether the user withdrew the team signature of `name` in `root` (trust-gate.ts `revoked`). */
  revoked(root: string, name: string): boolean
}

export function createTeamGate(opts: TeamGateOptions): TeamGate {
  /** Every root seen: ssh-keygen is never found inside one of them (or their repositories). */
  const known = new Set<string>()
  const judge = createTeamJudge(opts.env, () => keygenCheckouts(known, opts.env))
  let signers: readonly TrustedSigner[] = []
  /** Per root as of the last prepare: its team file read (null: none). */
  let perRoot = new Map<string, { project: string; file: TeamTrustFile; problem?: string } | null>()
  const warned = new Set<string>()
  const warnOnce = (key: string, fmt: string, ...args: unknown[]) => {
    if (warned.has(key)) return
    warned.add(key)
    opts.log.warn(fmt, ...args)
  }

  type Seen = { project: string; file: TeamTrustFile; problem?: string } | null
  const readRoot = (root: string): Seen => {
    known.add(root)
    const read = readTeamTrust(root)
    if (read.absent) return null
    if (read.problem) warnOnce(`${root}\0${read.problem}`, 'signed approvals ignored for %s: %s', root, read.problem)
    for (const p of read.problems) warnOnce(`${root}\0${p}`, '%s', p)
    return { project: projectPathOf(root), file: read.file, ...(read.problem ? { problem: read.problem } : {}) }
  }
  return {
    async prepare(roots, user) {
      signers = user.flatMap((l) => l.parsed.trustedSigners ?? [])
      const next = new Map<string, Seen>()
      for (const root of roots) {
        const got = readRoot(root)
        next.set(root, got)
        if (got && !got.problem && signers.length > 0) await judge.prepare(got.file, got.project, signers)
      }
      perRoot = next
      if (next.size > 0 && signers.length > 0 && !judge.verifier())
        warnOnce('no-verifier', 'signed approvals are ignored: ssh-keygen was not found on PATH')
    },
    check(root, row) {
      let got = perRoot.get(root)
      // A project first seen between reconciles (judged on the spot): read and verified now, once.
      if (got === undefined) {
        got = readRoot(root)
        perRoot.set(root, got)
        if (got && !got.problem && signers.length > 0) judge.prepareSync(got.file, got.project, signers)
      }
      if (!got || !row.entry) return undefined
      if (got.problem) return { state: 'file-refused' }
      const record = Object.hasOwn(got.file.servers, row.name) ? got.file.servers[row.name] : undefined
      return judge.answer({
        record,
        project: got.project,
        name: row.name,
        fingerprint: rowFingerprint(row),
        files: rowFiles(row, root),
        signers,
        revoked: opts.revoked(root, row.name),
      })
    },
    files: (roots) => roots.map(teamTrustPath),
  }
}
