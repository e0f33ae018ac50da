/**
 * The `dsh-mcp` program (docs/guide/cli.md): global options, the context a
 * handler gets, exit codes.
 *
 * Contract: every command is declared (with its flags) in command-tree.ts,
 * and its handler is loaded only when that command runs (`import()` of `commands/<name>.ts`), so
 * `dsh-mcp list` never pays for `doctor`'s MCP SDK. Handlers receive a
 * `CliContext` and return an exit code. Commander's own parse errors become
 * exit 2; a `CliError` prints its one line (and details) and exits with its
 * code. This module (with command-tree.ts) imports no host package (`@deepseek-ai/*`), and
 * statically nothing heavier than commander: no config parser (zod, yaml),
 * so `--version` and `--help` cost about as much as bare node.
 *
 * @module
 */
import path from 'node:path'
import { isatty } from 'node:tty'
import { Command, CommanderError } from 'commander'
import { terminalSafe } from '../config/terminal-safe.ts'
import { defaultLocations, type Locations } from '../files/locations.ts'
import { declareCommands } from './command-tree.ts'
import { CliError } from './errors.ts'
import { createOutput, type Output } from './output.ts'

/** Where interrupts come from (`process` by default; an embedder passes its own emitter). */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown
  off(signal: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown
}

export interface CliContext {
  /** The project directory (`-C/--dir`, default cwd), absolute. */
  dir: string
  /** The process's working directory: file arguments resolve, and printed paths are relative, to it. */
  cwd: string
  loc: Locations
  env: NodeJS.ProcessEnv
  out: Output
  platform: NodeJS.Platform
  /** Whether stdin is an interactive terminal (confirmation prompts). */
  interactive: boolean
  /** Where prompts read their answer. */
  stdin: NodeJS.ReadableStream
  /** The raw stderr stream (the live progress line draws on it when it is a terminal). */
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  signals: SignalSource
  /** End the run at once with `code` (a second Ctrl-C): the process when `RunOptions.exit` says so. */
  exit(code: number): void
}

export interface RunOptions {
  argv: string[]
  env?: NodeJS.ProcessEnv
  cwd?: string
  stdout?: NodeJS.WritableStream & { isTTY?: boolean }
  stderr?: NodeJS.WritableStream & { isTTY?: boolean }
  /** Default `process.stdin`. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean }
  /** Default `process`. */
  signals?: SignalSource
  /**
   * Called when a command ends the run at once (the bin passes `process.exit`);
   * `runCli` then resolves with that code either way, leaving behind whatever
   * the command abandoned.
   */
  exit?: (code: number) => void
  version: string
  /** Platform the commands reason about (default `process.platform`; tests pass `win32`). */
  platform?: NodeJS.Platform
}

// biome-ignore lint/suspicious/noExplicitAny: handlers declare their own argument shapes
type Handler = (cli: CliContext, ...args: any[]) => Promise<number | undefined>

const ADD_DASH_HINT =
  '(server arguments that start with "-" go after "--": dsh-mcp add <name> -- <command> [args...])\n'

/** Build the program. `load(name)` returns a command's handler (lazy import by default). */
function buildProgram(
  opts: RunOptions,
  result: { code: number; command?: string },
  exit: (code: number) => void,
): Command {
  const program = new Command('dsh-mcp')
  const env = opts.env ?? process.env
  let out: Output | undefined
  const context = (cmd: Command): CliContext => {
    const g = cmd.optsWithGlobals() as { dir?: string; color?: boolean }
    out ??= createOutput({
      color: g.color !== false,
      env,
      ...(opts.stdout ? { stdout: opts.stdout } : {}),
      ...(opts.stderr ? { stderr: opts.stderr } : {}),
    })
    const cwd = opts.cwd ?? process.cwd()
    return {
      dir: path.resolve(cwd, g.dir ?? '.'),
      cwd: path.resolve(cwd),
      loc: defaultLocations(env),
      env,
      out,
      platform: opts.platform ?? process.platform,
      // isatty(0) is what `process.stdin.isTTY` answers, without building the stdin stream (and fs streams).
      interactive: (opts.stdin ? Boolean(opts.stdin.isTTY) : isatty(0)) && !env.CI,
      // Built only when a command reads it (a prompt).
      get stdin() {
        return opts.stdin ?? process.stdin
      },
      stderr: opts.stderr ?? process.stderr,
      signals: opts.signals ?? process,
      exit,
    }
  }
  const action =
    (name: string) =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command
      const mod = (await import(`./commands/${name}.ts`)) as { run: Handler }
      const code = await mod.run(context(cmd), ...args.slice(0, -1))
      result.code = code ?? 0
    }

  program
    .description('Project-level MCP servers for DeepSeek Harness: edit and inspect .dsh/mcp.yml')
    .version(opts.version, '-V, --version')
    .option('-C, --dir <path>', 'project directory (default: the current directory)')
    .option('--no-color', 'disable colour output')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => void (opts.stdout ?? process.stdout).write(s),
      writeErr: (s) => void (opts.stderr ?? process.stderr).write(s),
    })
    .exitOverride()
    .enablePositionalOptions(false)
    .hook('preSubcommand', (_program, sub) => {
      result.command = sub.name()
    })

  declareCommands(program, action)

  return program
}

/**
 * Run the CLI; returns the exit code. Never calls process.exit itself, and
 * reads the process (env, cwd, streams, signals) only where `opts` leaves a
 * value out.
 */
export async function runCli(opts: RunOptions): Promise<number> {
  let exited: (code: number) => void = () => {}
  const abandoned = new Promise<number>((resolve) => {
    exited = resolve
  })
  const exit = (code: number) => {
    opts.exit?.(code)
    exited(code)
  }
  return Promise.race([run(opts, exit), abandoned])
}

async function run(opts: RunOptions, exit: (code: number) => void): Promise<number> {
  const result: { code: number; command?: string } = { code: 0 }
  const program = buildProgram(opts, result, exit)
  const stderr = opts.stderr ?? process.stderr
  try {
    await program.parseAsync(opts.argv, { from: 'user' })
    return result.code
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0
      // Only an option commander does not know is likely a server argument written before "--".
      if (err.code === 'commander.unknownOption' && result.command === 'add') stderr.write(ADD_DASH_HINT)
      return 2
    }
    if (err instanceof CliError) {
      stderr.write(`dsh-mcp: ${terminalSafe(err.message)}\n`)
      for (const d of err.details) stderr.write(`  ${terminalSafe(d)}\n`)
      return err.exitCode
    }
    stderr.write(`dsh-mcp: unexpected error: ${terminalSafe((err as Error)?.message ?? String(err))}\n`)
    return 1
  }
}
