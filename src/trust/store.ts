/**
 * The trust store on disk: `$DSH_HOME/mcp-trust.json`, outside every
 * repository, keyed by canonical project root and server name.
 *
 * Contract:
 * - `readTrustStore` (and `loadTrustStore`, which also says why the file
 *   was refused) never throws: a missing, unreadable or malformed file
 *   reads as an empty store. It also reads as empty — trusts nothing — when
 *   the file is a symbolic link, is writable by every user, or its real path
 *   lies inside `opts.forRoot` (a repository can never trust itself, e.g.
 *   with `DSH_HOME` pointing into it).
 * - `trustServers` / `untrustServers` take an exclusive lock
 *   (proper-lockfile on the store path), re-read the store under it, and
 *   replace the file atomically (write + rename, never through a link)
 *   with mode 0600, creating `$DSH_HOME` with mode 0700 (`files/
 *   private-dir.ts`; an existing one owned by another user or writable by
 *   others is refused): concurrent writers from any number of
 *   processes lose no update. They refuse (throw) to write through a
 *   symbolic link or into the project they trust for, and — the file left
 *   byte-identical — when it is not valid JSON, not a store, or written by a
 *   newer version: a write never wipes records it cannot read. The lock and
 *   atomic-write libraries are loaded by the first write, so readers
 *   (`list`, `get`, the host's trust gate) never pay for them.
 * - Records are keyed by `canonicalRoot(root)`: symlinked checkouts share
 *   one entry.
 *
 * @module
 */
import { lstatSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { isInside, realPath } from '../files/guard.ts'
import { ensurePrivateDir, ownedByOther, writePrivateFile } from '../files/private-dir.ts'
import { dict, emptyTrustStore, isRecord, sanitizeTrustStore, type TrustRecord, type TrustStore } from './state.ts'

export type { TrustRecord, TrustStore } from './state.ts'

export function trustFilePath(dshHome: string): string {
  return path.join(dshHome, 'mcp-trust.json')
}

/** The real path of `root` (symlinks resolved), or its absolute form when it does not exist. */
export function canonicalRoot(root: string): string {
  return realPath(root)
}

/** Why the store file must not be used for `forRoot`, or undefined when it may. Missing file: undefined. */
function refusal(file: string, forRoot: string | undefined): string | undefined {
  let st: ReturnType<typeof lstatSync>
  try {
    st = lstatSync(file)
  } catch {
    st = undefined
  }
  if (st?.isSymbolicLink()) return `${file} is a symbolic link`
  if (st && (st.mode & 0o002) !== 0) return `${file} is writable by every user`
  if (st && ownedByOther(st)) return `${file} is owned by another user (uid ${st.uid}); remove it, or run chown $(id -u) ${file} if it is yours`
  if (forRoot === undefined) return undefined
  const rootReal = canonicalRoot(forRoot)
  // The file may not exist yet: judge the real path of its directory.
  const real = st ? canonicalRoot(file) : path.join(canonicalRoot(path.dirname(file)), path.basename(file))
  if (isInside(real, rootReal)) return `${file} lies inside the project ${rootReal}; set DSH_HOME outside the repository`
  return undefined
}

/** Why `readTrustStore(dshHome, { forRoot })` reads the store as empty although the file exists, or undefined. */
export function trustStoreRefusal(dshHome: string, forRoot?: string): string | undefined {
  return refusal(trustFilePath(dshHome), forRoot)
}

export function readTrustStore(dshHome: string, opts: { forRoot?: string } = {}): TrustStore {
  return loadTrustStore(dshHome, opts.forRoot).store
}

/**
 * The store as `readTrustStore(dshHome, { forRoot })` reads it, and why it
 * reads as empty although the file exists (`trustStoreRefusal`), from one
 * refusal check.
 */
export function loadTrustStore(dshHome: string, forRoot?: string): { store: TrustStore; refused: string | undefined } {
  const file = trustFilePath(dshHome)
  const refused = refusal(file, forRoot)
  if (refused) return { store: emptyTrustStore(), refused }
  try {
    return { store: sanitizeTrustStore(JSON.parse(readFileSync(file, 'utf8'))), refused }
  } catch {
    return { store: emptyTrustStore(), refused }
  }
}

const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true },
}

/** Run `change` on the store under the lock and write the result atomically. */
async function updateStore<T>(dshHome: string, root: string, change: (store: TrustStore, key: string) => T): Promise<T> {
  try {
    ensurePrivateDir(dshHome)
  } catch (err) {
    throw new Error(`refusing to write the trust store: ${(err as Error).message}`)
  }
  const file = trustFilePath(dshHome)
  const refused = refusal(file, root)
  if (refused) throw new Error(`refusing to write the trust store: ${refused}`)
  const { default: lockfile } = await import('proper-lockfile')
  const release = await lockfile.lock(file, LOCK_OPTIONS)
  try {
    const again = refusal(file, root)
    if (again) throw new Error(`refusing to write the trust store: ${again}`)
    const store = storeForWrite(file)
    const result = change(store, canonicalRoot(root))
    writePrivateFile(file, `${JSON.stringify(store, null, 2)}\n`)
    return result
  } finally {
    await release()
  }
}

/**
 * The store to modify: empty when the file does not exist; throws — the file
 * untouched — when it is not JSON, not a store, or a version this build does
 * not know (a newer dsh-mcp wrote it), so a write never wipes records.
 */
function storeForWrite(file: string): TrustStore {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return emptyTrustStore()
    throw new Error(`refusing to write the trust store: ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  const repair = `; nothing was written. Repair it by hand (it is JSON), or move it aside (mv ${file} ${file}.bak) and trust your servers again`
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new Error(`refusing to write the trust store: ${file} is not valid JSON (${jsonWhere(err, text)})${repair}`)
  }
  if (isRecord(value) && typeof value.version === 'number' && value.version > 1) {
    throw new Error(`refusing to write the trust store: ${file} was written by a newer dsh-mcp (store version ${value.version}; this one writes version 1); upgrade dsh-mcp, nothing was written`)
  }
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.projects)) {
    throw new Error(`refusing to write the trust store: ${file} is not a version 1 trust store${repair}`)
  }
  return sanitizeTrustStore(value)
}

/** `line L, column C` of a JSON.parse error, without quoting the text. */
function jsonWhere(err: unknown, text: string): string {
  const m = /position (\d+)/.exec(String((err as Error).message))
  if (!m) return 'unexpected end or token'
  const at = Math.min(Number(m[1]), text.length)
  const before = text.slice(0, at)
  const line = before.split('\n').length
  return `line ${line}, column ${at - before.lastIndexOf('\n')}`
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
