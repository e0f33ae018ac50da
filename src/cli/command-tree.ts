/**
 * The `dsh-mcp` command tree (docs/guide/cli.md): every command and
 * subcommand with its arguments, flags, choices and help text.
 *
 * Contract: `declareCommands` only declares; each command's action is
 * `action(name)`, which program.ts supplies (the lazy `import()` of
 * `commands/<name>.ts`), so nothing here loads a handler. `add` gets one flag
 * per field the table gives one (config/fields.ts `flag`), in its order.
 * Statically this imports nothing heavier than commander (program.ts loads it
 * for `--version` and `--help`): no config parser (zod, yaml), no host
 * package.
 *
 * @module
 */
import { type Command, Option } from 'commander'
import { FIELD_NAMES, fieldSpec } from '../config/fields.ts'
import { SERVER_NAME_SHAPE } from '../config/server-name.ts'

const SCOPES = ['project', 'local', 'user'] as const

/** `--file` of the writing commands (cli/pick-file.ts). */
const FILE_HELP =
  'the config file to write (.dsh/mcp.yml, .dsh/mcp.json or .dsh/mcp.local.yml of this directory or one above it in the repository, or the user file)'

function scopeOption(
  desc = 'config scope: project (.dsh/mcp.yml), local (.dsh/mcp.local.yml) or user ($DSH_HOME/mcp.yml)',
): Option {
  return new Option('-s, --scope <scope>', desc).choices(SCOPES as unknown as string[])
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

/** Declare every command on `program`; `action(name)` runs the handler of `commands/<name>.ts`. */
export function declareCommands(
  program: Command,
  action: (name: string) => (...args: unknown[]) => Promise<void>,
): void {
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
    .option('--file <path>', FILE_HELP)
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
    .option('--file <path>', FILE_HELP)
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
    .option('--file <path>', FILE_HELP)
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
      new Option('--target <client>', 'claude (default), codex, gemini, vscode or cursor').choices([
        'claude',
        'codex',
        'gemini',
        'vscode',
        'cursor',
      ]),
    )
    .addOption(
      new Option('--format <client>', 'older name of --target')
        .choices(['claude', 'codex', 'gemini', 'vscode', 'cursor'])
        .hideHelp(),
    )
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option(
      '--write',
      "write the client's own project file (.mcp.json, .codex/config.toml, .gemini/settings.json, .vscode/mcp.json, .cursor/mcp.json)",
    )
    .option('--include-local', 'also export the servers and overrides of .dsh/mcp.local.yml')
    .action(action('export'))

  program
    .command('trust')
    .description("allow this project's servers to run")
    .argument('[names...]', 'servers to trust')
    .option('--all', 'every server of the project')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--verbose', 'details for every server, not only those that need attention')
    .option('--sign <key>', 'also sign the approvals into .dsh/mcp.trust with this SSH private key (for the team)')
    .action(action('trust'))

  program
    .command('untrust')
    .description('withdraw trust (and, for a signed server, your acceptance of its team signature)')
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
    .command('tokens')
    .description("each server's tool count and schema tokens, from the tool cache (no host, nothing started)")
    .option('--json', 'print JSON')
    .action(action('tokens'))

  program
    .command('status')
    .description('what a running host mounted')
    .option('--json', 'print JSON')
    .option('--explain', 'also show, per server, which layer files defined, overrode, disabled or shadowed it')
    .action(action('status'))

  program
    .command('explain')
    .description('which layer files defined, overrode, disabled or shadowed a server, and which one won')
    .argument('<name>', 'server name')
    .option('--json', 'print JSON')
    .action(action('explain'))

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

  program
    .command('lock')
    .description(
      'write .dsh/mcp.lock: exact version and integrity of every package a server runs through npx / npm exec',
    )
    .argument('[names...]', 'servers to (re)lock (default: every server, dropping entries no longer used)')
    .option('--check', 'write nothing; exit 1 when the lock is missing or stale (for CI)')
    .action(action('lock'))

  program
    .command('prepare')
    .description(
      'install every locked package into the store under $DSH_HOME (no install scripts, checked against the lock)',
    )
    .argument('[names...]', 'servers to prepare (default: every locked server)')
    .action(action('prepare'))

  program
    .command('verify')
    .description('check .dsh/mcp.lock matches the servers (exit 1 when stale)')
    .option('--frozen', 'a missing lock fails too (for CI)')
    .action(action('verify'))

  program
    .command('outdated')
    .description('locked packages with a newer version on the registry (changes nothing)')
    .option('--json', 'print JSON')
    .action(action('outdated'))

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
}
