/**
 * The files a package runner reads from the directory it runs in, kept out
 * of a trusted server's launch: a commit that adds `.npmrc`
 * (`node-options=--require ./x.cjs`, `registry=`) or `.yarnrc.yml`
 * (`yarnPath:`) must not change what a trusted `npx -y pkg@1.2.3` runs.
 *
 * Decision (docs/guide/trust.md, "ambient files"): **neutralise**, not
 * fingerprint. A package runner's code comes from the registry, never from
 * its cwd, so its project config is switched off where the runner has a
 * switch, and the server refused where it has none and such a file is there.
 * Fingerprinting would ask again on every edit of a file the user never
 * meant as part of the server, and would still miss the files of the
 * directories above the checkout.
 *
 * Contract: `neutralRunner(command, args, env, { cwd, home, stop })`
 * (pure but for `exists`, which reads the disk) is, for a package runner
 * (`npx`, `npm exec|x`, `pnpm dlx`, `pnpx`, `yarn dlx`, `bunx`, `bun x`,
 * `uvx`, `uv tool run`, `pipx run`; any other command: unchanged):
 * - npm (`npx`, `npm exec|x`): `--prefix=<home>` first in the arguments: npm's
 *   local prefix, where it reads the project `.npmrc` and finds local
 *   packages, is the user's home (whose `.npmrc` is the user config: npm
 *   reads it once); the server still runs in `cwd`. `npm_config_userconfig`
 *   / `npm_config_globalconfig` are the host's (the checkout's `.env` is
 *   unset before this: host/project-env.ts).
 * - yarn dlx: `YARN_RC_FILENAME` set to a name no checkout holds and
 *   `YARN_IGNORE_PATH=1` (a `yarnPath:` is never run).
 * - uv (`uvx`, `uv tool run`): `UV_NO_CONFIG=1` (no `uv.toml` or
 *   `pyproject.toml` is discovered).
 * - pnpm (`pnpm dlx`, `pnpx`) and bun (`bunx`, `bun x`), which have no
 *   switch: `{ refuse }` naming the file when one of theirs (`.npmrc`,
 *   `pnpm-workspace.yaml`, `.pnpmfile.cjs`; `bunfig.toml`, `.npmrc`) is in
 *   `cwd` or a directory above it up to `stop` (the checkout root; cwd alone
 *   when none).
 * - pip / pipx read no project file: unchanged.
 * The entry's own `env` is the host's env here (it was reviewed): a name it
 * sets is never overridden. Never throws.
 *
 * The launcher imports this before it starts a server: node builtins and
 * the import-free config/runners.ts only.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { runnerOf } from '../config/runners.ts'

export type Neutral = { args: string[]; env: Record<string, string> } | { refuse: string }

const NO_RC = '.yarnrc.dsh-mcp-none.yml'

/** The runner family of a command line, or undefined (config/runners.ts names the runners). */
export function runnerFamily(
  command: string,
  args: readonly string[],
): 'npm' | 'pnpm' | 'yarn' | 'bun' | 'uv' | 'pip' | undefined {
  const r = runnerOf(command, args)?.runner.split(' ')[0]
  if (r === 'npx' || r === 'npm') return 'npm'
  if (r === 'pnpx' || r === 'pnpm') return 'pnpm'
  if (r === 'bunx' || r === 'bun') return 'bun'
  if (r === 'uvx' || r === 'uv') return 'uv'
  if (r === 'pipx') return 'pip'
  return r === 'yarn' ? 'yarn' : undefined
}

const FILES = { pnpm: ['.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs'], bun: ['bunfig.toml', '.npmrc'] } as const

/** `cwd` and each directory above it up to `stop` (inclusive; cwd alone when stop does not contain it). */
function upTo(cwd: string, stop: string | undefined): string[] {
  const dirs = [cwd]
  if (!stop) return dirs
  const rel = path.relative(stop, cwd)
  if (rel.startsWith('..') || path.isAbsolute(rel)) return dirs
  let d = cwd
  while (d !== stop && path.dirname(d) !== d) {
    d = path.dirname(d)
    dirs.push(d)
  }
  return dirs
}

export interface NeutralOptions {
  cwd: string
  home: string
  /** The checkout root the cwd lies in (where the search for a runner's file stops). */
  stop?: string | undefined
  exists?: (file: string) => boolean
}

export function neutralRunner(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  opts: NeutralOptions,
): Neutral {
  const family = runnerFamily(command, args)
  const set: Record<string, string> = {}
  const put = (name: string, value: string) => {
    if (env[name] === undefined) set[name] = value
  }
  if (family === 'npm') {
    // npm takes a config flag anywhere before the package; after `exec`/`x` it is still npm's.
    const at = runnerOf(command, args)?.start ?? 0
    return { args: [...args.slice(0, at), `--prefix=${opts.home}`, ...args.slice(at)], env: set }
  }
  if (family === 'yarn') {
    put('YARN_RC_FILENAME', NO_RC)
    put('YARN_IGNORE_PATH', '1')
  } else if (family === 'uv') put('UV_NO_CONFIG', '1')
  else if (family === 'pnpm' || family === 'bun') {
    const exists = opts.exists ?? existsSync
    for (const dir of upTo(opts.cwd, opts.stop))
      for (const name of FILES[family]) {
        const file = path.join(dir, name)
        if (exists(file))
          return {
            refuse: `${runnerOf(command, args)?.runner ?? command} reads ${file} (project config a commit can change) and has no switch to ignore it: refused; move the server's cwd out of the checkout or remove the file`,
          }
      }
  }
  return { args: [...args], env: set }
}
