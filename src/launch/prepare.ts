/**
 * What a stdio server's start really runs, decided once for every starter — the host's launcher and
 * doctor's probes alike: the file a command resolves to (absolute PATH entries only, never into a project
 * checkout, resolve.ts), a package runner's arguments and environment with its project config
 * neutralised or refused (ambient.ts), and the child's `PATH`: relative and empty entries and entries
 * inside a checkout are removed, so an interpreter a script names (`#!/usr/bin/env node`) or a command the
 * server spawns never resolves into the repository. npm's runners also put every `node_modules/.bin` from
 * the cwd up to `/` ahead of that PATH (its run-script does, whatever `--prefix` says): a start is refused
 * when one of those directories holds a name the cleaned PATH also has (`node_modules/.bin/node` shadowing
 * the system's node) — a package's own bins come first and a checkout's tools (`tsc`, `eslint`) are left alone.
 *
 * Contract: `prepareLaunch(command, args, env, cwd, checkouts)` never throws and starts nothing. It returns
 * `{ file, args, env }` (the file to spawn, the arguments, variables to add to the environment) or
 * `{ refuse, code, errno }`: nothing may start — `errno` ENOENT / EACCES (exit 127 / 126, the spawn's own
 * errno) or `EINSIDE` / `ambient` (exit 126) with `refuse` the one line that says why (no value in it).
 * `checkouts` absent: the cwd when it is a project root (`.dsh/` or `.git` there), never the home directory.
 * `locked` given (a repository server): a server the project's lock pins starts from its prepared install
 * with this process's node (locked.ts), or is refused (`errno` `locked`, exit 126: stale, not prepared,
 * integrity mismatch); a server the lock does not name starts as written.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { readdirSync } from 'node:fs'
import { neutralRunner, runnerFamily } from './ambient.ts'
import { type LockedRef, lockedStart } from './locked.ts'
import { checkoutRoots, insideCheckout, resolveCommand } from './resolve.ts'

export type Prepared =
  | { file: string; args: string[]; env: Record<string, string> }
  | { refuse: string; code: 126 | 127; errno: 'ENOENT' | 'EACCES' | 'EINSIDE' | 'ambient' | 'locked' }

/** The checkouts a start must not resolve into: those given, else its cwd when that is a project root. */
export function checkoutsFor(cwd: string, given: readonly string[] | undefined, home = homedir()): string[] {
  if (given) return [...given]
  return existsSync(path.join(cwd, '.dsh')) || existsSync(path.join(cwd, '.git')) ? checkoutRoots([cwd], [home]) : []
}

/** `PATH` without relative or empty entries and without entries inside a checkout (after links). */
export function cleanPath(value: string | undefined, checkouts: readonly string[]): string | undefined {
  if (value === undefined) return undefined
  const kept = value
    .split(path.delimiter)
    .filter((d) => path.isAbsolute(d) && insideCheckout(d, checkouts) === undefined)
  return kept.join(path.delimiter)
}

/** A `node_modules/.bin/<name>` from `cwd` up to `/` that would shadow `<name>` of the cleaned PATH, if any. */
export function shadowedByNodeModules(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    const bin = path.join(d, 'node_modules', '.bin')
    let names: string[] = []
    try {
      names = readdirSync(bin)
    } catch {
      // no such directory
    }
    for (const name of names) {
      const system = resolveCommand(name, env, cwd)
      if ('path' in system) return path.join(bin, name)
    }
    if (path.dirname(d) === d) return undefined
  }
}

export function prepareLaunch(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  checkouts?: readonly string[],
  home = homedir(),
  locked?: LockedRef,
): Prepared {
  if (locked) {
    const l = lockedStart(locked, command, args, process.execPath)
    if (l && 'refuse' in l) return { refuse: l.refuse, code: 126, errno: 'locked' }
    if (l) return prepareLaunch(l.file, l.args, env, cwd, checkouts, home)
  }
  const roots = checkoutsFor(cwd, checkouts, home)
  const resolved = resolveCommand(command, env, cwd, roots)
  const PATH = cleanPath(env.PATH, roots)
  const pathEnv: Record<string, string> = PATH !== undefined && PATH !== env.PATH ? { PATH } : {}
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
  if (runnerFamily(command, args) === 'npm') {
    const shadow = shadowedByNodeModules(cwd, { ...env, ...pathEnv })
    if (shadow)
      return {
        refuse: `npm puts ${path.dirname(shadow)} ahead of PATH when it runs the package, and ${shadow} would stand in for the system's ${path.basename(shadow)}; refused — remove it, or run the server's file directly`,
        code: 126,
        errno: 'ambient',
      }
  }
  return {
    file: resolved.path,
    args: 'args' in neutral ? neutral.args : [...args],
    env: { ...('env' in neutral ? neutral.env : {}), ...pathEnv },
  }
}
