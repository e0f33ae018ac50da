/**
 * A project as the CLI sees it: its root, its present layer files, and the
 * merged rows — read fresh from disk on every call.
 *
 * @module
 */
import type { LayerInput, Row } from '../config/layers.ts'
import { mergeLayers } from '../config/layers.ts'
import type { ProjectRoot } from '../config/root.ts'
import { type Locations, projectRootOf, type ReadLayersOptions, readLayers } from './read.ts'

export interface ProjectView {
  root: ProjectRoot
  layers: LayerInput[]
  rows: Row[]
}

export function loadProject(dir: string, loc: Locations, opts: ReadLayersOptions = {}): ProjectView {
  const root = projectRootOf(dir, loc)
  const layers = readLayers(root.root, loc, opts)
  return { root, layers, rows: mergeLayers(layers) }
}
