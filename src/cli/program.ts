/**
 * The `dsh-mcp` command tree (docs/guide/cli.md).
 *
 * Contract: every command is declared here with its flags, and its handler is
 * loaded only when that command runs (`import()` of `commands/<name>.ts`), so
 * `dsh-mcp list` never pays for `doctor`'s MCP SDK. Handlers receive a
 * `CliContext` and return an exit code. Commander's own parse errors become
 * exit 2. This module imports no host package (`@deepseek-ai/*`), and
 * statically nothing heavier than commander: no config parser (zod, yaml),
 * so `--version` and `--help` cost about as much as bare node.
 *
 * @module
 */
import path from 'node:path'
import { isatty } from 'node:tty'
import { Command, CommanderError, Option } from 'commander'
import { SERVER_NAME_SHAPE } from '../config/server-name.ts'
import { FIELD_NAMES, fieldSpec } from '../config/fields.ts'
import { terminalSafe } from '../config/terminal-safe.ts'
import { defaultLocations, type Locations } from '../files/locations.ts'
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

const SCOPES = ['project', 'local', 'user'] as const

const ADD_DASH_HINT =
  '(server arguments that start with "-" go after "--": dsh-mcp add <name> -- <command> [args...])\n'

function scopeOption(
  desc = 'config scope: project (.dsh/mcp.yml), local (.dsh/mcp.local.yml) or user ($DSH_HOME/mcp.yml)',
): Option {
  return new Option('-s, --scope <scope>', desc).choices(SCOPES as unknown as string[])
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

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

  const add = program
    .command('add')
    .description('add a server (use -- before server args that start with -)')
    .argument('<name>', `server name (${SERVER_NAME_SHAPE})`)
    .argument('<commandOrUrl>', 'command to run, or the URL of an http server')
    .argument('[args...]', 'arguments passed to the command')
    .addOption(
      new Option('-t, --transport <transport>', 'stdio, http or sse (default: http for a URL, else stdio)').choices([
        'stdio',
        'http',
        'streamable-http',
        'sse',
      ]),
    )
    .addOption(scopeOption())
    .option('-e, --env <KEY=VALUE>', 'environment variable for the server (repeatable)', collect)
    .option('-H, --header <"Key: Value">', 'HTTP header (repeatable)', collect)
  // One flag per field the table gives one (config/fields.ts `flag`), in its order.
  for (const name of FIELD_NAMES) {
    const flag = fieldSpec(name).flag
    if (flag === undefined) continue
    const option = new Option(flag.flags, flag.help)
    add.addOption(flag.choices ? option.choices(flag.choices) : option)
  }
  add
    .option('--include-tools <globs>', 'only these tools (comma-separated globs)')
    .option('--exclude-tools <globs>', 'hide these tools (comma-separated globs)')
    .option('--disabled', 'add it disabled')
    .option('-f, --force', 'replace an existing entry')
    .showHelpAfterError(false)
    .action(action('add'))

  program
    .command('add-json')
    .description('add a server from a JSON entry (.mcp.json or friendly shape)')
    .argument('<name>', 'server name')
    .argument('<json>', 'the entry as JSON')
    .addOption(scopeOption())
    .option('-f, --force', 'replace an existing entry')
    .action(action('add-json'))

  program
    .command('list')
    .description('list servers of every layer, with their state')
    .option('--json', 'print JSON')
    .option('--check', 'also connect to each server (like doctor)')
    .option('--timeout <ms>', 'with --check: per-server timeout in milliseconds')
    .addOption(
      new Option('-s, --scope <scope>', 'only rows of this scope: local, project, legacy (.mcp.json) or user').choices([
        'local',
        'project',
        'legacy',
        'user',
      ]),
    )
    .action(action('list'))

  program
    .command('get')
    .description('show one server')
    .argument('<name>', 'server name')
    .option('--json', 'print JSON')
    .action(action('get'))

  program
    .command('remove')
    .description('remove servers (each from the strongest layer that defines it, unless -s)')
    .argument('<names...>', 'server names (a missing one fails the run; the others are still removed)')
    .addOption(scopeOption())
    .action(action('remove'))

  program
    .command('enable')
    .description('enable a server')
    .argument('<name>', 'server name')
    .addOption(scopeOption())
    .action(action('enable'))
  program
    .command('disable')
    .description('disable a server (a committed one is disabled in .dsh/mcp.local.yml)')
    .argument('<name>', 'server name')
    .addOption(scopeOption())
    .action(action('disable'))

  program
    .command('import')
    .description('import servers from another client')
    .option('--from <source>', 'claude, claude-desktop, cursor, vscode, gemini, codex, or a file path')
    .option('--dry-run', 'show what would change, write nothing')
    .option('-y, --yes', 'with no --from: import everything found without asking')
    .addOption(scopeOption())
    .action(action('import'))

  program
    .command('export')
    .description("print this project's servers for another client")
    .addOption(
      new Option('--format <format>', 'claude, cursor or vscode')
        .choices(['claude', 'cursor', 'vscode'])
        .default('claude'),
    )
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--include-local', 'also export the servers and overrides of .dsh/mcp.local.yml')
    .action(action('export'))

  program
    .command('trust')
    .description("allow this project's servers to run")
    .argument('[names...]', 'servers to trust')
    .option('--all', 'every server of the project')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action('trust'))

  program
    .command('untrust')
    .description('withdraw trust')
    .argument('[names...]', 'servers (default: all of the project)')
    .action(action('untrust'))

  program
    .command('doctor')
    .description('connect to every server and report what works')
    .argument('[names...]', 'only these servers')
    .option('--json', 'print JSON')
    .option('--timeout <ms>', 'per-server timeout in milliseconds', '10000')
    .action(action('doctor'))

  program
    .command('status')
    .description('what a running host mounted')
    .option('--json', 'print JSON')
    .action(action('status'))

  program
    .command('logs')
    .description("a stdio server's captured stderr (redacted), as a running host logged it")
    .argument('<name>', 'server name')
    .option('-f, --follow', 'keep printing what is appended (across rotation) until interrupted')
    .option('-n, --lines <N>', 'how many of the last lines to print (default 50)')
    .action(action('logs'))

  program
    .command('validate')
    .description('check config files (exit 1 on any error)')
    .argument('[files...]', 'files (default: the project and user files)')
    .option('--strict', 'unknown keys are errors too (for CI and pre-commit hooks)')
    .action(action('validate'))

  const secret = program
    .command('secret')
    .description('secrets that servers read as "secret:NAME" references (kept in the keychain, never in a config file)')
  secret
    .command('set')
    .description('store a secret (prompted with echo off; read from stdin when piped; never an argument)')
    .argument('<name>', 'secret name (letters, digits, _)')
    .option('--user', 'for every project (default: this project only)')
    .action(action('secret-set'))
  secret
    .command('list')
    .description('secrets of this project and the user: where stored, which servers use them (never values)')
    .option('--json', 'print JSON')
    .action(action('secret-list'))
  secret
    .command('rm')
    .description('forget a secret')
    .argument('<name>', 'secret name')
    .option('--user', "the user's secret for every project (default: this project's)")
    .action(action('secret-rm'))

  program.command('schema').description('print the JSON Schema of the friendly format').action(action('schema'))

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
