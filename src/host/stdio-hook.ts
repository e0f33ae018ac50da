/**
 * Starting our stdio servers inside the host — no launcher process per server.
 *
 * The official client builds its transport itself (`new StdioClientTransport({ command, args, env, cwd })`
 * of the MCP SDK it imports) and has no spawn option; a mount hands it the launcher-shaped config
 * (launch/spec.ts `launchedConfig`: `node <launcher> <command> ...args`, the launch spec in `$DSH_MCP_LAUNCH`).
 * `installStdioHook()` finds that very SDK module (resolved from the client's own location, the `import`
 * condition of the SDK's exports: the instance the client's `import` got) and wraps `start`, `send` and
 * `close` of its `StdioClientTransport`: a transport whose params are exactly such a config (command this
 * node, first argument the launcher's script, a launch spec that reads) is started by
 * launch/group-transport.ts in this process, with every guarantee the launcher gave:
 * - the environment the launcher would have had (the SDK's default environment, then the client's),
 *   without `$DSH_MCP_LAUNCH` and without the spec's `unset` names (the checkout's `.env`);
 * - the one start decision (launch/prepare.ts `prepareLaunch`: absolute PATH entries, never into a
 *   checkout, a package runner's project config neutralised or refused). A refusal starts nothing: one
 *   `launcher|` line in the server's log says why (`dsh-mcp launcher: cannot start <command>: <why>`) and
 *   `start()` rejects (`spawn <command> ENOENT` / `EACCES`, or `cannot start <command>: <why>`);
 * - its own process group, the tree marker of the config, stderr redacted into its private log (and
 *   forwarded, redacted, to the SDK's stderr stream when the client asked for one); its tree ended when it
 *   exits, on the client's close (2 s for the server to leave on its own, as the SDK's close gives it) and
 *   on a reap (host/reap.ts finds it by its marker);
 * - the host being killed outright: the tree is registered with the host's watchdog (watchdog.ts, one
 *   process per host, not per server), which ends it when the host is gone.
 * Every other transport (an mcp-client that is not ours) runs the SDK's own code, untouched.
 *
 * When the hook cannot be installed (no SDK found where the client resolves it, or a class without those
 * methods), nothing is patched and `stdioHookState()` says why: stdio servers then start through the
 * launcher process, as before — slower, with the same guarantees.
 *
 * Depends on the launch edge (`launch/group-transport.ts`, `prepare.ts`, `spec.ts`, `where.ts`): starting a
 * server is that edge's job; the host only decides when.
 *
 * @module
 */
