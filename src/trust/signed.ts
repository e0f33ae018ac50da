/**
 * Signed team approvals: the committed `.dsh/mcp.trust` of a project
 * (docs/guide/trust.md "Teams"), its canonical signed payload, and what a
 * record says for a row.
 *
 * Contract: pure (no fs, no child process). The file is JSON, `version: 1`,
 * `servers` by name in sorted order, each `{ fingerprint, signer: { label,
 * key }, signedAt, signature }` (`encodeTeamTrust` writes keys in one fixed
 * order, so a re-sign of an unchanged set changes only what changed).
 * `decodeTeamTrust` keeps only well-formed records (anything else is a
 * problem line, never a value). `signedPayload` is the exact text signed
 * with `ssh-keygen -Y sign -n dsh-mcp`: it binds the project's path relative
 * to its repository (`.` for a repository root; nested projects of a
 * monorepo each have their own file and path), the server name, its trust
 * fingerprint (config/fingerprint.ts `rowFingerprint`) and the timestamp —
 * so a signature cannot be replayed for another row, another server name or
 * another project. `judgeSigned` says what a record means for a row whose
 * current fingerprint is `fingerprint`, in this order: revoked by the user
 * → `revoked`; another fingerprint or other file hashes → `stale`; a key the user does not list
 * → `unknown-signer`; no `ssh-keygen` → `no-verifier`; else the edge's
 * `verify` (true → `trusted` with the user's own label, false → `bad`). The
 * label written in the file is never shown as a trusted name.
 *
 * @module
 */
import { isRecord } from '../config/guards.ts'
import { keyText, type PublicKey, parsePublicKey, sameKey, type TrustedSigner } from '../config/signers.ts'
import type { SignatureAnswer } from './state.ts'

export const TEAM_TRUST_FILE = '.dsh/mcp.trust'
export const MAX_TEAM_TRUST_BYTES = 256 * 1024

/** The repository files a row names directly (trust/row-files.ts): `/`-separated path → sha256 hex of its bytes. */
export type RowFiles = Readonly<Record<string, string>>

export interface SignedRecord {
  fingerprint: string
  /** The files the row named when it was signed (absent: none). */
  files?: RowFiles
  signer: { label: string; key: PublicKey }
  signedAt: string
  /** The armored SSH signature (`-----BEGIN SSH SIGNATURE-----` …). */
  signature: string
}

export interface TeamTrustFile {
  version: 1
  servers: Record<string, SignedRecord>
}

export function emptyTeamTrust(): TeamTrustFile {
  return { version: 1, servers: Object.create(null) as Record<string, SignedRecord> }
}

/** The text `ssh-keygen -Y sign -n dsh-mcp` signs for one row. */
export function signedPayload(p: {
  project: string
  name: string
  fingerprint: string
  signedAt: string
  files?: RowFiles | undefined
}): string {
  const files = Object.keys(p.files ?? {})
    .sort()
    .map((f) => `file: ${JSON.stringify(f)} sha256:${p.files![f]}`)
  return [
    'dsh-mcp signed approval v1',
    `project: ${p.project}`,
    `server: ${p.name}`,
    `fingerprint: ${p.fingerprint}`,
    ...files,
    `signed-at: ${p.signedAt}`,
    '',
  ].join('\n')
}

/** Whether two file sets name the same paths with the same hashes. */
export function sameFiles(a: RowFiles | undefined, b: RowFiles | undefined): boolean {
  const ka = Object.keys(a ?? {}).sort()
  const kb = Object.keys(b ?? {}).sort()
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a![k] === b![k])
}

const HEX64 = /^[0-9a-f]{64}$/
function filesOf(v: unknown): RowFiles | undefined | false {
  if (v === undefined) return undefined
  if (!isRecord(v)) return false
  const out: Record<string, string> = {}
  for (const [k, h] of Object.entries(v)) {
    if (typeof h !== 'string' || !HEX64.test(h) || /[\r\n]/.test(k)) return false
    out[k] = h
  }
  return Object.keys(out).length > 0 ? out : undefined
}

const ARMOR = /^-----BEGIN SSH SIGNATURE-----\n[A-Za-z0-9+/=\n]+\n-----END SSH SIGNATURE-----\n?$/

