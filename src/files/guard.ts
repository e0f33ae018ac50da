/**
 * Which config files this user may let configure their agents: the file
 * edge of trust (issue 12 class 4, issue 13 item 4), like git's
 * `safe.directory`.
 *
 * Contract:
 * - `fileRefusal(layer, ctx)` says why a present layer file is refused, or
 *   undefined. A project file (`ctx.root` given) is refused with reason
 *   `symlink-out` when it, or a directory between the root and it (`.dsh`),
 *   is a symbolic link whose target lies outside the project's real root —
 *   such a file is never read, so none of its lines can be quoted anywhere.
 *   Any file is refused with reason `ownership` when it (its target), its
 *   `.dsh/` directory or the project root is owned by another user, when the
 *   file is writable by others or by a group other than the user's primary
 *   group, or when one of those directories is so writable without the
 *   sticky bit. Ownership refusals
 *   are lifted for a root listed in `$DSH_MCP_SAFE_ROOTS` (path-delimited)
 *   or in `$DSH_HOME/mcp-safe-roots` (one absolute path per line, `#`
 *   comments; `*` allows every root) — the explicit allow. The allow list is
 *   read only when a file would be refused.
 * - `linkOutside(file, root)` names the first link on the way from `root` to
 *   `file` that leaves `root`, with its target (a dangling link's target is
 *   its resolved text). Writers use it to refuse writing through a link.
 * - `realPath(p)` / `isInside(child, parent)` are the path primitives the
 *   trust store shares.
 *   A symbolic link owned by another user is refused whatever its target.
 *   The user file is also refused when `$DSH_HOME` is another user's or
 *   writable by others (`homeProblem`), with no allow list (it would live in
 *   that very directory), and — reason `symlink-out` — when it has more
 *   than one hard link, or when its real path lies inside a repository (`repositoryOf`; `DSH_HOME` in a checkout, or a
 *   link into one): whoever commits there would configure every agent.
 * - `foreignDir(dir)` says whether root discovery may look in `dir`: not
 *   when it is owned by another user.
 * - `linkTarget(file)` is where `file` points when it is itself a link (the
 *   writers refuse one wherever it points).
 * Never throws; no uid on Windows means no ownership refusals there.
 *
 * @module
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import type { LayerFile } from '../config/layers.ts'
import type { FileRefusal } from '../config/parse.ts'
import { ownedByOther, writableBy } from './private-dir.ts'

/** The one refusal type (config/parse.ts `FileRefusal`, carried by the parsed file); its verdict: plan/verdict.ts `fileVerdictOf`. */
export type { FileRefusal }
export type RefusalReason = FileRefusal['reason']

export interface GuardContext {
  /** The project root of a project layer file; undefined for the user file. */
  root?: string
  dshHome: string
  /** The user's home directory (a home kept as a repository is the user's own); default the OS's answer. */
  home?: string
  /** Where `$DSH_MCP_SAFE_ROOTS` is read; absent: no allow list from the environment. */
  env?: Readonly<Record<string, string | undefined>>
}

export const SAFE_ROOTS_FILE = 'mcp-safe-roots'
export const SAFE_ROOTS_ENV = 'DSH_MCP_SAFE_ROOTS'

/** The real path of `p` (symlinks resolved), or its absolute form when it does not exist. */
export function realPath(p: string): string {
  try {
    return realpathSync.native(p)
  } catch {
    return path.resolve(p)
  }
}

/** Whether `child` is `parent` or below it (both absolute, same form). */
export function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep)
}

function tryStat(p: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(p) : lstatSync(p)
  } catch {
    return undefined
  }
}

