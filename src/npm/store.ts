/**
 * The prepared-install store: `$DSH_HOME/mcp-store/` (0700, private-dir.ts), one directory per lock
 * entry, named by a hash of the entry's integrities (package, version, tarball integrity and every
 * integrity of its tree: another lock never shares it, the same lock always does). `prepare` installs an
 * entry with npm's own arborist from a package-lock written from the lock (lock/format.ts — the entries
 * installed, the lock's pure half): install scripts off, every tarball checked against the lock's
 * integrity by npm's libraries (EINTEGRITY on a mismatch), the user's npm config only (config.ts). It
 * installs into a fresh temp directory inside the store and renames it into place once checked, so a
 * failed or killed install leaves nothing at the entry's name. A manifest written last
 * (`.dsh-mcp-prepared.json`) holds the bin to run and a digest of every installed file; `storeState`
 * recomputes the digest, so a file changed after the install reads `integrity mismatch`.
 *
 * Contract: `storeDirOf(dshHome, entry)`; `prepareEntry(entry, opts, dshHome)` resolves to the entry's
 * directory (already prepared: nothing fetched) or throws an Error naming the package (no credential),
 * leaving no entry directory behind; `storeState(dshHome, entry)` never throws:
 * `{ state: 'not prepared' }`, `{ state: 'integrity mismatch', why }` or
 * `{ state: 'prepared', bin }` (the absolute bin file, checked to lie inside the entry).
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { canonicalJson } from '../config/canonical-json.ts'
import { ensurePrivateDir } from '../files/private-dir.ts'
import type { LockEntry } from '../lock/format.ts'
import { loadNpmLibrary, type NpmOptions } from './config.ts'

const MANIFEST = '.dsh-mcp-prepared.json'

interface Manifest {
  package: string
  version: string
  integrity: string
  /** The bin file, relative to the entry directory. */
  bin: string
  /** sha256 over every installed file's path, mode bits and content. */
  digest: string
}

export function storeRootOf(dshHome: string): string {
  return path.join(dshHome, 'mcp-store')
}

export function storeKey(entry: LockEntry): string {
  const tree = Object.fromEntries(Object.entries(entry.packages).map(([k, v]) => [k, [v.version, v.integrity]]))
  const id = { package: entry.package, version: entry.version, integrity: entry.integrity, tree }
  return createHash('sha256').update(canonicalJson(id)).digest('hex').slice(0, 40)
}

export function storeDirOf(dshHome: string, entry: LockEntry): string {
  return path.join(storeRootOf(dshHome), storeKey(entry))
}

/** Every regular file and link under `dir/node_modules`, sorted, with its kind, exec bit and content hash. */
function digestOf(dir: string): string {
  const h = createHash('sha256')
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = path.join(rel, name)
      const st = lstatSync(path.join(dir, r))
      if (st.isDirectory()) walk(r)
      else if (st.isFile())
        h.update(`${r}\0f${st.mode & 0o111 ? 'x' : '-'}\0`).update(
          createHash('sha256')
            .update(readFileSync(path.join(dir, r)))
            .digest(),
        )
      else h.update(`${r}\0other\0`)
    }
  }
  walk('node_modules')
  return h.digest('hex')
}

