/**
 * Project root discovery (docs/guide/layers.md).
 *
 * Contract: walk up from a directory to the nearest ancestor holding a config
 * file (a project layer file of layers.ts: `.dsh/mcp.local.yml`,
 * `.dsh/mcp.yml`, `.dsh/mcp.json`, `.mcp.json`),
 * stopping at — and including — the nearest `.git` root; with none, that
 * `.git` root; with no `.git`, the directory itself. Never above the user's
 * home directory, never into a directory `foreign` names (owned by another
 * user: a `.dsh/` planted in a shared parent such as `/tmp` configures
 * nothing below it), and the user's own `$DSH_HOME/mcp.yml` is never a
 * project marker. Pure: the caller passes `exists` and `foreign`.
 *
 * @module
 */
import path from 'node:path'
import { projectLayerFiles } from './layers.ts'

/** A project's layer files relative to its root (layers.ts, `.mcp.json` included): any one of them marks the root. */
export const ROOT_MARKERS: readonly string[] = projectLayerFiles('').map((f) => f.file)

export interface RootProbe {
  exists(p: string): boolean
  /** The user's home directory: the walk never goes above it. */
  home: string
  /** Files that are never markers (the user-layer file). */
  notMarkers?: readonly string[]
  /** Directories the walk never enters (owned by another user): it stops below them. */
  foreign?(dir: string): boolean
}

export interface ProjectRoot {
  root: string
  /** Which rule found it. */
  reason: 'config' | 'git' | 'cwd'
}

export function findProjectRoot(dir: string, probe: RootProbe): ProjectRoot {
  const start = path.resolve(dir)
  const home = path.resolve(probe.home)
  const skip = new Set((probe.notMarkers ?? []).map((p) => path.resolve(p)))
  const underHome = start === home || start.startsWith(home + path.sep)
  let d = start
  for (;;) {
    for (const m of ROOT_MARKERS) {
      const candidate = path.join(d, m)
      if (!skip.has(candidate) && probe.exists(candidate)) return { root: d, reason: 'config' }
    }
    if (probe.exists(path.join(d, '.git'))) return { root: d, reason: 'git' }
    const parent = path.dirname(d)
    if (parent === d || (underHome && d === home) || probe.foreign?.(parent)) break
    d = parent
  }
  return { root: start, reason: 'cwd' }
}
