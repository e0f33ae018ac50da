/**
 * What a stdio server's start really runs, decided once for every starter — the host's launcher and
 * doctor's probes alike: the file a command resolves to (absolute PATH entries only, never into a project
 * checkout, resolve.ts) and a package runner's arguments and environment with its project config
 * neutralised or refused (ambient.ts).
 *
 * Contract: `prepareLaunch(command, args, env, cwd, checkouts)` never throws and starts nothing. It returns
 * `{ file, args, env }` (the file to spawn, the arguments, variables to add to the environment) or
 * `{ refuse, code, errno }`: nothing may start — `errno` ENOENT / EACCES (exit 127 / 126, the spawn's own
 * errno) or `EINSIDE` / `ambient` (exit 126) with `refuse` the one line that says why (no value in it).
 * `checkouts` absent: the cwd when it is a project root (`.dsh/` or `.git` there), never the home directory.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { neutralRunner } from './ambient.ts'
import { checkoutRoots, resolveCommand } from './resolve.ts'

export type Prepared =
  | { file: string; args: string[]; env: Record<string, string> }
  | { refuse: string; code: 126 | 127; errno: 'ENOENT' | 'EACCES' | 'EINSIDE' | 'ambient' }

/** The checkouts a start must not resolve into: those given, else its cwd when that is a project root. */
export function checkoutsFor(cwd: string, given: readonly string[] | undefined, home = homedir()): string[] {
  if (given) return [...given]
  return existsSync(path.join(cwd, '.dsh')) || existsSync(path.join(cwd, '.git')) ? checkoutRoots([cwd], [home]) : []
}

export function prepareLaunch(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  checkouts?: readonly string[],
  home = homedir(),
): Prepared {
  const roots = checkoutsFor(cwd, checkouts, home)
  const resolved = resolveCommand(command, env, cwd, roots)
  if ('code' in resolved) {
    if (resolved.code === 'EINSIDE')
      return {
        refuse: `it resolves to ${resolved.path}, inside the project checkout ${resolved.checkout} (a PATH entry points into the repository); refused — write the path as the command to run that file, or fix PATH`,
        code: 126,
        errno: 'EINSIDE',
      }
    return { refuse: resolved.code, code: resolved.code === 'EACCES' ? 126 : 127, errno: resolved.code }
  }
  const stop = roots.find((c) => !path.relative(c, cwd).startsWith('..'))
  const neutral = neutralRunner(command, args, env, { cwd, home, stop })
  if ('refuse' in neutral) return { refuse: neutral.refuse, code: 126, errno: 'ambient' }
  return {
    file: resolved.path,
    args: 'args' in neutral ? neutral.args : [...args],
    env: 'env' in neutral ? neutral.env : {},
  }
}