/** The bins the installed package declares (its own package.json in the store, not the lock's record). */
export function installedBins(dir: string, entry: LockEntry): Record<string, string> {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'node_modules', entry.package, 'package.json'), 'utf8')) as {
    name?: unknown
    bin?: unknown
  }
  if (pkg.name !== entry.package) throw new Error(`the installed package is not ${entry.package}`)
  if (typeof pkg.bin === 'string') return { [entry.package.replace(/^@[^/]+\//, '')]: pkg.bin }
  if (pkg.bin === null || typeof pkg.bin !== 'object') return {}
  return Object.fromEntries(Object.entries(pkg.bin).filter((e): e is [string, string] => typeof e[1] === 'string'))
}

function binFile(dir: string, entry: LockEntry): string {
  const rel = installedBins(dir, entry)[entry.bin]
  if (rel === undefined) throw new Error(`${entry.package}@${entry.version} has no bin ${entry.bin}`)
  const file = path.join('node_modules', entry.package, rel)
  if (path.relative(path.join('node_modules', entry.package), file).startsWith('..') || path.isAbsolute(rel))
    throw new Error(`${entry.package}@${entry.version}: its bin ${entry.bin} lies outside the package`)
  statSync(path.join(dir, file))
  return file
}

export type StoreState =
  | { state: 'not prepared' }
  | { state: 'integrity mismatch'; why: string }
  | { state: 'prepared'; bin: string; dir: string; bins: Record<string, string> }

export function storeState(dshHome: string, entry: LockEntry): StoreState {
  const dir = storeDirOf(dshHome, entry)
  let manifest: Manifest
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code === 'ENOENT'
      ? { state: 'not prepared' }
      : { state: 'integrity mismatch', why: 'its manifest does not read' }
  }
  if (
    manifest.integrity !== entry.integrity ||
    manifest.version !== entry.version ||
    manifest.package !== entry.package
  )
    return {
      state: 'integrity mismatch',
      why: 'its manifest names another package, version or integrity than the lock',
    }
  try {
    if (digestOf(dir) !== manifest.digest)
      return { state: 'integrity mismatch', why: 'its files changed after they were installed and checked' }
    const bin = binFile(dir, entry)
    if (bin !== manifest.bin) return { state: 'integrity mismatch', why: 'its bin is not the one the lock names' }
    return { state: 'prepared', bin: path.join(dir, bin), dir, bins: installedBins(dir, entry) }
  } catch (e) {
    return { state: 'integrity mismatch', why: (e as Error).message.split('\n')[0]! }
  }
}

/**
 * The package-lock npm installs from: the lock entry's tree under a private root package, each package's
 * `resolved` tarball address derived here from the registry the user's npm config sets for its scope
 * (npm's own pickRegistry) and its name and exact version — never taken from the lock (the schema admits
 * no address), so npm is handed registry tarballs only: no git, file or remote URL to fetch.
 */
function packageLock(entry: LockEntry, opts: NpmOptions): string {
  const fetch = loadNpmLibrary<{ pickRegistry(spec: string, opts: NpmOptions): string }>('npm-registry-fetch')
  const packages: Record<string, unknown> = {}
  for (const [loc, p] of Object.entries(entry.packages)) {
    const name = p.name ?? loc.slice(loc.lastIndexOf('node_modules/') + 'node_modules/'.length)
    const reg = fetch.pickRegistry(name, opts).replace(/\/*$/, '/')
    const resolved = `${reg}${name}/-/${name.replace(/^@[^/]+\//, '')}-${p.version}.tgz`
    packages[loc] = { ...p, resolved }
  }
  const root = { name: 'dsh-mcp-prepared', private: true, dependencies: { [entry.package]: entry.version } }
  return JSON.stringify(
    { name: root.name, lockfileVersion: 3, requires: true, packages: { '': root, ...packages } },
    null,
    2,
  )
}

export async function prepareEntry(entry: LockEntry, opts: NpmOptions, dshHome: string): Promise<string> {
  const dir = storeDirOf(dshHome, entry)
  const now = storeState(dshHome, entry)
  if (now.state === 'prepared') return dir
  const root = ensurePrivateDir(storeRootOf(dshHome), { base: dshHome })
  const tmp = path.join(root, `.tmp-${randomBytes(8).toString('hex')}`)
  mkdirSync(tmp, { mode: 0o700 })
  try {
    const root = { name: 'dsh-mcp-prepared', private: true, dependencies: { [entry.package]: entry.version } }
    writeFileSync(path.join(tmp, 'package.json'), `${JSON.stringify(root, null, 2)}\n`)
    writeFileSync(path.join(tmp, 'package-lock.json'), packageLock(entry, opts))
    const Arborist = loadNpmLibrary<typeof import('@npmcli/arborist')>('@npmcli/arborist')
    const arb = new Arborist({ ...opts, path: tmp, ignoreScripts: true, audit: false, fund: false, save: false })
    const tree = await arb.reify({ save: false })
    // What npm installed is exactly the lock's tree: each location, version and integrity.
    const got = new Map([...tree.inventory.values()].filter((n) => !n.isRoot).map((n) => [n.location, n]))
    for (const [loc, want] of Object.entries(entry.packages)) {
      const n = got.get(loc)
      if (!n || n.version !== want.version || n.integrity !== want.integrity)
        throw new Error(`${entry.package}@${entry.version}: ${loc} is not what the lock names (${want.version})`)
      const installed = JSON.parse(readFileSync(path.join(tmp, loc, 'package.json'), 'utf8')) as { version?: string }
      if (installed.version !== want.version)
        throw new Error(`${entry.package}@${entry.version}: ${loc} did not install`)
    }
    if (got.size !== Object.keys(entry.packages).length)
      throw new Error(`${entry.package}@${entry.version}: npm installed packages the lock does not name`)
    const manifest: Manifest = {
      package: entry.package,
      version: entry.version,
      integrity: entry.integrity,
      bin: binFile(tmp, entry),
      digest: digestOf(tmp),
    }
    writeFileSync(path.join(tmp, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 })
    rmSync(dir, { recursive: true, force: true })
    renameSync(tmp, dir)
    return dir
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true })
    throw e
  }
}
