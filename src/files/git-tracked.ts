/**
 * What git makes of a file: whether it tracks it, and whether it ignores it.
 * A `.gitignore` line does nothing for a file a repository committed, and a
 * later `!` rule can un-ignore it: the local layer (secrets) must be neither.
 *
 * Contract: `gitTracks(root, file)` is `true` when `git ls-files` lists
 * `file` in the repository that holds `root` (at `root` or any directory
 * above it), `false` when it does not; `gitIgnores(root, file)` is `true`
 * when git's ignore rules (`check-ignore --no-index`) ignore it, `false` when
 * they do not. Both are `undefined` when it cannot be told (not in a
 * repository, no git on the absolute entries of `PATH`, a repository git
 * refuses, a timeout); they never throw. Git runs with fsmonitor off, no
 * system config, no prompt and stdio closed: neither command runs a hook,
 * filter or pager, and a checkout's `.git/config` cannot name a command for
 * them.
 *
 * @module
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { resolveCommand } from '../launch/resolve.ts'

const GIT_TIMEOUT_MS = 5_000

/** Run git in `root`: its exit status, or undefined when it could not run. */
function git(root: string, args: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  const bin = resolveCommand('git', env, root)
  if (!('path' in bin)) return undefined
  try {
    execFileSync(bin.path, ['-c', 'core.fsmonitor=false', ...args], {
      cwd: root,
      env: { PATH: env.PATH ?? '/usr/bin:/bin', ...(env.HOME ? { HOME: env.HOME } : {}), GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
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
const answer = (status: number | undefined): boolean | undefined => (status === 0 ? true : status === 1 ? false : undefined)

export function gitTracks(root: string, file: string, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  return answer(git(root, ['ls-files', '--error-unmatch', '--', path.relative(root, file)], env))
}

export function gitIgnores(root: string, file: string, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  return answer(git(root, ['check-ignore', '-q', '--no-index', '--', path.relative(root, file)], env))
}
