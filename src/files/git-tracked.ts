/**
 * What git makes of a file: whether it tracks it, and whether it ignores it.
 * A `.gitignore` line does nothing for a file a repository committed, and a
 * later `!` rule can un-ignore it: the local layer (secrets) must be neither.
 *
 * Contract: both ask the repository nearest above the real directory of
 * `file` (links resolved; a repository nested inside another is the one that
 * would commit it). `gitTracks(file)` is `true` when `git ls-files` lists
 * it, `false` when it does not; `gitIgnores(file)` is `true` when git's
 * ignore rules (`check-ignore --no-index`) ignore it, `false` when they do
 * not. Both are `undefined` when it cannot be told (not in a
 * repository, no git on the absolute entries of `PATH`, a repository git
 * refuses, a timeout); they never throw. Git runs with fsmonitor off, no
 * system config, no prompt and stdio closed: neither command runs a hook,
 * filter or pager, and a checkout's `.git/config` cannot name a command for
 * them.
 *
 * Why this file layer imports `launch/resolve.ts` (`resolveCommand`): git is
 * found exactly as a server's bare command is — on the absolute entries of
 * `PATH` only, never a relative one that would run a `git` planted in the
 * checkout. One lookup for both keeps that rule from drifting apart.
 *
 * @module
 */
import { execFileSync } from 'node:child_process'
import { realpathSync } from 'node:fs'
import path from 'node:path'
import { resolveCommand } from '../launch/resolve.ts'

const GIT_TIMEOUT_MS = 5_000

/** Run git in `cwd`: its exit status, or undefined when it could not run. */
function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  const bin = resolveCommand('git', env, cwd)
  if (!('path' in bin)) return undefined
  try {
    execFileSync(bin.path, ['-c', 'core.fsmonitor=false', ...args], {
      cwd,
      env: {
        PATH: env.PATH ?? '/usr/bin:/bin',
        ...(env.HOME ? { HOME: env.HOME } : {}),
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_TERMINAL_PROMPT: '0',
        LC_ALL: 'C',
      },
      stdio: 'ignore',
      timeout: GIT_TIMEOUT_MS,
    })
    return 0
  } catch (err) {
    const status = (err as { status?: number | null }).status
    return typeof status === 'number' ? status : undefined
  }
}

/** Exit 0: yes; 1: no; anything else (128: not a repository) says nothing. */
const answer = (status: number | undefined): boolean | undefined =>
  status === 0 ? true : status === 1 ? false : undefined

/**
 * Where to ask about `file`: the real path of its nearest existing directory, and the path from there. Git
 * answers 128 for a path "beyond a symbolic link" (`.dsh` → `inner`), and the repository that would commit
 * the file is the nearest one above its real directory (a nested one at `.dsh` included).
 */
function locate(file: string): { cwd: string; rel: string } | undefined {
  let dir = path.dirname(file)
  for (;;) {
    try {
      const real = realpathSync(dir)
      return { cwd: real, rel: path.relative(dir, file) }
    } catch {
      const up = path.dirname(dir)
      if (up === dir) return undefined
      dir = up
    }
  }
}

function ask(file: string, args: readonly string[], env: NodeJS.ProcessEnv): boolean | undefined {
  const at = locate(file)
  return at ? answer(git(at.cwd, [...args, '--', at.rel], env)) : undefined
}

export function gitTracks(file: string, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  return ask(file, ['ls-files', '--error-unmatch'], env)
}

export function gitIgnores(file: string, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  return ask(file, ['check-ignore', '-q', '--no-index'], env)
}
