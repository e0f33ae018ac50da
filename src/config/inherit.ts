/**
 * Monorepo inheritance (docs/guide/monorepos.md): which directories above a
 * project contribute files, and which directory a row belongs to.
 *
 * Contract: pure (the caller passes `exists` and `read`).
 * - `inheritedDirs(root, probe)`: the project root's parent directories up to
 *   the repository root — the nearest ancestor holding `.git` — nearest
 *   first, the repository root included. Empty when the project root is
 *   itself a repository root, or when no `.git` is found strictly below the
 *   user's home directory (a repository at `~` itself does not count), the filesystem root or a directory `foreign` names:
 *   outside a repository nothing above a project is known to belong to it,
 *   so nothing is inherited.
 * - `readChain(dirs, opts, read)`: the layer inputs of the project (`dirs[0]`)
 *   and of each directory above it (level 1, 2, …), stopping after the first
 *   directory one of whose files says `inherit: false` — its own files still
 *   count, nothing above it does.
 * - `rowHome(row, root)`: the directory a row belongs to — the nearest
 *   directory that contributed a field (a parent's server with no local
 *   override: that parent; with one from the project: the project). Trust,
 *   project secrets and a relative `cwd` are that directory's, so a server a
 *   repository root defines is the same row (same fingerprint, same mount)
 *   in every package that inherits it. A user row: `root`.
 *
 * @module
 */
import path from 'node:path'
import { contributors, type LayerFile, type LayerInput, layerDirOf, projectLayerFiles, type Row } from './layers.ts'

export interface InheritProbe {
  exists(p: string): boolean
  /** The user's home directory: the walk never goes above it. */
  home: string
  /** Directories the walk never enters (owned by another user). */
  foreign?(dir: string): boolean
}

/** The directories above `root` whose files the project inherits, nearest first (see the module contract). */
export function inheritedDirs(root: string, probe: InheritProbe): string[] {
  const start = path.resolve(root)
  if (probe.exists(path.join(start, '.git'))) return []
  const home = path.resolve(probe.home)
  const underHome = start === home || start.startsWith(home + path.sep)
  const out: string[] = []
  let d = start
  for (;;) {
    const parent = path.dirname(d)
    // Strictly below home: a dotfiles repository at ~ would make the user's own ~/.dsh/mcp.yml a "parent".
    if (parent === d || (underHome && (d === home || parent === home)) || probe.foreign?.(parent)) return []
    d = parent
    out.push(d)
    if (probe.exists(path.join(d, '.git'))) return out
  }
}

/** Every layer file of the chain (project first, then each parent), strongest first. */
export function chainLayerFiles(dirs: readonly string[], opts: { legacyMcpJson?: boolean } = {}): LayerFile[] {
  return dirs.flatMap((dir, level) => projectLayerFiles(dir, opts, level))
}

/** The present layers of the project (`dirs[0]`) and its parents, cut above the first directory with `inherit: false`. */
export function readChain(
  dirs: readonly string[],
  opts: { legacyMcpJson?: boolean },
  read: (layer: LayerFile) => LayerInput | undefined,
): LayerInput[] {
  const out: LayerInput[] = []
  for (let level = 0; level < dirs.length; level++) {
    const got = projectLayerFiles(dirs[level]!, opts, level).flatMap((l) => read(l) ?? [])
    out.push(...got)
    if (got.some((i) => i.parsed.inherit === false)) break
  }
  return out
}

/** The directory a row belongs to: the nearest (deepest) project directory that contributed to it; `root` for a user row. */
export function rowHome(row: Pick<Row, 'scope' | 'file' | 'sources'>, root: string): string {
  let best: string | undefined
  for (const s of contributors(row)) {
    if (s.scope === 'user') continue
    const dir = layerDirOf(s)
    if (best === undefined || dir.length > best.length) best = dir
  }
  return best ?? root
}
