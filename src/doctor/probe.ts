/**
 * One real connection to one server: start it (stdio) or reach it (http),
 * `initialize`, then `tools/list` (every page), bounded by a deadline.
 *
 * Contract:
 * - The launch mirrors the host: the same SDK client, the
 *   command/args/cwd/url/headers of `toOfficialConfig`, the env of
 *   `childEnv`, a bare command found in the absolute PATH entries only
 *   (launch/resolve.ts — checked first, so a missing one is "command not
 *   found" before anything starts). A stdio server is started directly by
 *   this process (launch/group-transport.ts: no launcher process in between) in its own
 *   process group, its tree carrying a fresh marker (launch/tree.ts), its
 *   stderr redacted in process, so a failure can show its tail.
 * - `probe` never throws and never leaves a process behind: when it
 *   resolves, every process of the server's tree (its group, and whatever
 *   carries its marker) is gone — stdin closed, then SIGTERM, then SIGKILL —
 *   on success, failure, timeout and abort alike. `killLiveChildren` is the
 *   synchronous last resort for a second Ctrl-C (every live probe's group
 *   and marked processes).
 * - Aborting `signal` ends the probe early with state `skipped` ("interrupted").
 * - `error`, `hint` and `stderrTail` are redacted with `secrets`, before any
 *   cut to a display length; a URL is quoted in its display form
 *   (`displayUrl`: no userinfo, no query values).
 *
 * @module
 */
import { statSync } from 'node:fs'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js'
import type { OfficialConfig } from '../config/official.ts'
import { displayUrl } from '../config/redact.ts'
import { prepareLaunch } from '../launch/prepare.ts'
import { newTreeMarker } from '../launch/tree.ts'
import { childEnv, redact } from './env.ts'
import { explainProbe, type Phase } from './hints.ts'
import { exited, exitWithin, GroupStdioTransport } from '../launch/group-transport.ts'
import { TextTail } from './tail.ts'
import type { DoctorResult, DoctorState } from './types.ts'

export interface ProbeOptions {
  /** The environment the host would inherit (scrubbed before use). */
  env: Readonly<Record<string, string | undefined>>
  timeoutMs: number
  signal?: AbortSignal
  /** Values to redact from everything reported. */
  secrets: readonly string[]
  /** The project checkouts a command must not resolve into (launch/prepare.ts); absent: the cwd when it is a project root. */
  checkouts?: readonly string[]
}

/** What one connection found: a doctor result without the row's identity or the derived count. */
export type ProbeOutcome = Omit<DoctorResult, 'name' | 'scope' | 'file' | 'toolCount' | 'state'> & {
  state: Extract<DoctorState, 'ok' | 'failed' | 'timeout' | 'skipped'>
}

const CLIENT_INFO = { name: 'dsh-mcp-doctor', version: '1' }
/**
 * A probe never calls a tool, so it never validates a tool's output: the SDK's default (an Ajv
 * instance per client, every tool's `outputSchema` compiled on `tools/list`) is CPU spent for nothing.
 */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
}
const MAX_PAGES = 100
/** Stdio probes started and not yet ended. */
const live = new Set<GroupStdioTransport>()

/** SIGKILL the tree of every stdio probe still running; returns how many. */
export function killLiveChildren(): number {
  for (const t of live) t.killNow()
  return live.size
}

