/**
 * Whether git tracks a file: a `.gitignore` line does nothing for a file a
 * repository already committed, so the local layer (secrets) must not be one.
 *
 * Contract: `gitTracks(root, file)` is `true` when `git ls-files` lists
 * `file` in the repository at `root`, `false` when it does not, and
 * `undefined` when that cannot be told (no `.git` at `root`, no git on the
 * absolute entries of `PATH`, a repository git refuses, a timeout). It never
 * throws. Git runs with the repository's fsmonitor turned off, no system
 * config, no prompt and stdio closed: `ls-files` runs no hook, filter or
 * pager, and a checkout's `.git/config` cannot name a command for it.
 *
 * @module
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { resolveCommand } from '../launch/resolve.ts'

const GIT_TIMEOUT_MS = 5_000

export function gitTracks(root: string, file: string, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  if (!existsSync(path.join(root, '.git'))) return undefined
  const git = resolveCommand('git', env, root)
  if (!('path' in git)) return undefined
  const rel = path.relative(root, file)
  try {
    execFileSync(git.path, ['-c', 'core.fsmonitor=false', 'ls-files', '--error-unmatch', '--', rel], {
      cwd: root,
      env: { PATH: env.PATH ?? '/usr/bin:/bin', ...(env.HOME ? { HOME: env.HOME } : {}), GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      stdio: 'ignore',
      timeout: GIT_TIMEOUT_MS,
    })
    return true
  } catch (err) {
    // Exit 1: git knows the repository and does not track the file; anything else says nothing.
    return (err as { status?: number | null }).status === 1 ? false : undefined
  }
}