import { readFileSync, realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { GroupStdioTransport } from '../launch/group-transport.ts'
import { prepareLaunch } from '../launch/prepare.ts'
import { openServerLog } from '../launch/log-writer.ts'
import { LAUNCH_ENV, type LaunchSpec, readLaunchSpec, TREE_ENV } from '../launch/spec.ts'
import { launcher } from '../launch/where.ts'
import { watchdog } from './watchdog.ts'

/** The SDK's close gives a server 2 s after stdin closes; so do we. */
const CLOSE_GRACE_MS = 2000
const SUBPATH = './client/stdio.js'

interface StdioParams {
  command: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
  stderr?: unknown
}
interface SdkTransport extends Transport {
  _serverParams?: StdioParams
  _stderrStream?: { write(chunk: string): unknown } | null
}
type Proto = Pick<SdkTransport, 'start' | 'send' | 'close'>

export type HookState = { installed: true; module: string } | { installed: false; why: string }

let state: Promise<HookState> | undefined
const ours = new WeakMap<object, GroupStdioTransport>()

/** Where the client's `import '@modelcontextprotocol/sdk/client/stdio.js'` lands (the `import` condition). */
export function sdkStdioModule(clientEntry: string): string {
  const cjs = createRequire(clientEntry).resolve(`@modelcontextprotocol/sdk/${SUBPATH.slice(2)}`)
  for (let dir = path.dirname(cjs); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    let pkg: { name?: string; exports?: Record<string, unknown> }
    try {
      pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
    } catch {
      continue
    }
    if (pkg.name !== '@modelcontextprotocol/sdk') continue
    const exports = pkg.exports ?? {}
    const exact = exports[SUBPATH]
    const pattern = Object.keys(exports).find((k) => k.endsWith('*') && SUBPATH.startsWith(k.slice(0, -1)))
    const target = exact ?? (pattern ? exports[pattern] : undefined)
    const rest = exact ? '' : SUBPATH.slice((pattern ?? '*').length - 1)
    const file = importTarget(target)
    if (!file) throw new Error(`the SDK's exports give ${SUBPATH} no import target`)
    return realpathSync(path.join(dir, file.replace('*', rest)))
  }
  throw new Error('no @modelcontextprotocol/sdk package above the resolved file')
}

function importTarget(t: unknown): string | undefined {
  if (typeof t === 'string') return t
  if (!t || typeof t !== 'object') return undefined
  const c = t as Record<string, unknown>
  return importTarget(c.import) ?? importTarget(c.node) ?? importTarget(c.default)
}

/** Install once (every later call returns the first outcome). Never throws. */
export function installStdioHook(): Promise<HookState> {
  state ??= install().catch((error: unknown) => ({ installed: false, why: (error as Error).message }) as HookState)
  return state
}

/** The hook's outcome, once `installStdioHook` has been called. */
export function stdioHookState(): Promise<HookState> | undefined {
  return state
}

async function install(): Promise<HookState> {
  const client = import.meta.resolve('@deepseek-ai/dsh-mcp-client')
  const file = sdkStdioModule(fileURLToPath(client))
  const mod = (await import(pathToFileURL(file).href)) as {
    StdioClientTransport?: { prototype: Proto }
    getDefaultEnvironment?: () => Record<string, string>
  }
  const proto = mod.StdioClientTransport?.prototype
  const defaults = mod.getDefaultEnvironment
  if (
    !proto ||
    typeof defaults !== 'function' ||
    !['start', 'send', 'close'].every((k) => typeof proto[k as keyof Proto] === 'function')
  )
    throw new Error(`${file} has no StdioClientTransport with start, send and close`)
  const original = { start: proto.start, send: proto.send, close: proto.close }
  proto.start = function (this: SdkTransport) {
    const h = hooked(this, defaults)
    if (!h) return original.start.call(this)
    if ('refused' in h) {
      // As a failed spawn reads through the SDK's own transport: the error, then the close the client waits for.
      this.onerror?.(h.refused)
      setImmediate(() => this.onclose?.())
      return Promise.reject(h.refused)
    }
    return h.transport.start().catch((error: NodeJS.ErrnoException) => {
      // Gone between the decision and the spawn: said in the log like a refusal.
      throw refusal(h.spec, h.command, error.code ?? 'spawn failed', `spawn ${h.command} ${error.code ?? 'failed'}`)
    })
  }
  proto.send = function (this: SdkTransport, message: Parameters<Transport['send']>[0], ...rest: unknown[]) {
    const t = ours.get(this)
    return t ? t.send(message) : (original.send as (...a: unknown[]) => Promise<void>).call(this, message, ...rest)
  }
  proto.close = function (this: SdkTransport) {
    const t = ours.get(this)
    return t ? t.close() : original.close.call(this)
  }
  return { installed: true, module: file }
}

/** Nothing starts: one `launcher|` line in the server's log says why (no value in it); the error for the client. */
function refusal(spec: LaunchSpec, command: string, why: string, message: string): Error {
  try {
    const log = openServerLog(spec.log, {
      secrets: spec.secrets,
      ...(spec.maxBytes ? { maxBytes: spec.maxBytes } : {}),
    })
    log.note(`dsh-mcp launcher: cannot start ${command}: ${why}`)
    log.end()
  } catch {
    // no log to write to: the client's error still says it
  }
  return new Error(message)
}

type Hooked = { transport: GroupStdioTransport; spec: LaunchSpec; command: string } | { refused: Error }

/** Our own transport for a launcher-shaped config, wired to the SDK instance's callbacks; else undefined. */
function hooked(sdk: SdkTransport, defaults: () => Record<string, string>): Hooked | undefined {
  const params = sdk._serverParams
  const env = params?.env
  if (!params || !env || env[LAUNCH_ENV] === undefined) return undefined
  const where = launcher()
  if (params.command !== where.node || params.args?.[0] !== where.script || params.args.length < 2) return undefined
  const spec = readLaunchSpec(env)
  if ('error' in spec) return undefined
  const [command, ...written] = params.args.slice(1) as [string, ...string[]]
  // The launcher's own environment: the SDK's defaults, the client's; then the launch variable and the `.env` names go.
  const whole: Record<string, string> = { ...defaults(), ...env }
  delete whole[LAUNCH_ENV]
  for (const name of spec.unset ?? []) delete whole[name]
  const cwd = params.cwd || process.cwd()
  const marker = /^[0-9a-f]{8,64}$/.test(whole[TREE_ENV] ?? '') ? (whole[TREE_ENV] as string) : undefined
  if (!marker) return undefined
  const prepared = prepareLaunch(command, written, whole, cwd, spec.checkouts)
  if ('refuse' in prepared) {
    const plain = prepared.errno === 'ENOENT' || prepared.errno === 'EACCES'
    const message = plain ? `spawn ${command} ${prepared.errno}` : `cannot start ${command}: ${prepared.refuse}`
    return { refused: refusal(spec, command, prepared.refuse, message) }
  }
  const forward = sdk._stderrStream && typeof sdk._stderrStream.write === 'function' ? sdk._stderrStream : undefined
  const t = new GroupStdioTransport({
    file: prepared.file,
    argv0: command,
    args: prepared.args,
    env: { ...whole, ...prepared.env },
    baseEnv: {},
    cwd,
    marker,
    secrets: spec.secrets,
    ...(spec.log ? { log: { file: spec.log, maxBytes: spec.maxBytes } } : {}),
    ...(forward ? { onStderrLine: (line: string) => forward.write(`${line}\n`) } : {}),
    onLogError: (message) =>
      process.stderr.write(`dsh-mcp launcher: the server log is unavailable, its stderr is discarded: ${message}\n`),
    onTree: (tree, alive) => (alive ? watchdog().watch(tree) : watchdog().forget(tree)),
    closeGraceMs: CLOSE_GRACE_MS,
  })
  t.onmessage = (m) => sdk.onmessage?.(m)
  t.onerror = (e) => sdk.onerror?.(e)
  t.onclose = () => sdk.onclose?.()
  ours.set(sdk, t)
  return { transport: t, spec, command }
}