/** A timer that never keeps the process alive on its own. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())

function cwdProblem(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined
  try {
    return statSync(cwd).isDirectory() ? undefined : `working directory is not a directory: ${cwd}`
  } catch {
    return `working directory does not exist: ${cwd}`
  }
}

function isNoise(err: unknown): boolean {
  return err instanceof SyntaxError || (err instanceof Error && err.name === 'ZodError')
}

export async function probe(config: OfficialConfig, opts: ProbeOptions): Promise<ProbeOutcome> {
  const clean = (s: string | null) => (s === null ? null : redact(s, opts.secrets))
  const failedEarly = (error: string, hint: string | null): ProbeOutcome => ({
    state: 'failed',
    tools: [],
    latencyMs: null,
    error: clean(error),
    hint: clean(hint),
    server: null,
    stderrTail: [],
  })
  if (opts.signal?.aborted) return { ...failedEarly('interrupted', null), state: 'skipped' }

  let transport: GroupStdioTransport | StreamableHTTPClientTransport | SSEClientTransport
  let stdio: GroupStdioTransport | undefined
  let phase: Phase = 'initialize'
  let noise = 0
  const tail = new TextTail({ secrets: opts.secrets })
  if (config.transport === 'stdio') {
    const bad = cwdProblem(config.cwd)
    if (bad) return failedEarly(bad, 'fix "cwd" (relative to the project root)')
    phase = 'spawn'
    const env = childEnv(opts.env, config.env)
    // The same decision as the host's launcher: what the command resolves to, never into a checkout, and a
    // package runner's project config neutralised or refused (launch/prepare.ts).
    const cwd = config.cwd ?? process.cwd()
    const found = prepareLaunch(
      config.command,
      config.args ?? [],
      { PATH: process.env.PATH, ...env },
      cwd,
      opts.checkouts,
    )
    if ('refuse' in found && (found.errno === 'EINSIDE' || found.errno === 'ambient'))
      return failedEarly(
        redact(found.refuse, opts.secrets),
        'the project checkout decides what this command runs: fix PATH or write the path',
      )
    if ('refuse' in found) {
      const error = Object.assign(new Error(found.errno), { code: found.errno })
      const e = explainProbe({
        transport: 'stdio',
        phase,
        error,
        timedOut: false,
        timeoutMs: opts.timeoutMs,
        stdoutNoise: 0,
        command: config.command,
        ...(config.cwd ? { cwd: config.cwd } : {}),
        clean: (t) => redact(t, opts.secrets),
      })
      return failedEarly(e.error, e.hint)
    }
    stdio = new GroupStdioTransport({
      file: found.file,
      argv0: config.command,
      args: found.args,
      env: { ...env, ...found.env },
      cwd: config.cwd,
      marker: newTreeMarker(),
      secrets: opts.secrets,
      onStderrLine: (line) => tail.push(`${line}\n`),
      onSpawn: () => {
        phase = 'initialize'
      },
    })
    live.add(stdio)
    transport = stdio
  } else {
    let url: URL
    try {
      url = new URL(config.url)
    } catch {
      return failedEarly(`not a valid URL: ${displayUrl(config.url)}`, 'fix "url" (http:// or https://)')
    }
    const requestInit = { headers: { ...config.headers } }
    transport =
      config.transport === 'sse'
        ? new SSEClientTransport(url, { requestInit })
        : new StreamableHTTPClientTransport(url, { requestInit })
  }

  const started = performance.now()
  const ac = new AbortController()
  let timedOut = false
  let interrupted = false
  const timer = setTimeout(() => {
    timedOut = true
    ac.abort(new Error('timeout'))
  }, opts.timeoutMs)
  const onAbort = () => {
    interrupted = true
    ac.abort(new Error('interrupted'))
  }
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  const deadline = new Promise<never>((_, reject) =>
    ac.signal.addEventListener('abort', () => reject(ac.signal.reason), { once: true }),
  )
  deadline.catch(() => {})

  const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: NO_OUTPUT_VALIDATION })
  client.onerror = (err) => {
    if (config.transport === 'stdio' && isNoise(err)) noise++
  }
  const request = { signal: ac.signal, timeout: opts.timeoutMs + 1000 }
  const work = async (): Promise<string[]> => {
    await client.connect(transport, request)
    phase = 'tools/list'
    const tools: string[] = []
    if (!client.getServerCapabilities()?.tools) return tools
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listTools(cursor ? { cursor } : undefined, request)
      for (const t of r.tools) tools.push(t.name)
      cursor = r.nextCursor
      if (!cursor) break
    }
    return tools
  }

  let outcome: ProbeOutcome
  let ok = false
  try {
    const tools = await Promise.race([work(), deadline])
    ok = true
    const info = client.getServerVersion()
    outcome = {
      state: 'ok',
      tools,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      hint: null,
      server: info ? { name: String(info.name).slice(0, 200), version: String(info.version).slice(0, 100) } : null,
      stderrTail: [],
    }
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started)
    if (!ac.signal.aborted) ac.abort(new Error('failed'))
    // Let the child finish dying (and its last stderr arrive) before reading its status.
    const child = stdio?.child
    if (child) {
      await exitWithin(child, timedOut || interrupted ? 0 : 200)
      await new Promise((resolve) => setImmediate(resolve))
    }
    const exit = child && exited(child) ? { code: child.exitCode, signal: child.signalCode } : undefined
    const e = explainProbe({
      transport: config.transport,
      phase,
      ...(timedOut ? {} : { error }),
      timedOut,
      timeoutMs: opts.timeoutMs,
      ...(exit ? { exit } : {}),
      stdoutNoise: noise,
      ...(stdio?.child ? { stderrLines: tail.lines().length } : {}),
      ...(config.transport === 'stdio'
        ? { command: config.command, ...(config.cwd ? { cwd: config.cwd } : {}) }
        : { url: displayUrl(config.url) }),
      clean: (s) => redact(s, opts.secrets),
    })
    outcome = {
      state: interrupted ? 'skipped' : e.state,
      tools: [],
      latencyMs,
      error: interrupted ? 'interrupted' : e.error,
      hint: interrupted ? null : e.hint,
      server: null,
      stderrTail: [],
    }
  } finally {
    clearTimeout(timer)
    opts.signal?.removeEventListener('abort', onAbort)
  }

  if (stdio) {
    await stdio.end(ok ? 1000 : 200)
    live.delete(stdio)
  } else if (transport instanceof StreamableHTTPClientTransport && ok && transport.sessionId) {
    await Promise.race([transport.terminateSession().catch(() => {}), delay(1000)])
  }
  await Promise.race([client.close().catch(() => {}), delay(250)])
  if (!ok) {
    await new Promise((resolve) => setImmediate(resolve))
    outcome.stderrTail = tail.lines()
  }
  outcome.error = clean(outcome.error)
  outcome.hint = clean(outcome.hint)
  return outcome
}
