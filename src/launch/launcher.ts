/**
 * The launcher every stdio server is mounted through:
 * `node lib/launch/launcher.js <command> ...args`, started by the official
 * client with the launch spec in `$DSH_MCP_LAUNCH` (spec.ts).
 *
 * Contract:
 * - Strips `$DSH_MCP_LAUNCH` from its environment and starts `<command>`
 *   with the rest, in the same cwd — a bare name found in the absolute PATH
 *   entries only (resolve.ts; none found: nothing starts, exit 127, or 126
 *   when not executable, 126 when it resolves inside a project checkout
 *   (`spec.checkouts`; absent, the cwd when it is a project root), one log line says why; a package runner with its
 *   project config neutralised or refused, ambient.ts) — with no shell, stdin and stdout passed
 *   straight through (the child inherits the very pipes; nothing is copied),
 *   and stderr piped into the server's log (log-writer.ts, loaded and the
 *   log opened on the first stderr output), every secret of the spec
 *   redacted. Nothing the server prints to stderr reaches this
 *   process's stderr raw: on rc.8 that stderr is the host's terminal. With
 *   `forward` (a client that captures stderr itself), the redacted lines are
 *   written to it. If the log cannot be opened, the server's stderr is
 *   discarded and one line (the log path and why, no value) says so.
 * - The server runs in its own process group (POSIX), and its tree carries
 *   the marker `$DSH_MCP_TREE` (tree.ts; the one it was given, else a new
 *   one). The whole group and every marked process (a `setsid` or
 *   double-forked helper) are ended — SIGTERM, then SIGKILL after
 *   `GRACE_MS` — when the server exits
 *   (a background helper it left dies with it), when this process gets
 *   SIGTERM, SIGINT or SIGHUP (the client's close), and when the host that
 *   started this process is gone (its parent changes). Then it exits with
 *   the server's code (128 + signal number for a signal).
 * - Never writes to stdout (that is the MCP channel).
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { constants } from 'node:os'
import type { ServerLog, ServerLogOptions } from './log-writer.ts'
import { type Prepared, prepareLaunch } from './prepare.ts'
import { LAUNCH_ENV, type LaunchSpec, readLaunchSpec } from './spec.ts'
import { endTree, newTreeMarker, TREE_ENV } from './tree.ts'

const GRACE_MS = 1000
const POSIX = process.platform !== 'win32'

function fatal(message: string): never {
  process.stderr.write(`dsh-mcp launcher: ${message}\n`)
  process.exit(2)
}

const read = readLaunchSpec(process.env)
delete process.env[LAUNCH_ENV]
const [command, ...written] = process.argv.slice(2)
if ('error' in read) fatal(read.error)
const spec: LaunchSpec = read
if (command === undefined) fatal('no command to start')
// Before PATH is read or anything starts: the repository's `.env` is not the server's environment.
for (const name of spec.unset ?? []) delete process.env[name]

// The tree's marker: inherited by every process the server starts, in its group or not (tree.ts).
const marker = /^[0-9a-f]{8,64}$/.test(process.env[TREE_ENV] ?? '')
  ? (process.env[TREE_ENV] as string)
  : newTreeMarker()
process.env[TREE_ENV] = marker

/** Nothing is started: one line in the log says why, then exit with `code`. */
async function refuse(why: string, code: number): Promise<never> {
  try {
    const { openServerLog } = await import('./log-writer.ts')
    const l = openServerLog(spec.log, logOptions())
    l.note(`dsh-mcp launcher: cannot start ${command}: ${why}`)
    l.end()
  } catch {}
  process.exit(code)
}

// What runs: the command resolved (absolute PATH entries, never into a checkout) and a package runner's
// project config neutralised or refused — the one decision doctor's probes make too (prepare.ts).
const prepared = prepareLaunch(command, written, process.env, process.cwd(), spec.checkouts, undefined, spec.locked)
if ('refuse' in prepared) await refuse(prepared.refuse, prepared.code)
const { file, args, env: neutralEnv } = prepared as Extract<Prepared, { file: string }>
Object.assign(process.env, neutralEnv)

// Start the server first. The log writer (redaction, private files: it loads the config parser)
// is loaded on the server's first stderr output, so a quiet server's start-up does not pay for it.
let child: ChildProcess
try {
  child = spawn(file, args, {
    stdio: ['inherit', 'inherit', 'pipe'],
    detached: POSIX,
    windowsHide: true,
    env: process.env,
    argv0: command,
  })
} catch {
  // Node's message may quote an argument: say only that it failed.
  fatal('the server command cannot be started (invalid command or arguments)')
}

function logOptions(): ServerLogOptions {
  return {
    secrets: spec.secrets,
    ...(spec.maxBytes ? { maxBytes: spec.maxBytes } : {}),
    ...(spec.forward ? { onLine: (line: string) => process.stderr.write(`${line}\n`) } : {}),
  }
}

let pending: string[] | undefined = []
let log: ServerLog | undefined
let logLoad: Promise<ServerLog | undefined> | undefined
function loadLog(): Promise<ServerLog | undefined> {
  logLoad ??= import('./log-writer.ts').then(
    ({ openServerLog }) => {
      try {
        log = openServerLog(spec.log, logOptions())
      } catch (error) {
        // The message names the path and why; it never holds a value of the server.
        process.stderr.write(
          `dsh-mcp launcher: the server log is unavailable, its stderr is discarded: ${(error as Error).message}\n`,
        )
      }
      for (const chunk of pending ?? []) log?.write(chunk)
      pending = undefined
      return log
    },
    () => {
      pending = undefined
      return undefined
    },
  )
  return logLoad
}
child.stderr?.setEncoding('utf8')
child.stderr?.on('data', (chunk: string) => {
  if (pending) {
    pending.push(chunk)
    void loadLog()
  } else log?.write(chunk)
})
/** Resolves when the server's stderr is drained (every writer of the pipe is gone). */
const drained = new Promise<void>((resolve) => {
  if (!child.stderr) resolve()
  else child.stderr.once('close', () => resolve())
})

let ending: Promise<void> | undefined
/** End the server's group and every process that carries the tree's marker (tree.ts). */
function endGroup(): Promise<void> {
  ending ??= POSIX ? endTree({ group: child.pid, marker }, GRACE_MS) : Promise.resolve(void child.kill('SIGTERM'))
  return ending
}

/** Resolves when the server itself has exited (and been reaped by us), or never started. */
const childGone = new Promise<void>((resolve) => {
  child.once('exit', () => resolve())
  child.once('error', () => resolve())
})

let exitCode: number | undefined
function finish(code: number): void {
  exitCode ??= code
  void endGroup()
    .then(() => Promise.race([Promise.all([drained, childGone]), new Promise((r) => setTimeout(r, GRACE_MS))]))
    // Wait for the writer only if output started loading it: a quiet server leaves no log.
    .then(() => logLoad)
    .then(() => {
      log?.end()
      process.exit(exitCode)
    })
}

child.on('error', (error: NodeJS.ErrnoException) => {
  void loadLog().then(() => log?.note(`dsh-mcp launcher: cannot start ${command}: ${error.code ?? error.message}`))
  finish(127)
})
child.on('exit', (code, signal) => {
  const n = signal ? (constants.signals[signal] ?? 15) : 0
  finish(code ?? 128 + n)
})
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
  process.on(s, () => finish(128 + (constants.signals[s] ?? 15)))

// The host that started us is gone (killed outright): its pipes may stay open in a helper, so look.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) finish(129)
}, 500).unref()
