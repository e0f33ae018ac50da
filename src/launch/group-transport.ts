/**
 * The stdio transport that starts a server directly — no launcher process in between — with the
 * guarantees the launcher gave: used by doctor's probes and by the host's mounts (host/stdio-hook.ts).
 *
 * Contract:
 * - `new GroupStdioTransport(opts)` is an MCP SDK `Transport`. `start()`
 *   spawns `opts.file` (an absolute path, already resolved) with `opts.args`,
 *   `argv0` the command as written, no shell, in `opts.cwd`, with
 *   `opts.baseEnv` (default: the SDK's default environment) plus `opts.env`,
 *   stdin/stdout as the JSON-RPC channel, and — on POSIX — detached: the
 *   server leads its own process group. Its tree carries `opts.marker` in
 *   `TREE_ENV` (tree.ts), so a helper that leaves the group (`setsid`, a
 *   double fork) is still found.
 * - The server's stderr never reaches this process's stderr: each chunk goes
 *   through the launcher's very redaction (log-writer.ts: secret fragments,
 *   PEM bodies across writes, free-text shapes), each redacted line to
 *   `opts.onStderrLine`, and — with `opts.log` — into that private log file,
 *   opened on the first stderr output (a quiet server leaves no file). If the
 *   log cannot be opened, its lines are dropped and `opts.onLogError` gets one
 *   message (the path and why, no value).
 * - When the server exits (on its own, or signalled), its group and every
 *   marked process are ended too (tree.ts `endTree`): a background helper it
 *   left dies with it. `opts.onTree(tree, true)` is called once the server is
 *   spawned, `onTree(tree, false)` once nothing of its tree is left.
 * - `end(graceMs)` is the whole shutdown, resolved when nothing of the
 *   tree is left: stdin closed, `graceMs` for the server to exit, then the
 *   group and every marked process get SIGTERM and, after `GRACE_MS`,
 *   SIGKILL — also when the server itself already exited but a helper of its
 *   group lives on. The pipes are dropped after. `close()` (the SDK
 *   client's) is `end(opts.closeGraceMs ?? 200)`; the first `end` decides.
 *   `killNow()` is the synchronous SIGKILL of the group and the marked
 *   processes (a second Ctrl-C).
 * - `child` is the spawned process once started (its exit code and signal).
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { openServerLog, type ServerLog } from './log-writer.ts'
import { endTree, killTreeNow, TREE_ENV, type Tree } from './tree.ts'

const POSIX = process.platform !== 'win32'
/** SIGTERM to SIGKILL, as the launcher does. */
const GRACE_MS = 1000
/** How long a closed server gets to exit on its own before its tree is signalled (default). */
const CLOSE_GRACE_MS = 200

export interface GroupStdioOptions {
  /** The resolved executable. */
  file: string
  /** The command as the entry wrote it (the server's argv[0]). */
  argv0: string
  args: readonly string[]
  env: Record<string, string>
  /** Under `env` (default: the SDK's default environment); `{}` when `env` is already the whole environment. */
  baseEnv?: Record<string, string>
  cwd?: string | undefined
  marker: string
  secrets: readonly string[]
  onStderrLine?: (line: string) => void
  /** The server's private log (log-writer.ts), opened on its first stderr output. */
  log?: { file: string; maxBytes?: number | undefined } | undefined
  /** The log could not be opened: its lines are dropped; the message names the path and why. */
  onLogError?: (message: string) => void
  /** The server process exists (the probe's phase moves on to `initialize`). */
  onSpawn?: () => void
  /** The tree is started (`true`), or nothing of it is left (`false`). */
  onTree?: (tree: Tree, alive: boolean) => void
  /** `close()`'s grace for the server to exit on its own (default 200 ms). */
  closeGraceMs?: number
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  child: ChildProcess | undefined
  private readonly read = new ReadBuffer()
  private log: ServerLog | undefined
  private ending: Promise<void> | undefined
  private treeEnd: Promise<void> | undefined

  private readonly opts: GroupStdioOptions

  constructor(opts: GroupStdioOptions) {
    this.opts = opts
  }

