/**
 * `dsh-mcp trust --sign <key>`: sign the approvals just reviewed into the
 * project's committed `.dsh/mcp.trust` (docs/guide/trust.md "Teams").
 *
 * Contract: needs `ssh-keygen` on `PATH` (else a failure naming it); the key
 * is an SSH private key path (its `.pub` beside it, or `ssh-keygen -y`).
 * For each server: `ssh-keygen -Y sign -n dsh-mcp` over trust/signed.ts
 * `signedPayload` — the project's path relative to its repository, the
 * server name, its trust fingerprint, the hashes of the repository files
 * the row names directly (trust/row-files.ts) and the timestamp — and one record
 * (name, fingerprint, signer label and public key, timestamp, signature)
 * replaced in the file (other servers' records kept; a link at the path is
 * refused: trust/team-write.ts). A server your own local or user file merges
 * into is refused (teammates do not have those files). The label is the key's comment, else the
 * key file's name: a reader's own `trustedSigners` label is what they see.
 *
 * @module
 */
import path from 'node:path'
import { contributors, type Row } from '../config/layers.ts'
import { rowFiles } from '../trust/row-files.ts'
import { signedPayload } from '../trust/signed.ts'
import { findSshKeygen, keygenEnv, publicKeyOf, signPayload } from '../trust/ssh.ts'
import { keygenCheckouts, projectPathOf, teamTrustPath } from '../trust/team.ts'
import { writeTeamTrust } from '../trust/team-write.ts'
import { failure } from './errors.ts'
import type { CliContext } from './program.ts'

/** Throws when these servers cannot be signed (checked before the review asks anything). */
export function checkSignable(cli: CliContext, servers: readonly { name: string; row: Row }[]): string {
  // A teammate has no copy of the signer's own files: a signature over them would never match their row.
  const personal = servers.filter((s) => contributors(s.row).some((c) => c.scope === 'local' || c.scope === 'user'))
  if (personal.length > 0)
    throw failure(
      `cannot sign ${personal.map((s) => s.name).join(', ')}: your own local or user file merges into ${personal.length === 1 ? 'it' : 'them'}, which your teammates do not have (sign from a checkout without those overrides)`,
    )
  const bin = findSshKeygen(cli.env, keygenCheckouts([cli.cwd], cli.env))
  if (!bin) throw failure('cannot sign: ssh-keygen was not found on PATH (install OpenSSH)')
  return bin
}

export function signApprovals(
  cli: CliContext,
  root: string,
  keyFile: string,
  servers: readonly { name: string; fingerprint: string; row: Row }[],
): void {
  const bin = checkSignable(cli, servers)
  const env = keygenEnv(cli.env, keygenCheckouts([cli.cwd, root], cli.env))
  const key = path.resolve(cli.cwd, keyFile)
  let pub: ReturnType<typeof publicKeyOf>
  try {
    pub = publicKeyOf(bin, key, env)
  } catch (err) {
    throw failure(`cannot sign with ${keyFile}: ${(err as Error).message.split('\n')[0]}`)
  }
  const label = (pub.comment ?? path.basename(key)).slice(0, 64)
  const project = projectPathOf(root)
  const signedAt = new Date().toISOString()
  try {
    const records = servers.map((s) => ({
      name: s.name,
      files: rowFiles(s.row, root),
    }))
    const signed = records.map((r, i) => ({
      name: r.name,
      record: {
        fingerprint: servers[i]!.fingerprint,
        ...(r.files ? { files: r.files } : {}),
        signer: { label, key: { type: pub.type, body: pub.body } },
        signedAt,
        signature: signPayload(bin, key, signedPayload({ project, ...servers[i]!, files: r.files, signedAt }), env),
      },
    }))
    writeTeamTrust(root, (file) => {
      for (const r of signed) file.servers[r.name] = r.record
    })
  } catch (err) {
    throw failure((err as Error).message)
  }
  const file = teamTrustPath(root)
  cli.out.err(
    `signed: ${servers.map((s) => s.name).join(', ')} into ${path.relative(cli.cwd, file) || file} as ${label} (${pub.type}); commit it`,
  )
}
