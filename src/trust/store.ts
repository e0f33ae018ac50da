/**
 * The trust store on disk: `$DSH_HOME/mcp-trust.json`, outside every
 * repository, keyed by canonical project root and server name.
 *
 * Contract:
 * - `readTrustStore` (and `loadTrustStore`, which also says why the file
 *   was refused, with how to repair it) never throws: a missing file reads
 *   as an empty store. It reads as empty and is refused — trusts nothing,
 *   fail closed — when the file is unreadable, not valid JSON or not a
 *   version-1 store, a symbolic link or a hard link (link count > 1), owned
 *   by another user, writable by group or others (`storeProblem`), swapped
 *   for another file between that check and the read (opened O_NOFOLLOW, the
 *   opened file's dev+ino compared with the checked one: files/pinned-read.ts), or its real path lies inside
 *   `opts.forRoot` (a repository can never trust itself, e.g. with
 *   `DSH_HOME` pointing into it). Writers (store-write.ts, re-exported here) refuse a refused store too
 *   (they never overwrite a store they cannot read).
 * - `trustServers` / `untrustServers` write through `updateFile`
 *   (files/write.ts): an exclusive lock on the store path, the store re-read
 *   under it, the file replaced atomically (write + rename, never through a
 *   link) with mode 0600, creating `$DSH_HOME` with mode 0700 (`files/
 *   private-dir.ts`; an existing one owned by another user or writable by
 *   others is refused): concurrent writers from any number of
 *   processes lose no update. They refuse (throw) to write through a
 *   symbolic link or into the project they trust for, and — the file left
 *   byte-identical — when it is not valid JSON, not a store, or written by a
 *   newer version: a write never wipes records it cannot read. A link (or
 *   anything but a directory) at the lock path `mcp-trust.json.lock` is
 *   refused at once, naming it and its target (files/write.ts, lock-path.ts).
 *   files/write.ts (with the lock and atomic-write libraries) is loaded by
 *   the first write, so readers
 *   (`list`, `get`, the host's trust gate) never pay for them.
 * - Records are keyed by `canonicalRoot(root)`: symlinked checkouts share
 *   one entry. `pinFirstTools` (the host, at a trusted server's first
 *   mount) adds pins to a record that has none, for its fingerprint only.
 *
 * @module
 */
import { lstatSync } from 'node:fs'
import path from 'node:path'
import { homeProblem, isInside, realPath } from '../files/guard.ts'
import { type FileIdentity, readPinned } from '../files/pinned-read.ts'
import { ownedByOther } from '../files/private-dir.ts'
import { emptyTrustStore, sanitizeTrustStore, type TrustStore } from './state.ts'
import { isRecord } from '../config/guards.ts'

export type { TrustRecord, TrustStore } from './state.ts'
export { pinFirstTools, pinSignedTools, trustServers, untrustServers } from './store-write.ts'

export function trustFilePath(dshHome: string): string {
  return path.join(dshHome, 'mcp-trust.json')
}

/** The real path of `root` (symlinks resolved), or its absolute form when it does not exist. */
export function canonicalRoot(root: string): string {
  return realPath(root)
}

/**
 * What is wrong with the store file itself, with how to repair it, or
 * undefined when it may be read (a missing file is fine: an empty store).
 * A symbolic link, a file owned by another user, or one writable by group
 * or others is refused: whoever can write it decides what runs.
 */
export function storeProblem(file: string): string | undefined {
  let st: ReturnType<typeof lstatSync>
  try {
    st = lstatSync(file)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? undefined
      : `${file} cannot be read (${code ?? 'error'}); repair its permissions`
  }
  if (st.isSymbolicLink())
    return `${file} is a symbolic link; replace it with a regular file (remove it, then trust again)`
  // Whoever can rename files in $DSH_HOME can put back a store the user replaced (a .bak of an untrusted server).
  const home = homeProblem(path.dirname(file))
  if (home)
    return `${home}, so another user could swap the trust store; make it yours and private: chmod 700 ${path.dirname(file)}`
  if (!st.isFile()) return `${file} is not a regular file; remove it, then trust again`
  if (ownedByOther(st))
    return `${file} is owned by another user (uid ${st.uid}); remove it, or run chown $(id -u) ${file} if it is yours`
  if ((st.mode & 0o022) !== 0)
    return `${file} is writable by ${(st.mode & 0o002) !== 0 ? 'every user' : 'its group'}; run: chmod 600 ${file}`
  // A hard link is refused like a symbolic link: whoever writes its other name (a repository file) would write trust.
  if (st.nlink > 1)
    return `${file} has ${st.nlink} hard links, so whoever can write another of its names could write trust; replace it with a copy: cp ${file} ${file}.new && mv ${file}.new ${file}`
  return undefined
}

