/**
 * A project as the CLI sees it: its root, its present layer files, and the
 * merged rows — read fresh from disk on every call. Each row a lock covers
 * carries its `.dsh/mcp.lock` entry (lock/pin.ts: the lock of the row's home
 * directory, read here), so the trust fingerprint the CLI computes is the
 * host's. A lock that does not read pins nothing.
 *
 * @module
 */
import type { LayerInput, Row } from '../config/layers.ts'
import { mergeLayers } from '../config/layers.ts'
import type { ProjectRoot } from '../config/root.ts'
import type { LockFile } from '../lock/format.ts'
import { attachLockPins } from '../lock/pin.ts'
import { readLockFile } from './lock-file.ts'
import { type Locations, projectRootOf, type ReadLayersOptions, readLayers } from './read.ts'

export interface ProjectView {
  root: ProjectRoot
  layers: LayerInput[]
  rows: Row[]
}

export function loadProject(dir: string, loc: Locations, opts: ReadLayersOptions = {}): ProjectView {
  const root = projectRootOf(dir, loc)
  const layers = readLayers(root.root, loc, opts)
  const rows = mergeLayers(layers)
  return { root, layers, rows: attachLockPins(rows, root.root, lockReader()) }
}

/** Each directory's lock, read once per view. */
function lockReader(): (dir: string) => LockFile | undefined {
  const seen = new Map<string, LockFile | undefined>()
  return (dir) => {
    if (!seen.has(dir)) {
      const r = readLockFile(dir)
      seen.set(dir, 'lock' in r ? r.lock : undefined)
    }
    return seen.get(dir)
  }
}
