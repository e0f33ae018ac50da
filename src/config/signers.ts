/**
 * The user's `trustedSigners`: the SSH public keys whose signed approvals
 * (`.dsh/mcp.trust`, docs/guide/trust.md "Teams") this user honours, each
 * with a label (`alice: ssh-ed25519 AAAA… alice@example`).
 *
 * Contract: pure. `readTrustedSigners(value)` turns the raw top-level
 * `trustedSigners:` value of the user's own file into signers and problems
 * with field paths: a label is letters, digits and `._@+-` (it becomes an
 * allowed-signers principal, so no pattern characters); a key is
 * `<type> <base64> [comment]` of a type `ssh-keygen -Y verify` knows. A
 * repository or local file never reaches this reader (read-document.ts warns
 * and ignores the key there). `sameKey` compares two keys by type and body
 * (comments never count). `allowedSignersText` is the `ssh-keygen`
 * allowed-signers file for the signers, each restricted to the `dsh-mcp`
 * namespace.
 *
 * @module
 */
import { isRecord } from './guards.ts'

export const SIGNER_LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/
export const SIGNATURE_NAMESPACE = 'dsh-mcp'

const KEY_TYPES = [
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
] as const

export interface PublicKey {
  type: string
  /** The key's base64 body. */
  body: string
}

export interface TrustedSigner extends PublicKey {
  label: string
}

export interface SignerProblem {
  path: (string | number)[]
  message: string
}

/** `<type> <base64> [comment]` → the key, or undefined when it is not one. */
export function parsePublicKey(text: string): PublicKey | undefined {
  const m = /^\s*(\S+)[ \t]+([A-Za-z0-9+/]+={0,2})(?:[ \t]+[^\r\n]*)?\s*$/.exec(text)
  if (!m || !(KEY_TYPES as readonly string[]).includes(m[1]!) || m[2]!.length < 16) return undefined
  return { type: m[1]!, body: m[2]! }
}

export function sameKey(a: PublicKey, b: PublicKey): boolean {
  return a.type === b.type && a.body === b.body
}

/** `type body`: a key as written into files (no comment). */
export function keyText(k: PublicKey): string {
  return `${k.type} ${k.body}`
}

export function readTrustedSigners(value: unknown): { signers: TrustedSigner[]; problems: SignerProblem[] } {
  const signers: TrustedSigner[] = []
  const problems: SignerProblem[] = []
  if (value === undefined || value === null) return { signers, problems }
  if (!isRecord(value)) {
    problems.push({
      path: ['trustedSigners'],
      message: '"trustedSigners" must be a mapping of labels to SSH public keys (label: ssh-ed25519 AAAA…)',
    })
    return { signers, problems }
  }
  for (const [label, raw] of Object.entries(value)) {
    if (!SIGNER_LABEL_PATTERN.test(label)) {
      problems.push({
        path: ['trustedSigners', label],
        message: 'a signer label is letters, digits and . _ @ + - (at most 64), starting with a letter or digit',
      })
      continue
    }
    const key = typeof raw === 'string' ? parsePublicKey(raw) : undefined
    if (!key) {
      problems.push({
        path: ['trustedSigners', label],
        message: `must be an SSH public key line (${KEY_TYPES[0]} AAAA… [comment]), as in a .pub file`,
      })
      continue
    }
    signers.push({ label, ...key })
  }
  return { signers, problems }
}

/** The allowed-signers file `ssh-keygen -Y verify -f` reads: one line per signer, namespace `dsh-mcp` only. */
export function allowedSignersText(signers: readonly TrustedSigner[]): string {
  return signers.map((s) => `${s.label} namespaces="${SIGNATURE_NAMESPACE}" ${keyText(s)}\n`).join('')
}