/** Why the store must not be used for `forRoot` (its real path lies inside the project), or undefined. */
function insideProblem(file: string, forRoot: string): string | undefined {
  let exists = true
  try {
    lstatSync(file)
  } catch {
    exists = false
  }
  const rootReal = canonicalRoot(forRoot)
  // The file may not exist yet: judge the real path of its directory.
  const real = exists ? canonicalRoot(file) : path.join(canonicalRoot(path.dirname(file)), path.basename(file))
  if (isInside(real, rootReal))
    return `${file} lies inside the project ${rootReal}; set DSH_HOME outside the repository`
  return undefined
}

/** Why the store file must not be used (file problems, or inside `forRoot`), or undefined. Shared with store-write.ts. */
export function refusal(file: string, forRoot: string | undefined): string | undefined {
  return storeProblem(file) ?? (forRoot === undefined ? undefined : insideProblem(file, forRoot))
}

/** Why `readTrustStore(dshHome, { forRoot })` cannot use the store file (file problems and a store inside the project; not its content), or undefined. */
export function trustStoreRefusal(dshHome: string, forRoot?: string): string | undefined {
  return refusal(trustFilePath(dshHome), forRoot)
}

export function readTrustStore(dshHome: string, opts: { forRoot?: string } = {}): TrustStore {
  return loadTrustStore(dshHome, opts.forRoot).store
}

/** A trust store larger than this is refused (a store is kilobytes). */
const MAX_STORE_BYTES = 16 * 1024 * 1024

/**
 * The store file's content, or why it cannot be used (unreadable, not JSON, not a trust store). Missing: empty.
 * Read as checked (`checked`: the identity the caller's lstat saw): a link or another file swapped in
 * between the check and the read, or a hard link, is refused (files/pinned-read.ts).
 */
function readContent(file: string, checked?: FileIdentity): { store: TrustStore; problem?: string } {
  const read = readPinned(file, { max: MAX_STORE_BYTES, ...(checked ? { checked } : {}) })
  if ('absent' in read)
    return checked
      ? { store: emptyTrustStore(), problem: `${file} was removed between its check and its read; try again` }
      : { store: emptyTrustStore() }
  if ('problem' in read)
    return {
      store: emptyTrustStore(),
      problem: `${read.problem}; nothing in it counts as trusted (replace it with a regular file of your own)`,
    }
  const text = read.text
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    return {
      store: emptyTrustStore(),
      problem: `${file} is not valid JSON (${jsonWhere(err, text)}); repair it, or move it aside (mv ${file} ${file}.bak) and trust again`,
    }
  }
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.projects))
    return {
      store: emptyTrustStore(),
      problem: `${file} is not a dsh-mcp trust store (version 1); repair it, or remove it and trust again`,
    }
  return { store: sanitizeTrustStore(value) }
}

/**
 * The store as `readTrustStore(dshHome, { forRoot })` reads it, and why it
 * cannot be used (`refused`: a file problem, a store inside the project, or
 * content that is not a valid store) — then it trusts nothing.
 */
export function loadTrustStore(dshHome: string, forRoot?: string): { store: TrustStore; refused: string | undefined } {
  const file = trustFilePath(dshHome)
  // The identity checked first: the read must open this very file (a swap in between is refused).
  let checked: FileIdentity | undefined
  try {
    checked = lstatSync(file)
  } catch {
    checked = undefined
  }
  const refused = refusal(file, forRoot)
  if (refused) return { store: emptyTrustStore(), refused }
  const { store, problem } = readContent(file, checked)
  return { store: problem ? emptyTrustStore() : store, refused: problem }
}

/** `line L, column C` of a JSON.parse error, without quoting the text. */
export function jsonWhere(err: unknown, text: string): string {
  const m = /position (\d+)/.exec(String((err as Error).message))
  if (!m) return 'unexpected end or token'
  const at = Math.min(Number(m[1]), text.length)
  const before = text.slice(0, at)
  const line = before.split('\n').length
  return `line ${line}, column ${at - before.lastIndexOf('\n')}`
}
