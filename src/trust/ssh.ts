/**
 * `ssh-keygen -Y` for signed team approvals: sign a payload, verify a batch.
 *
 * Contract: `findSshKeygen(env)` finds `ssh-keygen` on the absolute entries
 * of `PATH` only (never a relative entry that would run one planted in a
 * checkout), or undefined — then signatures are ignored and every edge says
 * so. `signPayload` runs `ssh-keygen -Y sign -n dsh-mcp -f <key>` with the
 * payload on stdin and returns the armored signature; `publicKeyOf` reads
 * `<key>.pub` or asks `ssh-keygen -y`. `verifyAll` (async, for the host) and
 * `verifyAllSync` (the CLI) check each request with `ssh-keygen -Y verify
 * -n dsh-mcp -I <label>` against an allowed-signers file generated from the
 * user's `trustedSigners` (config/signers.ts `allowedSignersText`), written
 * with the signatures into a private temp directory (0700, files 0600,
 * `O_EXCL`) that is removed afterwards; a request answers true only on exit
 * 0. Children get a minimal environment, stdio closed but the pipes used,
 * and a timeout. Never throws from a verification (false instead).
 *
 * Why this trust edge imports `launch/resolve.ts` (`resolveCommand`):
 * ssh-keygen is found exactly as a server's bare command or git is — on the
 * absolute entries of `PATH` only. One lookup keeps the rule from drifting.
 *
 * @module
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { allowedSignersText, parsePublicKey, type PublicKey, SIGNATURE_NAMESPACE } from '../config/signers.ts'
import { resolveCommand } from '../launch/resolve.ts'
import type { VerifyRequest } from './signed.ts'

const TIMEOUT_MS = 10_000
type Env = Readonly<Record<string, string | undefined>>

export function findSshKeygen(env: Env): string | undefined {
  const r = resolveCommand('ssh-keygen', env, undefined)
  return 'path' in r && path.isAbsolute(r.path) ? r.path : undefined
}

function childEnv(env: Env): NodeJS.ProcessEnv {
  return { PATH: env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', ...(env.HOME ? { HOME: env.HOME } : {}) }
}

/** The public key of a private key file (`<key>.pub` when it is one, else `ssh-keygen -y -f <key>`) and its comment. */
export function publicKeyOf(bin: string, keyFile: string, env: Env): PublicKey & { comment?: string } {
  let text: string | undefined
  try {
    text = readFileSync(`${keyFile}.pub`, 'utf8')
  } catch {
    // no .pub beside it: ask ssh-keygen
  }
  text =
    text && parsePublicKey(text)
      ? text
      : execFileSync(bin, ['-y', '-f', keyFile], { env: childEnv(env), timeout: TIMEOUT_MS, encoding: 'utf8' })
  const pub = parsePublicKey(text)
  if (!pub) throw new Error(`${keyFile}: ssh-keygen -y gave no public key`)
  const comment = text.trim().split(/\s+/).slice(2).join(' ')
  return comment ? { ...pub, comment } : pub
}

/** The armored signature of `payload` by the key in `keyFile` (namespace `dsh-mcp`). */
export function signPayload(bin: string, keyFile: string, payload: string, env: Env): string {
  try {
    return execFileSync(bin, ['-Y', 'sign', '-n', SIGNATURE_NAMESPACE, '-q', '-f', keyFile], {
      input: payload,
      env: childEnv(env),
      timeout: TIMEOUT_MS,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim()
    throw new Error(`ssh-keygen could not sign with ${keyFile}${stderr ? `: ${stderr.split('\n')[0]}` : ''}`)
  }
}

interface Batch {
  dir: string
  allowed: string
  sigs: string[]
}

function writeBatch(requests: readonly VerifyRequest[]): Batch {
  const dir = mkdtempSync(path.join(tmpdir(), 'dsh-mcp-verify-'))
  const allowed = path.join(dir, 'allowed_signers')
  const signers = [...new Map(requests.map((r) => [`${r.signer.label}\0${r.signer.body}`, r.signer])).values()]
  writeFileSync(allowed, allowedSignersText(signers), { mode: 0o600, flag: 'wx' })
  const sigs = requests.map((r, i) => {
    const f = path.join(dir, `${i}.sig`)
    writeFileSync(f, r.signature, { mode: 0o600, flag: 'wx' })
    return f
  })
  return { dir, allowed, sigs }
}

const verifyArgs = (b: Batch, r: VerifyRequest, i: number) => [
  '-Y',
  'verify',
  '-n',
  SIGNATURE_NAMESPACE,
  '-f',
  b.allowed,
  '-I',
  r.signer.label,
  '-s',
  b.sigs[i]!,
]

export function verifyAllSync(bin: string, requests: readonly VerifyRequest[], env: Env): boolean[] {
  if (requests.length === 0) return []
  const b = writeBatch(requests)
  try {
    return requests.map((r, i) => {
      try {
        execFileSync(bin, verifyArgs(b, r, i), {
          input: r.payload,
          env: childEnv(env),
          timeout: TIMEOUT_MS,
          stdio: ['pipe', 'ignore', 'ignore'],
        })
        return true
      } catch {
        return false
      }
    })
  } finally {
    rmSync(b.dir, { recursive: true, force: true })
  }
}

export async function verifyAll(bin: string, requests: readonly VerifyRequest[], env: Env): Promise<boolean[]> {
  if (requests.length === 0) return []
  let b: Batch
  try {
    b = writeBatch(requests)
  } catch {
    return requests.map(() => false)
  }
  try {
    return await Promise.all(
      requests.map(
        (r, i) =>
          new Promise<boolean>((resolve) => {
            const child = spawn(bin, verifyArgs(b, r, i), {
              env: childEnv(env),
              stdio: ['pipe', 'ignore', 'ignore'],
              timeout: TIMEOUT_MS,
            })
            child.on('error', () => resolve(false))
            child.on('close', (code) => resolve(code === 0))
            child.stdin.on('error', () => {})
            child.stdin.end(r.payload)
          }),
      ),
    )
  } finally {
    rmSync(b.dir, { recursive: true, force: true })
  }
}
