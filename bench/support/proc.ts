/**
 * Child processes for the CLI rows: find the system Node (the CLI's target,
 * Node 20 here), snapshot the built CLI, and time one command's wall clock.
 *
 * Contract: `timeRun` blocks until the child exits (spawnSync: a row runs in
 * its own process, so blocking its loop disturbs nothing) and never throws;
 * the child's exit code and output are returned for the caller to check.
 *
 * @module
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, realpathSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { makeTempDir } from '../../test/support/tmp.ts'

export interface NodeBinary {
  path: string
  version: string
  /** True for a Node found on PATH outside any node_modules (the system Node). */
  system: boolean
}

/** The first `node` on PATH that is not inside a node_modules/.bin, else this process's Node. */
export function cliNode(): NodeBinary {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '' || dir.split(path.sep).includes('node_modules')) continue
    const candidate = path.join(dir, 'node')
    if (!existsSync(candidate)) continue
    try {
      const real = realpathSync(candidate)
      if (real === realpathSync(process.execPath)) continue
      const version = execFileSync(real, ['--version'], { encoding: 'utf8' }).trim()
      return { path: real, version, system: true }
    } catch {
      // Not a runnable node (a dangling link, no permission): try the next PATH entry.
    }
  }
  return { path: process.execPath, version: process.version, system: false }
}

/**
 * A private copy of the built CLI (`bin/`, `lib/`, `package.json`, with a link to
 * `node_modules`): parallel work in the same tree rebuilds `lib/` at any moment, and a
 * row must time one consistent build. Returns the path of the copied `bin/dsh-mcp.js`.
 */
export function snapshotCli(): string {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const copy = makeTempDir('dsh-mcp-bench-cli-')
  for (const part of ['bin', 'lib', 'package.json']) cpSync(path.join(root, part), copy.join(part), { recursive: true })
  symlinkSync(path.join(root, 'node_modules'), copy.join('node_modules'))
  return copy.join('bin', 'dsh-mcp.js')
}

export interface Timed {
  ms: number
  code: number | null
  stdout: string
  stderr: string
}

/** Wall time of one run of `command args` (spawn to exit). */
export function timeRun(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Timed {
  const started = performance.now()
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: options.env ?? process.env,
    cwd: options.cwd,
    timeout: options.timeoutMs ?? 60_000,
    killSignal: 'SIGKILL',
  })
  const ms = performance.now() - started
  return { ms, code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' }
}
