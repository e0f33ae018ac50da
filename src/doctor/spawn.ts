/**
 * The stdio transport of doctor's probes: the server started directly by
 * this process — no launcher in between — with the guarantees the launcher
 * gives a mounted server.
 *
 * Contract:
 * - `new GroupStdioTransport(opts)` is an MCP SDK `Transport`. `start()`
 *   spawns `opts.file` (an absolute path, already resolved) with `opts.args`,
 *   `argv0` the command as written, no shell, in `opts.cwd`, with the SDK's
 *   default environment plus `opts.env`, stdin/stdout as the JSON-RPC
 *   channel, and — on POSIX — detached: the server leads its own process
 *   group. Its tree carries `opts.marker` in `TREE_ENV` (launch/tree.ts), so
 *   a helper that leaves the group (`setsid`, a double fork) is still found.
 * - The server's stderr never reaches this process's stderr: each line is
 *   redacted in process (launch/log-writer.ts with no file: the launcher's
 *   very redaction, secret fragments and PEM bodies across writes included)
 *   and handed to `opts.onStderrLine`.
 * - `end(graceMs)` is the whole shutdown, resolved when nothing of the
 *   tree is left: stdin closed, `graceMs` for the server to exit, then the
 *   group and every marked process get SIGTERM and, after `GRACE_MS`,
 *   SIGKILL (tree.ts `endTree`) — also when the server itself already
 *   exited but a helper of its group lives on. The pipes are dropped after.
 *   `close()` (the SDK client's) is `end(200)`; the first `end` decides. `killNow()` is the synchronous
 *   SIGKILL of the group and the marked processes (a second Ctrl-C).
 * - `child` is the spawned process once started (its exit code and signal).
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { openServerLog, type ServerLog } from '../launch/log-writer.ts'
import { endTree, killTreeNow, TREE_ENV } from '../launch/tree.ts'

const POSIX = process.platform !== 'win32'
/** SIGTERM to SIGKILL, as the launcher does. */
const GRACE_MS = 1000
/** How long a closed server gets to exit on its own before its tree is signalled. */
const CLOSE_GRACE_MS = 200

export interface GroupStdioOptions {
  /** The resolved executable. */
  file: string
  /** The command as the entry wrote it (the server's argv[0]). */
  argv0: string
  args: readonly string[]
  env: Record<string, string>
  cwd?: string | undefined
  marker: string
  secrets: readonly string[]
  onStderrLine: (line: string) => void
  /** The server process exists (the probe's phase moves on to `initialize`). */
  onSpawn?: () => void
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  child: ChildProcess | undefined
  private readonly read = new ReadBuffer()
  private log: ServerLog | undefined
  private ending: Promise<void> | undefined

  private readonly opts: GroupStdioOptions

  constructor(opts: GroupStdioOptions) {
    this.opts = opts
  }

  start(): Promise<void> {
    if (this.child) throw new Error('already started')
    const { opts } = this
    return new Promise((resolve, reject) => {
      const child = spawn(opts.file, [...opts.args], {
        env: { ...getDefaultEnvironment(), ...opts.env, [TREE_ENV]: opts.marker },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: POSIX,
        windowsHide: true,
        argv0: opts.argv0,
        ...(opts.cwd ? { cwd: opts.cwd } : {}),
      })
      this.child = child
      this.log = openServerLog(undefined, { secrets: opts.secrets, onLine: opts.onStderrLine })
      child.on('error', (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.on('spawn', () => {
        opts.onSpawn?.()
        resolve()
      })
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
      child.stderr?.on('data', (chunk: string) => this.log?.write(chunk))
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
    return this.end(CLOSE_GRACE_MS)
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
    await endTree({ group: POSIX ? child.pid : undefined, marker: this.opts.marker }, GRACE_MS)
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
    killTreeNow({ group: POSIX ? child.pid : undefined, marker: this.opts.marker })
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
