/**
 * Running `dsh-mcp` in a test, in a clean environment (only PATH, HOME,
 * DSH_HOME and what the test adds).
 *
 * Contract:
 * - `runCli` / `startCli` run the CLI in this process: `runCli` of
 *   `src/cli/program.ts` with that environment as its whole env, the given
 *   cwd, captured stdout/stderr (not terminals unless `tty`), a stdin that
 *   holds `stdin` (default: nothing), and a private signal source (`interrupt`
 *   sends it SIGINT/SIGTERM; the test process's own signals never reach the
 *   run). Nothing of the test process leaks in: not its env, cwd, stdin or
 *   terminal.
 * - `runBin` spawns `bin/dsh-mcp.js` (the built bundle) for the tests whose
 *   point is the process: signals, umask, crashes, pipes, another Node.
 *
 * @module
 */
import { execFile, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { ServerView } from '../../src/cli/present.ts'
import { runCli as runProgram } from '../../src/cli/program.ts'

export const REPO = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = join(REPO, 'bin', 'dsh-mcp.js')
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export interface RunCliOptions {
  cwd: string
  /** `$DSH_HOME`; HOME is set to its parent unless `home` is given. */
  dshHome: string
  home?: string
  env?: Record<string, string>
  /** What stdin holds (in-process runs; default nothing). */
  stdin?: string
  /** Stdin, stdout and stderr claim to be a terminal of `columns` (in-process runs; default: not a terminal). */
  tty?: { columns?: number }
}

/** The whole environment of a run: PATH, HOME, DSH_HOME and `env`. */
export function cliEnv(opts: Pick<RunCliOptions, 'dshHome' | 'home' | 'env'>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home ?? join(opts.dshHome, '..'),
    DSH_HOME: opts.dshHome,
    ...opts.env,
  }
}

/** A writable that keeps what it is given, optionally claiming to be a terminal. */
function capture(tty: RunCliOptions['tty']): Writable & { text: string; isTTY: boolean; columns?: number } {
  const chunks: string[] = []
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _enc, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  return Object.defineProperties(stream, {
    text: { get: () => chunks.join('') },
    isTTY: { value: tty !== undefined },
    ...(tty?.columns ? { columns: { value: tty.columns } } : {}),
  }) as Writable & { text: string; isTTY: boolean; columns?: number }
}

export interface StartedCli {
  /** What it printed so far. */
  stdout(): string
  stderr(): string
  /** Deliver SIGINT (default) or SIGTERM to the run. */
  interrupt(signal?: 'SIGINT' | 'SIGTERM'): void
  done: Promise<CliRun>
}

/** Start `dsh-mcp <args>` in this process (see the module contract). */
export function startCli(args: string[], opts: RunCliOptions): StartedCli {
  const stdout = capture(opts.tty)
  const stderr = capture(opts.tty)
  const stdin = Object.assign(Readable.from(opts.stdin === undefined ? [] : [opts.stdin]), {
    isTTY: opts.tty !== undefined,
  })
  const signals = new EventEmitter()
  const done = runProgram({
    argv: args,
    env: cliEnv(opts),
    cwd: opts.cwd,
    stdout,
    stderr,
    stdin,
    signals,
    version: VERSION,
  }).then((code) => ({
    code,
    stdout: stdout.text,
    stderr: stderr.text,
  }))
  return {
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    interrupt: (signal = 'SIGINT') => void signals.emit(signal, signal),
    done,
  }
}

/** Run `dsh-mcp <args>` in this process and collect its exit code and output. */
export function runCli(args: string[], opts: RunCliOptions): Promise<CliRun> {
  return startCli(args, opts).done
}

export interface RunBinOptions extends Omit<RunCliOptions, 'stdin' | 'tty'> {
  /** The Node binary (default this one). */
  node?: string
  /** The child's umask, as `sh`'s `umask` takes it (`'000'`). */
  umask?: string
}

/** Run the built `bin/dsh-mcp.js` as a child process. */
export function runBin(args: string[], opts: RunBinOptions): Promise<CliRun> {
  const node = opts.node ?? process.execPath
  const [file, argv] =
    opts.umask === undefined
      ? [node, [BIN, ...args]]
      : ['/bin/sh', ['-c', `umask ${opts.umask}; exec "$0" "$@"`, node, BIN, ...args]]
  return new Promise((resolve) => {
    execFile(file, argv, { cwd: opts.cwd, env: cliEnv(opts), timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : -1
        : 0
      resolve({ code, stdout, stderr })
    })
  })
}

export interface BinChild {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal?: NodeJS.Signals): void
}

/** Start the built bin with its stdio ignored, to kill it (SIGKILL by default) or race it against others. */
export function spawnBin(args: string[], opts: Omit<RunCliOptions, 'stdin' | 'tty'>): BinChild {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: cliEnv(opts), stdio: 'ignore' })
  return {
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
    kill: (signal = 'SIGKILL') => void child.kill(signal),
  }
}

/** `list --json`, parsed (asserting exit 0). */
export async function listJson(
  opts: RunCliOptions,
  extra: string[] = [],
): Promise<{ rows: ListRow[]; stderr: string }> {
  const r = await runCli(['list', '--json', ...extra], opts)
  if (r.code !== 0) throw new Error(`list --json exited ${r.code}: ${r.stderr}`)
  return { rows: JSON.parse(r.stdout) as ListRow[], stderr: r.stderr }
}

/** One row of `list --json` (the presenter's view, as JSON). */
export type ListRow = Omit<ServerView, 'check'>

/** The one row of `name` from `scope` (throws when absent or ambiguous). */
export function rowOf(rows: readonly ListRow[], name: string, scope: string, file?: string): ListRow {
  const found = rows.filter((r) => r.name === name && r.scope === scope && (file === undefined || r.file === file))
  if (found.length !== 1) throw new Error(`expected one row ${name}/${scope}, found ${found.length}`)
  return found[0]!
}
