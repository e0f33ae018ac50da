/**
 * Which servers a lock covers and what each launches: a stdio entry whose command is a package runner
 * that fetches a registry package. `npx` and `npm exec` / `npm x` are supported (npm's own resolution and
 * install, which `dsh-mcp lock` and `prepare` reproduce with npm's libraries); every other runner
 * (`pnpm dlx`, `yarn dlx`, `bunx`, `bun x`, `pnpx`, `uvx`, `uv tool run`, `pipx run`) is refused by name.
 *
 * Contract: pure. `lockTarget(entry)` returns `{ target }` (runner, spec as written, package name, the
 * range or tag asked for, the bin to run), `{ refuse }` (a runner the lock does not support yet, one line
 * naming it), or undefined (no package runner: a remote server, a plain command — nothing to lock).
 * A `lock: false` entry is the caller's decision.
 *
 * @module
 */
import { runnerPackage } from '../config/runners.ts'

export interface LockTarget {
  runner: 'npx' | 'npm exec' | 'npm x'
  /** The package word as the config writes it (`pkg`, `pkg@latest`, `@scope/pkg@^1`). */
  spec: string
  /** The package name. */
  name: string
  /** The version, range or tag asked for (`latest` when none is written). */
  range: string
  /** The bin the runner runs: the command given with `-c`/after `-p`, else the package's own name (npx's rule). */
  bin?: string
  /** The arguments the runner hands the bin (after the package word, or after the bin with `-p`). */
  rest: string[]
}

const NPM_RUNNERS = new Set(['npx', 'npm exec', 'npm x'])

export function lockTarget(entry: {
  command?: string | undefined
  args?: readonly string[] | undefined
}): { target: LockTarget } | { refuse: string } | undefined {
  if (entry.command === undefined) return undefined
  const args = entry.args ?? []
  const found = runnerPackage(entry.command, args)
  if (!found) return undefined
  if (!NPM_RUNNERS.has(found.runner))
    return {
      refuse: `${found.runner} is not supported by the lock yet (npx and npm exec are); pin the version in the command by hand`,
    }
  const m = /^((?:@[^/@]+\/)?[^@]+)(?:@(.+))?$/.exec(found.pkg)
  if (!m || /^[./~]|^(file|git|https?|github):/.test(found.pkg))
    return { refuse: `${found.pkg} is not a registry package (a path, URL or git spec); nothing to lock` }
  // `-p pkg cmd` runs `cmd`; `npx pkg` runs the package's bin named like it (or its only bin).
  const byFlag = found.inFlag || ['-p', '--package'].includes(args[found.at - 1] ?? '')
  const binAt = byFlag ? args.findIndex((a, i) => i > found.at && !a.startsWith('-')) : -1
  const after = binAt >= 0 ? args[binAt] : undefined
  const rest = args.slice(binAt >= 0 ? binAt + 1 : found.at + 1)
  return {
    target: {
      runner: found.runner as LockTarget['runner'],
      spec: found.pkg,
      name: m[1]!,
      range: m[2] ?? 'latest',
      ...(after !== undefined ? { bin: after } : {}),
      rest: rest[0] === '--' ? rest.slice(1) : rest,
    },
  }
}