/** The well-formed records of a file's text, and one problem line per record (or file) that is not. */
export function decodeTeamTrust(text: string): { file: TeamTrustFile; problems: string[] } {
  const file = emptyTeamTrust()
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { file, problems: ['is not valid JSON'] }
  }
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.servers))
    return { file, problems: ['is not a version 1 team trust file ({ "version": 1, "servers": { … } })'] }
  const problems: string[] = []
  for (const [name, rec] of Object.entries(value.servers)) {
    const signer = isRecord(rec) && isRecord(rec.signer) ? rec.signer : undefined
    const key = typeof signer?.key === 'string' ? parsePublicKey(signer.key) : undefined
    const files = isRecord(rec) ? filesOf(rec.files) : false
    if (
      !isRecord(rec) ||
      files === false ||
      typeof rec.fingerprint !== 'string' ||
      typeof rec.signedAt !== 'string' ||
      /[\r\n]/.test(rec.signedAt) ||
      typeof rec.signature !== 'string' ||
      !ARMOR.test(rec.signature) ||
      typeof signer?.label !== 'string' ||
      !key
    ) {
      problems.push(`servers.${name}: not a well-formed signed approval (ignored)`)
      continue
    }
    file.servers[name] = {
      fingerprint: rec.fingerprint,
      ...(files ? { files } : {}),
      signer: { label: signer.label, key },
      signedAt: rec.signedAt,
      signature: rec.signature,
    }
  }
  return { file, problems }
}

/** The file's text: sorted server names, one fixed key order, two-space JSON. */
export function encodeTeamTrust(file: TeamTrustFile): string {
  const servers: Record<string, unknown> = {}
  for (const name of Object.keys(file.servers).sort()) {
    const r = file.servers[name]!
    const files = r.files && Object.keys(r.files).length > 0 ? r.files : undefined
    servers[name] = {
      fingerprint: r.fingerprint,
      ...(files
        ? {
            files: Object.fromEntries(
              Object.keys(files)
                .sort()
                .map((f) => [f, files[f]]),
            ),
          }
        : {}),
      signer: { label: r.signer.label, key: keyText(r.signer.key) },
      signedAt: r.signedAt,
      signature: r.signature,
    }
  }
  return `${JSON.stringify({ version: 1, servers }, null, 2)}\n`
}

/** What the edge must still do for a record: verify it as `signer` (the user's listed key). */
export interface VerifyRequest {
  signer: TrustedSigner
  payload: string
  signature: string
}

/** One row asked about its signed record: the question both the pure judge and the edge's judge answer. */
export interface SignedQuestion {
  record: SignedRecord | undefined
  project: string
  name: string
  fingerprint: string
  /** The content hashes of the files the row names now (trust/row-files.ts, computed at the edge). */
  files?: RowFiles | undefined
  signers: readonly TrustedSigner[]
  revoked: boolean
}

/**
 * What `record` means for a row of `project` named `name` with `fingerprint`: a final answer, or a
 * request to verify (then `verified(request)` — the edge's `ssh-keygen -Y verify` — decides).
 */
export function judgeSigned(a: SignedQuestion & { verifier: boolean }): SignatureAnswer | VerifyRequest | undefined {
  const r = a.record
  if (!r) return undefined
  if (a.revoked) return { state: 'revoked' }
  if (r.fingerprint !== a.fingerprint || !sameFiles(r.files, a.files)) return { state: 'stale' }
  const signer = a.signers.find((s) => sameKey(s, r.signer.key))
  if (!signer) return { state: 'unknown-signer' }
  if (!a.verifier) return { state: 'no-verifier' }
  return {
    signer,
    payload: signedPayload({
      project: a.project,
      name: a.name,
      fingerprint: a.fingerprint,
      signedAt: r.signedAt,
      files: a.files,
    }),
    signature: r.signature,
  }
}

/** The answer once the edge verified `request` (true: a valid signature by that listed signer). */
export function verifiedAnswer(request: VerifyRequest, valid: boolean): SignatureAnswer {
  return valid ? { state: 'trusted', signer: request.signer.label } : { state: 'bad' }
}

export function isVerifyRequest(x: SignatureAnswer | VerifyRequest | undefined): x is VerifyRequest {
  return x !== undefined && 'payload' in x
}
