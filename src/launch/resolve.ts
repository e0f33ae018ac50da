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
 * Returns `{ path }` (absolute for a bare name), or `{ code: 'ENOENT' }`
 * (nothing found) / `{ code: 'EACCES' }` (found, not executable) — the
 * errno a spawn would give. On Windows the command is returned unchanged
 * (its launcher shim resolves through `cmd /c`). Never throws.
 *
 * The host's launcher and doctor's probes both use it. Node builtins only.
 *
 * @module
 */
import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'

export type Resolved = { path: string } | { code: 'ENOENT' | 'EACCES' }

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
    if (r === 'ok') return { path: file }
    if (r === 'EACCES') denied = true
  }
  return { code: denied ? 'EACCES' : 'ENOENT' }
}
