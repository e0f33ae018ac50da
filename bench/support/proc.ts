/**
 * Child processes for the CLI rows: find the system Node (the CLI's target,
 * Node 20 here) and time one command's wall clock.
 *
 * Contract: `timeRun` blocks until the child exits (spawnSync: a row runs in
 * its own process, so blocking its loop disturbs nothing) and never throws;
 * the child's exit code and output are returned for the caller to check.
 *
 * @module
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import path from 'node:path'

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
    } catch {}
  }
  return { path: process.execPath, version: process.version, system: false }
}

export interface Timed {
  ms: number
  code: number | null
  stdout: string
  stderr: string
}

/** Wall time of one run of `command args` (spawn to exit). */
export function timeRun(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Timed {
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
