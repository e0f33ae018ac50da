/**
 * The edge of signed team approvals: reading and writing a project's
 * committed `.dsh/mcp.trust`, and judging rows against it with verified
 * signatures (trust/signed.ts is the pure half, trust/ssh.ts the verifier).
 *
 * Contract:
 * - `teamTrustPath(root)` is `<root>/.dsh/mcp.trust` (one per project
 *   directory: a nested project of a monorepo has its own).
 *   `projectPathOf(root)` is the project's path relative to the repository
 *   (`.git` only) that holds it (`.` at a repository root or outside any), `/`-separated:
 *   the path every payload binds.
 * - `readTeamTrust(root)` opens the file without following a link
 *   (files/pinned-read.ts: a symbolic link, a FIFO, a hard-linked or
 *   oversized file is refused — `problem`), decodes it, and never throws.
 * - Writing lives in trust/team-write.ts (read-only commands never load the
 *   atomic writer).
 * - `createTeamJudge(env)`: `prepare(root, file, signers)` verifies every
 *   record signed by a listed key (async, batched, results cached by signer,
 *   payload and signature); `prepareSync` the same for the CLI; `answer`
 *   runs the pure `judgeSigned` and reads the cache (a request not prepared
 *   is verified synchronously once). `verifier()` says whether ssh-keygen was
 *   found at the last prepare — on trust/ssh.ts `keygenEnv`'s PATH, never
 *   inside one of `checkouts()` (`keygenCheckouts`: every project root and
 *   its repository). Imports launch/resolve.ts (`checkoutRoots`) so ssh-keygen is
 *   looked up by the launcher's own rule for a bare command, not a copy of it.
 * - `repositoryRootOf(root)`: the nearest `.git` at or above, as inheritance
 *   finds it (config/inherit.ts); `projectPathOf` is relative to it.
 *
 * @module
 */
import { createHash } from 'node:crypto'
import { existsSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { inheritedDirs } from '../config/inherit.ts'
import type { TrustedSigner } from '../config/signers.ts'
import { checkoutRoots } from '../launch/resolve.ts'
import { readPinned } from '../files/pinned-read.ts'
import {
  decodeTeamTrust,
  emptyTeamTrust,
  isVerifyRequest,
  judgeSigned,
  MAX_TEAM_TRUST_BYTES,
  type SignedQuestion,
  TEAM_TRUST_FILE,
  type TeamTrustFile,
  type VerifyRequest,
  verifiedAnswer,
} from './signed.ts'
import { findSshKeygen, keygenEnv, verifyAll, verifyAllSync } from './ssh.ts'
import type { SignatureAnswer } from './state.ts'

type Env = Readonly<Record<string, string | undefined>>

export function teamTrustPath(root: string): string {
  return path.join(root, TEAM_TRUST_FILE)
}

function realOf(root: string): string {
  try {
    return realpathSync(root)
  } catch {
    return path.resolve(root)
  }
}

/**
 * The repository holding project `root` (its real path): the nearest `.git` at or above it, found exactly as
 * monorepo inheritance finds it (config/inherit.ts `inheritedDirs`) — a `.hg` or `.svn` marks nothing here.
 */
export function repositoryRootOf(root: string): string | undefined {
  const real = realOf(root)
  if (existsSync(path.join(real, '.git'))) return real
  return inheritedDirs(real, { exists: existsSync, home: homedir() }).at(-1)
}

export function projectPathOf(root: string): string {
  const real = realOf(root)
  const repo = repositoryRootOf(real)
  const rel = repo ? path.relative(repo, real) : ''
  return rel === '' ? '.' : rel.split(path.sep).join('/')
}

/** The checkouts `ssh-keygen` must never be found in: each project root and the repository holding it. */
export function keygenCheckouts(roots: Iterable<string>, env: Env): string[] {
  const all = [...roots].flatMap((r) => [path.resolve(r), realOf(r), repositoryRootOf(r) ?? path.resolve(r)])
  return checkoutRoots(all, [env.HOME ?? homedir(), ...(env.DSH_HOME ? [env.DSH_HOME] : [])])
}

export interface TeamRead {
  file: TeamTrustFile
  /** The file exists but cannot be used (a link, not ours, not decodable as a whole). */
  problem?: string
  /** Records that were dropped, one line each. */
  problems: string[]
  absent: boolean
}

export function readTeamTrust(root: string): TeamRead {
  const file = teamTrustPath(root)
  const read = readPinned(file, { max: MAX_TEAM_TRUST_BYTES })
  if ('absent' in read) return { file: emptyTeamTrust(), problems: [], absent: true }
  if ('problem' in read) return { file: emptyTeamTrust(), problem: read.problem, problems: [], absent: false }
  const decoded = decodeTeamTrust(read.text)
  const whole = Object.keys(decoded.file.servers).length === 0 && decoded.problems.length === 1
  return {
    file: decoded.file,
    ...(whole ? { problem: `${file} ${decoded.problems[0]}` } : {}),
    problems: whole ? [] : decoded.problems.map((p) => `${file}: ${p}`),
    absent: false,
  }
}

export interface TeamJudge {
  prepare(file: TeamTrustFile, project: string, signers: readonly TrustedSigner[]): Promise<void>
  prepareSync(file: TeamTrustFile, project: string, signers: readonly TrustedSigner[]): void
  answer(a: SignedQuestion): SignatureAnswer | undefined
  verifier(): boolean
}

const keyOf = (r: VerifyRequest) =>
  createHash('sha256')
    .update(`${r.signer.label}\0${r.signer.type} ${r.signer.body}\0${r.payload}\0${r.signature}`)
    .digest('hex')

export function createTeamJudge(given: Env, checkouts: () => readonly string[]): TeamJudge {
  let env = keygenEnv(given, checkouts())
  let bin = findSshKeygen(given, checkouts())
  const locate = () => {
    env = keygenEnv(given, checkouts())
    bin = findSshKeygen(given, checkouts())
  }
  const cache = new Map<string, boolean>()
  const pending = (file: TeamTrustFile, project: string, signers: readonly TrustedSigner[]): VerifyRequest[] => {
    const out: VerifyRequest[] = []
    for (const [name, record] of Object.entries(file.servers)) {
      const j = judgeSigned({
        record,
        project,
        name,
        fingerprint: record.fingerprint,
        files: record.files,
        signers,
        revoked: false,
        verifier: true,
      })
      if (isVerifyRequest(j) && !cache.has(keyOf(j))) out.push(j)
    }
    return out
  }
  return {
    async prepare(file, project, signers) {
      locate()
      if (!bin) return
      const todo = pending(file, project, signers)
      const results = await verifyAll(bin, todo, env)
      for (const [i, r] of todo.entries()) cache.set(keyOf(r), results[i] === true)
    },
    prepareSync(file, project, signers) {
      locate()
      if (!bin) return
      const todo = pending(file, project, signers)
      const results = verifyAllSync(bin, todo, env)
      for (const [i, r] of todo.entries()) cache.set(keyOf(r), results[i] === true)
    },
    answer(a) {
      const j = judgeSigned({ ...a, verifier: bin !== undefined })
      if (!isVerifyRequest(j)) return j
      let valid = cache.get(keyOf(j))
      if (valid === undefined && bin) {
        valid = verifyAllSync(bin, [j], env)[0] === true
        cache.set(keyOf(j), valid)
      }
      return verifiedAnswer(j, valid === true)
    },
    verifier: () => bin !== undefined,
  }
}
