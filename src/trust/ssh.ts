/**
 * `ssh-keygen -Y` for signed team approvals: sign a payload, verify a batch.
 *
 * Contract: `keygenEnv(env, checkouts)` is `env` with the `PATH` the
 * launcher gives a server (launch/prepare.ts `cleanPath`: absolute entries
 * only, none inside a project checkout) minus every `node_modules/.bin`
 * entry; `findSshKeygen(env, checkouts)` finds `ssh-keygen` on that PATH
 * with launch/resolve.ts `resolveCommand` (a winner inside a checkout is
 * refused), or undefined — then signatures are ignored and every edge says
 * so. Callers pass the `keygenEnv` result to the functions below, so the
 * child runs with that PATH too. `signPayload` runs `ssh-keygen -Y sign -n dsh-mcp -f <key>` with the
 * payload on stdin and returns the armored signature; `publicKeyOf` reads
 * `<key>.pub` or asks `ssh-keygen -y`. `verifyAll` (async, for the host) and
 * `verifyAllSync` (the CLI) check each request with `ssh-keygen -Y verify
 * -n dsh-mcp -I <label>` against an allowed-signers file generated from the
 * user's `trustedSigners` (config/signers.ts `allowedSignersText`), written
 * with the signatures into a private temp directory (0700, files 0600,
 * `O_EXCL`) that is removed afterwards; a request answers true only on exit
 * 0 with ssh-keygen's own `Good "dsh-mcp" signature for <label> ` on stdout. Children get a minimal environment, stdio closed but the pipes used,
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
import { cleanPath } from '../launch/prepare.ts'
import { resolveCommand } from '../launch/resolve.ts'
import type { VerifyRequest } from './signed.ts'

const TIMEOUT_MS = 10_000
type Env = Readonly<Record<string, string | undefined>>

/** `env` with the launcher's cleaned PATH, without any `node_modules/.bin` entry (a package's bins are no system tools). */
export function keygenEnv(env: Env, checkouts: readonly string[]): Env {
  const cleaned = cleanPath(env.PATH ?? '/usr/bin:/bin', checkouts) ?? ''
  const PATH = cleaned
    .split(path.delimiter)
    .filter((d) => d !== '' && !d.split(path.sep).includes('node_modules'))
    .join(path.delimiter)
  return { ...env, PATH }
}

/** The `ssh-keygen` to trust: on `keygenEnv`'s PATH, never inside one of `checkouts` (undefined: none). */
export function findSshKeygen(env: Env, checkouts: readonly string[]): string | undefined {
  const safe = keygenEnv(env, checkouts)
  if (!safe.PATH) return undefined
  const r = resolveCommand('ssh-keygen', safe, undefined, checkouts)
  return 'path' in r && path.isAbsolute(r.path) ? r.path : undefined
}

/** Whether ssh-keygen's stdout says it verified this signature for `label` (exit 0 alone is not believed). */
const saysGood = (stdout: string, label: string) =>
  stdout.startsWith(`Good "${SIGNATURE_NAMESPACE}" signature for ${label} with `)

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
        const out = execFileSync(bin, verifyArgs(b, r, i), {
          input: r.payload,
          env: childEnv(env),
          timeout: TIMEOUT_MS,
          encoding: 'utf8',
          stdio: ['pipe', 'pipe', 'ignore'],
        })
        return saysGood(out, r.signer.label)
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
              stdio: ['pipe', 'pipe', 'ignore'],
              timeout: TIMEOUT_MS,
            })
            let out = ''
            child.stdout.setEncoding('utf8')
            child.stdout.on('data', (d: string) => {
              if (out.length < 4096) out += d
            })
            child.on('error', () => resolve(false))
            child.on('close', (code) => resolve(code === 0 && saysGood(out, r.signer.label)))
            child.stdin.on('error', () => {})
            child.stdin.end(r.payload)
          }),
      ),
    )
  } finally {
    rmSync(b.dir, { recursive: true, force: true })
  }
}
