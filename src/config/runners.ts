/**
 * Unpinned package runners: a command that downloads and runs whatever a
 * package name resolves to today (`npx -y pkg`, `pnpm dlx`, `yarn dlx`,
 * `bunx`, `npm exec`, `uvx`, `uv tool run`, `pipx run`). Trusting such a
 * command trusts a name, not code: the trust review warns and shows the
 * pinned form to use instead.
 *
 * Contract: pure. `unpinnedRunner(command, args)` returns the runner, the
 * package as written and the exact pinned command line (with `<version>`
 * where the exact version goes), or undefined when the command is no
 * package runner or its package carries an exact version (`pkg@1.2.3`,
 * `@scope/pkg@1.2.3`, `pkg==1.2.3`). Tags and ranges (`@latest`, `@^1`)
 * count as unpinned.
 *
 * @module
 */

export interface UnpinnedRunner {
  runner: string
  pkg: string
  /** The command line with the package pinned (`<version>` to fill in). */
  pinned: string[]
}

const EXACT_NPM = /^(@[^/@]+\/)?[^@]+@v?\d+\.\d+\.\d+([-+][\w.-]+)?$/
const EXACT_PY = /^[A-Za-z0-9._-]+(\[[^\]]*\])?(==|@)v?\d+(\.\d+)*([-+.\w]*)?$/

/** npm-style flags that take a value as the next word. */
const VALUE_FLAGS = new Set([
  '-p',
  '--package',
  '-c',
  '--call',
  '--from',
  '--python',
  '-w',
  '--with',
  '--spec',
  '--index-url',
  '--registry',
])

function base(command: string): string {
  return (command.split(/[\\/]/).pop() ?? command).toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '')
}

/** Where the runner's package word starts in `args` (after the runner's own subcommand), and the ecosystem (also launch/ambient.ts). */
export function runnerOf(
  command: string,
  args: readonly string[],
): { runner: string; start: number; py: boolean } | undefined {
  const b = base(command)
  if (b === 'npx' || b === 'bunx' || b === 'pnpx') return { runner: b, start: 0, py: false }
  if (b === 'uvx') return { runner: b, start: 0, py: true }
  if ((b === 'pnpm' || b === 'yarn') && args[0] === 'dlx') return { runner: `${b} dlx`, start: 1, py: false }
  if (b === 'bun' && args[0] === 'x') return { runner: 'bun x', start: 1, py: false }
  if (b === 'npm' && (args[0] === 'exec' || args[0] === 'x')) return { runner: `npm ${args[0]}`, start: 1, py: false }
  if (b === 'pipx' && args[0] === 'run') return { runner: 'pipx run', start: 1, py: true }
  if (b === 'uv' && args[0] === 'tool' && args[1] === 'run') return { runner: 'uv tool run', start: 2, py: true }
  return undefined
}

/** The package word a runner fetches: its index in `args`, whether it came as `--flag=pkg`, and the package as written. */
export function runnerPackage(
  command: string,
  args: readonly string[],
): { runner: string; py: boolean; at: number; inFlag: boolean; pkg: string } | undefined {
  const r = runnerOf(command, args)
  if (!r) return undefined
  // A package given by flag (`-p pkg`, `--package=pkg`, `--from pkg`, `--spec pkg`) is the one fetched.
  let at = -1
  let inFlag = false
  for (let i = r.start; i < args.length; i++) {
    const a = args[i]!
    if (a === '--') {
      at = i + 1 < args.length ? i + 1 : -1
      break
    }
    const eq = /^(--package|--from|--spec)=(.*)$/.exec(a)
    if (eq) {
      at = i
      inFlag = true
      break
    }
    if (['-p', '--package', '--from', '--spec'].includes(a) && i + 1 < args.length) {
      at = i + 1
      break
    }
    if (a.startsWith('-')) {
      if (VALUE_FLAGS.has(a)) i++
      continue
    }
    at = i
    break
  }
  if (at < 0) return undefined
  const word = args[at]!
  return { runner: r.runner, py: r.py, at, inFlag, pkg: inFlag ? word.slice(word.indexOf('=') + 1) : word }
}

export function unpinnedRunner(command: string | undefined, args: readonly string[] = []): UnpinnedRunner | undefined {
  if (command === undefined) return undefined
  const found = runnerPackage(command, args)
  if (!found) return undefined
  const { at, inFlag, pkg } = found
  const r = found
  const word = args[at]!
  if ((r.py ? EXACT_PY : EXACT_NPM).test(pkg)) return undefined
  const name = r.py ? pkg.replace(/(==|>=|<=|~=|@).*$/, '') : pkg.replace(/^((?:@[^/@]+\/)?[^@]+)(@.*)?$/, '$1')
  // pipx names its package with --spec NAME==VERSION; uv and the npm family take NAME@VERSION.
  if (r.runner === 'pipx run' && !inFlag && args[at - 1] !== '--spec') {
    return {
      runner: r.runner,
      pkg,
      pinned: [command, ...args.slice(0, at), '--spec', `${name}==<version>`, name, ...args.slice(at + 1)],
    }
  }
  const pinnedPkg = r.runner === 'pipx run' ? `${name}==<version>` : `${name}@<version>`
  const pinned = [command, ...args]
  pinned[at + 1] = inFlag ? `${word.slice(0, word.indexOf('=') + 1)}${pinnedPkg}` : pinnedPkg
  return { runner: r.runner, pkg, pinned }
}
