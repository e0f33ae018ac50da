/**
 * Which file a server's `command` runs.
 *
 * Contract: `resolveCommand(command, env, cwd)` on POSIX:
 * - a command with a `/` is a path, taken relative to `cwd` as written
 *   (the entry says which file; the trust review shows it);
 * - a bare name is looked up in the **absolute** entries of `env.PATH`
 *   only, in order (`/usr/bin:/bin` when PATH is unset): an empty entry
 *   (`:/usr/bin`, a trailing `:`), `.` or any relative entry (`bin`,
 *   `node_modules/.bin`) is skipped, because it would resolve inside the
 *   checkout the server is started in. The first regular, executable file
 *   wins.
 * - `checkouts` (absolute directories: the project checkouts an agent runs
 *   in): a bare name whose winning file lies inside one of them (an
 *   activated `.venv/bin`, direnv's `PATH_add`, `$PWD/node_modules/.bin`
 *   on PATH; compared after resolving links) is refused —
 *   `{ code: 'EINSIDE', path, checkout }` — never run as if it were the
 *   system's command (the review shows it as refused too). A command written
 *   as a path is the file the entry names, and the review shows it.
 * - `checkoutRoots(roots, homes)` keeps the absolute roots that hold none
 *   of `homes` (the user's home, `$DSH_HOME`): a home directory is no
 *   checkout (refusing into it would refuse `~/.local/bin`).
 * Returns `{ path }` (absolute for a bare name), or `{ code: 'ENOENT' }`
 * (nothing found) / `{ code: 'EACCES' }` (found, not executable) — the
 * errno a spawn would give. On Windows the command is returned unchanged
 * (its launcher shim resolves through `cmd /c`). Never throws.
 *
 * The host's launcher and doctor's probes both use it. Node builtins only.
 *
 * @module
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs'
import path from 'node:path'

export type Resolved =
  | { path: string }
  | { code: 'ENOENT' | 'EACCES' }
  | { code: 'EINSIDE'; path: string; checkout: string }

function real(p: string): string {
  try {
    return realpathSync(p)
  } catch {
    return path.resolve(p)
  }
}

function holds(root: string, dir: string): boolean {
  const rel = path.relative(root, dir)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

export function checkoutRoots(roots: Iterable<string>, homes: readonly string[]): string[] {
  return [...new Set(roots)].filter((r) => path.isAbsolute(r) && !homes.some((h) => holds(r, h)))
}

/** The checkout `file` lies in (after links), if any. */
export function insideCheckout(file: string, checkouts: readonly string[]): string | undefined {
  const f = real(file)
  for (const c of checkouts) {
    if (!path.isAbsolute(c)) continue
    if (holds(real(c), f)) return c
  }
  return undefined
}

const DEFAULT_PATH = '/usr/bin:/bin'

function check(file: string): 'ok' | 'ENOENT' | 'EACCES' {
  try {
    if (!statSync(file).isFile()) return 'EACCES'
  } catch {
    return 'ENOENT'
  }
  try {
    accessSync(file, constants.X_OK)
    return 'ok'
  } catch {
    return 'EACCES'
  }
}

export function resolveCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
  checkouts: readonly string[] = [],
): Resolved {
  if (process.platform === 'win32') return { path: command }
  if (command.includes('/')) {
    const r = check(path.resolve(cwd ?? process.cwd(), command))
    return r === 'ok' ? { path: command } : { code: r }
  }
  if (command === '' || command === '.' || command === '..') return { code: 'ENOENT' }
  let denied = false
  for (const dir of (env.PATH ?? DEFAULT_PATH).split(':')) {
    if (!path.isAbsolute(dir)) continue
    const file = path.join(dir, command)
    const r = check(file)
    if (r === 'ok') {
      const checkout = insideCheckout(file, checkouts)
      return checkout ? { code: 'EINSIDE', path: file, checkout } : { path: file }
    }
    if (r === 'EACCES') denied = true
  }
  return { code: denied ? 'EACCES' : 'ENOENT' }
}
