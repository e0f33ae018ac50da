/**
 * Signed team approvals as the CLI reads them: the project's committed
 * `.dsh/mcp.trust` judged against the user's own `trustedSigners` (the user
 * layer only), verified with `ssh-keygen -Y verify` before anything is
 * presented (trust/team.ts), handed to the verdict as a typed answer.
 *
 * Contract: `teamSeam(root, layers, store, env)` reads the file once, verifies
 * every record by a listed signer once (synchronously: the CLI prints after),
 * and returns the verdict's `team` seam plus notes for stderr (a refused
 * file; dropped records; no `ssh-keygen`, so signatures are ignored). With no
 * file it returns no seam and no notes. A withdrawn signature (`untrust`'s
 * mark in the personal store) answers `revoked`.
 *
 * @module
 */
import { rowFingerprint } from '../config/fingerprint.ts'
import type { LayerInput, Row } from '../config/layers.ts'
import { rowFiles } from '../trust/row-files.ts'
import { revokedIn, type SignatureAnswer, type TrustStore } from '../trust/state.ts'
import { canonicalRoot } from '../trust/store.ts'
import { createTeamJudge, keygenCheckouts, projectPathOf, readTeamTrust } from '../trust/team.ts'

export interface TeamSeam {
  team?: (row: Row) => SignatureAnswer | undefined
  notes: string[]
}

export function teamSeam(
  root: string,
  layers: readonly LayerInput[],
  store: TrustStore,
  env: Readonly<Record<string, string | undefined>>,
): TeamSeam {
  const read = readTeamTrust(root)
  if (read.absent) return { notes: [] }
  const notes = [...read.problems.map((p) => `warning: ${p}`)]
  if (read.problem) {
    notes.push(`warning: signed approvals ignored: ${read.problem}`)
    return { team: (row) => (row.entry ? { state: 'file-refused' } : undefined), notes }
  }
  const signers = layers.filter((l) => l.layer.scope === 'user').flatMap((l) => l.parsed.trustedSigners ?? [])
  const project = projectPathOf(root)
  const checkouts = keygenCheckouts([root], env)
  const judge = createTeamJudge(env, () => checkouts)
  if (signers.length > 0) judge.prepareSync(read.file, project, signers)
  if (!judge.verifier()) notes.push('warning: signed approvals are ignored: ssh-keygen was not found on PATH')
  const canonical = canonicalRoot(root)
  return {
    team: (row) => {
      if (!row.entry) return undefined
      const record = Object.hasOwn(read.file.servers, row.name) ? read.file.servers[row.name] : undefined
      return judge.answer({
        record,
        project,
        name: row.name,
        fingerprint: rowFingerprint(row),
        files: rowFiles(row, root),
        signers,
        revoked: revokedIn(store, canonical, row.name),
      })
    },
    notes,
  }
}
