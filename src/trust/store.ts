/**
 * The trust store on disk: `$DSH_HOME/mcp-trust.json`, outside every
 * repository, keyed by canonical project root and server name.
 *
 * Contract:
 * - `readTrustStore` (and `loadTrustStore`, which also says why the file
 *   was refused, with how to repair it) never throws: a missing file reads
 *   as an empty store. It reads as empty and is refused — trusts nothing,
 *   fail closed — when the file is unreadable, not valid JSON or not a
 *   version-1 store, a symbolic link, owned by another user, writable by
 *   group or others (`storeProblem`), or its real path lies inside
 *   `opts.forRoot` (a repository can never trust itself, e.g. with
 *   `DSH_HOME` pointing into it). Writers refuse a refused store too
 *   (they never overwrite a store they cannot read).
 * - `trustServers` / `untrustServers` take an exclusive lock
 *   (proper-lockfile on the store path), re-read the store under it, and
 *   replace the file atomically (write + rename) with mode 0600, creating
 *   `$DSH_HOME` with mode 0700: concurrent writers from any number of
 *   processes lose no update. They refuse (throw) to write through a
 *   symbolic link or into the project they trust for. The lock and
 *   atomic-write libraries are loaded by the first write, so readers
 *   (`list`, `get`, the host's trust gate) never pay for them.
 * - Records are keyed by `canonicalRoot(root)`: symlinked checkouts share
 *   one entry.
 *
 * @module
 */
import { lstatSync, mkdirSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { dict, emptyTrustStore, isRecord, sanitizeTrustStore, type TrustRecord, type TrustStore } from './state.ts'

export type { TrustRecord, TrustStore } from './state.ts'

export function trustFilePath(dshHome: string): string {
  return path.join(dshHome, 'mcp-trust.json')
}

/** The real path of `root` (symlinks resolved), or its absolute form when it does not exist. */
export function canonicalRoot(root: string): string {
  try {
    return realpathSync.native(root)
  } catch {
    return path.resolve(root)
  }
}

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep)
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
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : `${file} cannot be read (${code ?? 'error'}); repair its permissions`
  }
  if (st.isSymbolicLink()) return `${file} is a symbolic link; replace it with a regular file (remove it, then trust again)`
  if (!st.isFile()) return `${file} is not a regular file; remove it, then trust again`
  const uid = process.getuid?.()
  if (uid !== undefined && st.uid !== uid) return `${file} is owned by another user (uid ${st.uid}); remove it, then trust again`
  if ((st.mode & 0o022) !== 0) return `${file} is writable by ${(st.mode & 0o002) !== 0 ? 'every user' : 'its group'}; run: chmod 600 ${file}`
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
  if (inside(real, rootReal)) return `${file} lies inside the project ${rootReal}; set DSH_HOME outside the repository`
  return undefined
}

function refusal(file: string, forRoot: string | undefined): string | undefined {
  return storeProblem(file) ?? (forRoot === undefined ? undefined : insideProblem(file, forRoot))
}

/** Why `readTrustStore(dshHome, { forRoot })` cannot use the store file (file problems and a store inside the project; not its content), or undefined. */
export function trustStoreRefusal(dshHome: string, forRoot?: string): string | undefined {
  return refusal(trustFilePath(dshHome), forRoot)
}

export function readTrustStore(dshHome: string, opts: { forRoot?: string } = {}): TrustStore {
  return loadTrustStore(dshHome, opts.forRoot).store
}

/** The store file's content, or why it cannot be used (unreadable, not JSON, not a trust store). Missing: empty. */
function readContent(file: string): { store: TrustStore; problem?: string } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { store: emptyTrustStore() }
    return { store: emptyTrustStore(), problem: `${file} cannot be read (${code ?? 'error'}); repair its permissions` }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { store: emptyTrustStore(), problem: `${file} is not valid JSON; repair it, or remove it and trust again` }
  }
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.projects)) return { store: emptyTrustStore(), problem: `${file} is not a dsh-mcp trust store (version 1); repair it, or remove it and trust again` }
  return { store: sanitizeTrustStore(value) }
}

/**
 * The store as `readTrustStore(dshHome, { forRoot })` reads it, and why it
 * cannot be used (`refused`: a file problem, a store inside the project, or
 * content that is not a valid store) — then it trusts nothing.
 */
export function loadTrustStore(dshHome: string, forRoot?: string): { store: TrustStore; refused: string | undefined } {
  const file = trustFilePath(dshHome)
  const refused = refusal(file, forRoot)
  if (refused) return { store: emptyTrustStore(), refused }
  const { store, problem } = readContent(file)
  return { store: problem ? emptyTrustStore() : store, refused: problem }
}

const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true },
}

/** Run `change` on the store under the lock and write the result atomically. */
async function updateStore<T>(dshHome: string, root: string, change: (store: TrustStore, key: string) => T): Promise<T> {
  mkdirSync(dshHome, { recursive: true, mode: 0o700 })
  const file = trustFilePath(dshHome)
  const refused = refusal(file, root) ?? readContent(file).problem
  if (refused) throw new Error(`refusing to write the trust store: ${refused}`)
  const [{ default: lockfile }, { default: writeFileAtomic }] = await Promise.all([import('proper-lockfile'), import('write-file-atomic')])
  const release = await lockfile.lock(file, LOCK_OPTIONS)
  try {
    let store: TrustStore
    try {
      store = sanitizeTrustStore(JSON.parse(readFileSync(file, 'utf8')))
    } catch {
      store = emptyTrustStore()
    }
    const result = change(store, canonicalRoot(root))
    await writeFileAtomic(file, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 })
    return result
  } finally {
    await release()
  }
}

export function trustServers(dshHome: string, root: string, servers: { name: string; fingerprint: string }[]): Promise<void> {
  const trustedAt = new Date().toISOString()
  return updateStore(dshHome, root, (store, key) => {
    const project = Object.hasOwn(store.projects, key) ? store.projects[key]! : { servers: dict<TrustRecord>() }
    store.projects[key] = project
    for (const s of servers) project.servers[s.name] = { fingerprint: s.fingerprint, trustedAt }
    if (Object.keys(project.servers).length === 0) delete store.projects[key]
  })
}

/** Remove records of `names` (or every record of the project); returns the names removed. */
export function untrustServers(dshHome: string, root: string, names: string[] | 'all'): Promise<string[]> {
  return updateStore(dshHome, root, (store, key) => {
    const project = Object.hasOwn(store.projects, key) ? store.projects[key] : undefined
    if (!project) return []
    const removed = names === 'all' ? Object.keys(project.servers) : names.filter((n) => Object.hasOwn(project.servers, n))
    for (const n of removed) delete project.servers[n]
    if (Object.keys(project.servers).length === 0) delete store.projects[key]
    return removed
  })
}