  private tree(): Tree {
    return { group: POSIX ? this.child?.pid : undefined, marker: this.opts.marker }
  }

  /** End the group and the marked processes, once; `onTree(false)` when nothing is left. */
  private endTreeOnce(): Promise<void> {
    this.treeEnd ??= endTree(this.tree(), GRACE_MS).then(() => this.opts.onTree?.(this.tree(), false))
    return this.treeEnd
  }

  /** The redacting writer, opened on the server's first stderr output. */
  private stderrLog(): ServerLog {
    if (this.log) return this.log
    const { opts } = this
    const options = { secrets: opts.secrets, ...(opts.onStderrLine ? { onLine: opts.onStderrLine } : {}) }
    try {
      this.log = openServerLog(opts.log?.file, {
        ...options,
        ...(opts.log?.maxBytes ? { maxBytes: opts.log.maxBytes } : {}),
      })
    } catch (error) {
      // The message names the path and why; it never holds a value of the server.
      opts.onLogError?.((error as Error).message)
      this.log = openServerLog(undefined, options)
    }
    return this.log
  }

  /** One line of ours in the server's log (why it did not start): redacted, marked `launcher|`. */
  note(text: string): void {
    this.stderrLog().note(text)
  }

  start(): Promise<void> {
    if (this.child) throw new Error('already started')
    const { opts } = this
    return new Promise((resolve, reject) => {
      const child = spawn(opts.file, [...opts.args], {
        env: { ...(opts.baseEnv ?? getDefaultEnvironment()), ...opts.env, [TREE_ENV]: opts.marker },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: POSIX,
        windowsHide: true,
        argv0: opts.argv0,
        ...(opts.cwd ? { cwd: opts.cwd } : {}),
      })
      this.child = child
      child.on('error', (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.on('spawn', () => {
        opts.onTree?.(this.tree(), true)
        opts.onSpawn?.()
        resolve()
      })
      // A helper the server left in its group, or marked, dies with it.
      child.on('exit', () => void this.endTreeOnce())
      child.on('close', () => {
        this.log?.end()
        this.onclose?.()
      })
      child.stdin?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.read.append(chunk)
          for (let m = this.read.readMessage(); m !== null; m = this.read.readMessage()) this.onmessage?.(m)
        } catch (error) {
          this.onerror?.(error as Error)
        }
      })
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (chunk: string) => this.stderrLog().write(chunk))
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin
      if (!stdin || stdin.destroyed || this.ending) return reject(new Error('Not connected'))
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', resolve)
    })
  }

  /** The SDK client's close (also on a failed `initialize`): a short grace, then the tree is ended. */
  close(): Promise<void> {
    return this.end(this.opts.closeGraceMs ?? CLOSE_GRACE_MS)
  }

  /** Close stdin, give the server `graceMs` to exit, then end its group and marked processes. */
  end(graceMs: number): Promise<void> {
    this.ending ??= this.shutdown(graceMs)
    return this.ending
  }

  private async shutdown(graceMs: number): Promise<void> {
    const child = this.child
    if (!child) return
    try {
      child.stdin?.end()
    } catch {
      // stdin already closed or destroyed: the signals below still end it
    }
    if (graceMs > 0) await exitWithin(child, graceMs)
    await endTree(this.tree(), GRACE_MS)
    await this.endTreeOnce()
    if (!POSIX && !exited(child)) child.kill('SIGKILL')
    // A stray writer may hold the pipes open; they are ours to drop. Whatever stderr it wrote is in.
    await exitWithin(child, GRACE_MS)
    for (const s of [child.stdin, child.stdout, child.stderr]) s?.destroy()
    this.log?.end()
    this.read.clear()
  }

  killNow(): void {
    const child = this.child
    if (!child) return
    killTreeNow(this.tree())
    if (!POSIX) child.kill('SIGKILL')
  }
}

export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

/** Resolves true when the child has exited, false after `ms`. */
export function exitWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms)
    const onExit = () => done(true)
    function done(v: boolean) {
      clearTimeout(timer)
      child.off('exit', onExit)
      resolve(v)
    }
    child.once('exit', onExit)
  })
}