/** Where `file` points when it is a symbolic link; `undefined` when it is not one, does not exist or is a loop (a read reports that). */
export function linkTarget(file: string): string | undefined {
  try {
    if (!lstatSync(file).isSymbolicLink()) return undefined
    const target = readlinkSync(file)
    try {
      statSync(file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') return undefined
    }
    return target
  } catch {
    // absent (or unreadable: the write itself reports that)
    return undefined
  }
}

/** The first symbolic link between `root` (exclusive) and `file` whose target leaves `root`'s real path. */
export function linkOutside(file: string, root: string): { link: string; target: string } | undefined {
  const base = realPath(root)
  const rel = path.relative(path.resolve(root), path.resolve(file))
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined
  let p = path.resolve(root)
  for (const part of rel.split(path.sep).filter(Boolean)) {
    p = path.join(p, part)
    const st = tryStat(p, false)
    if (!st) return undefined
    if (!st.isSymbolicLink()) continue
    let target: string
    try {
      target = realpathSync.native(p)
    } catch {
      try {
        target = path.resolve(path.dirname(p), readlinkSync(p))
      } catch {
        return undefined
      }
    }
    if (!isInside(target, base)) return { link: p, target }
  }
  return undefined
}

/** Whether discovery must not look in `dir`: it belongs to another user. */
export function foreignDir(dir: string): boolean {
  const st = tryStat(dir, true)
  return st !== undefined && ownedByOther(st)
}

/** The ownership problem of a file and its directories, or undefined. */
function ownershipProblem(file: string, root: string | undefined): string | undefined {
  // A link another user planted is theirs to re-point, whoever owns its target today.
  const linkSt = tryStat(file, false)
  if (linkSt?.isSymbolicLink() && ownedByOther(linkSt))
    return `${file} is a symbolic link owned by another user (uid ${linkSt.uid})`
  const fileSt = tryStat(file, true)
  if (fileSt && ownedByOther(fileSt)) return `${file} is owned by another user (uid ${fileSt.uid})`
  if (fileSt) {
    const w = writableBy(fileSt)
    if (w) return `${file} is writable by ${w}`
  }
  if (root === undefined) return homeProblem(path.dirname(file))
  const dirs = [path.dirname(file)]
  if (path.resolve(dirs[0]!) !== path.resolve(root)) dirs.push(root)
  for (const d of dirs) {
    const st = tryStat(d, true)
    if (!st) continue
    if (ownedByOther(st)) return `${d} is owned by another user (uid ${st.uid})`
    const w = writableBy(st)
    if (w && (st.mode & 0o1000) === 0) return `${d} is writable by ${w}`
  }
  return undefined
}

/**
 * Why `$DSH_HOME` itself may not hold the user's own files, or undefined: it
 * is owned by another user, or others can write it (sticky or not — whoever
 * can add or rename a file there decides what runs and what counts as trusted).
 */
export function homeProblem(dshHome: string): string | undefined {
  const st = tryStat(dshHome, true)
  if (!st) return undefined
  if (ownedByOther(st)) return `${dshHome} is owned by another user (uid ${st.uid})`
  const w = writableBy(st)
  return w ? `${dshHome} is writable by ${w}` : undefined
}

/**
 * The repository a real path lies in (an ancestor holding `.git`, `.hg` or
 * `.svn`), or undefined. The user's home directory and above never count: a
 * home kept as a dotfiles repository is the user's own.
 */
export function repositoryOf(real: string, homeDir: string = homedir()): string | undefined {
  const home = realPath(homeDir)
  for (let d = path.dirname(real); ; d = path.dirname(d)) {
    if (d === home || isInside(home, d)) return undefined
    if (['.git', '.hg', '.svn'].some((m) => tryStat(path.join(d, m), false))) return d
    if (path.dirname(d) === d) return undefined
  }
}

/** The roots the user allowed explicitly (`$DSH_MCP_SAFE_ROOTS`, `$DSH_HOME/mcp-safe-roots`; with `fileOnlyOutside`, that file only when it lies outside every repository). */
export function safeRoots(
  dshHome: string,
  env: Readonly<Record<string, string | undefined>> | undefined,
  opts: { fileOnlyOutside?: boolean; home?: string } = {},
): string[] {
  const out = (env?.[SAFE_ROOTS_ENV] ?? '').split(path.delimiter).filter(Boolean)
  const file = path.join(dshHome, SAFE_ROOTS_FILE)
  if (opts.fileOnlyOutside && repositoryOf(realPath(file), opts.home)) return out
  const st = tryStat(file, false)
  // The allow list itself must be the user's own regular file.
  if (st?.isFile() && !ownedByOther(st) && writableBy(st) === undefined) {
    try {
      for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
        const t = line.replace(/#.*/, '').trim()
        if (t) out.push(t)
      }
    } catch {
      // an unreadable allow list allows nothing beyond the environment
    }
  }
  return out
}

function allowed(root: string | undefined, file: string, ctx: GuardContext): boolean {
  const list = safeRoots(ctx.dshHome, ctx.env)
  if (list.includes('*')) return true
  const subject = realPath(root ?? path.dirname(file))
  return list.some((r) => path.isAbsolute(r) && realPath(r) === subject)
}

/** Why a present layer file is refused, or undefined (see the module contract). */
export function fileRefusal(layer: Pick<LayerFile, 'file'>, ctx: GuardContext): FileRefusal | undefined {
  const { root } = ctx
  if (root !== undefined) {
    const out = linkOutside(layer.file, root)
    if (out) {
      return {
        reason: 'symlink-out',
        message: `refused: ${out.link} is a symbolic link to ${out.target}, outside the project ${realPath(root)}; dsh-mcp never reads config through such a link (replace the link with the file itself)`,
      }
    }
  }
  if (root === undefined) {
    const repo = repositoryOf(realPath(layer.file), ctx.home)
    if (
      repo &&
      !safeRoots(ctx.dshHome, ctx.env, { fileOnlyOutside: true, ...(ctx.home ? { home: ctx.home } : {}) }).some(
        (r) => r === '*' || (path.isAbsolute(r) && realPath(r) === repo),
      )
    ) {
      return {
        reason: 'symlink-out',
        message: `refused: the user file ${layer.file} lies inside the repository ${repo} (its real path is ${realPath(layer.file)}), so whoever commits there would decide what runs in every project; nothing from it is mounted. Keep DSH_HOME outside repositories, or, if that repository is your own, add ${repo} to ${SAFE_ROOTS_ENV}`,
      }
    }
  }
  if (root === undefined) {
    // A hard link is refused like a symbolic link: whoever writes another of its names decides what runs.
    const st = tryStat(layer.file, true)
    if (st && st.nlink > 1)
      return {
        reason: 'symlink-out',
        message: `refused: the user file ${layer.file} has ${st.nlink} hard links, so whoever can write another of its names (a file in a repository) would decide what runs in every project; nothing from it is mounted. Replace it with a copy: cp ${layer.file} ${layer.file}.new && mv ${layer.file}.new ${layer.file}`,
      }
  }
  const problem = ownershipProblem(layer.file, root)
  // The user file has no allow: its own directory holds the allow list.
  if (!problem || (root !== undefined && allowed(root, layer.file, ctx))) return undefined
  if (root === undefined) {
    return {
      reason: 'ownership',
      message: `refused: ${problem}, so another user could decide what runs; nothing from it is mounted. Make ${ctx.dshHome} and its files yours and private (chown, chmod 700 / 600)`,
    }
  }
  const subject = root ?? path.dirname(layer.file)
  return {
    reason: 'ownership',
    message: `refused: ${problem}, so another user could decide what runs; nothing from it is mounted. If you trust it, add ${subject} to ${path.join(ctx.dshHome, SAFE_ROOTS_FILE)} (one path per line) or to ${SAFE_ROOTS_ENV}`,
  }
}
