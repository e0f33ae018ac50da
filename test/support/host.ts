/**
 * A real DSH host (rc.8 packages) booted in-process, exactly as in
 * /work/shared/host-facts.md ("A real host in a test"), plus helpers for
 * tool calls, MCP fixture configs, a scripted stub model and event-driven waits.
 *
 * No model key is needed: agents only talk to a model when a message is sent,
 * and {@link installStubModel} registers an in-process adapter for that case.
 */
import { fileURLToPath } from 'node:url'
import { Context, Logger } from '@deepseek-ai/cordis'
import type { Fiber } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import type { Agent, AgentHandle, AgentOptions, AgentSetup, CreateAgentOptions } from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import LlmRuntime, { CallId, LlmAdapter, createUserMessage } from '@deepseek-ai/dsh-llm'
import type { GenerateOptions, StreamChunk, UserMessage } from '@deepseek-ai/dsh-llm'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import type { Config as McpClientConfig, StdioConfig, StreamableHttpConfig } from '@deepseek-ai/dsh-mcp-client'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import type { ToolDefinition, ToolExecutionResult, ToolRunContext } from '@deepseek-ai/dsh-tools'

export { mcpClient }
export type { Agent, AgentHandle, McpClientConfig, StdioConfig, StreamableHttpConfig, ToolDefinition, ToolExecutionResult }

// ---------------------------------------------------------------------------
// Host

/** One captured `ctx.logger` record, with its printf-formatted text. */
export interface LogEntry {
  /** Logger name (e.g. `mcp-client`, `app`). */
  readonly name: string
  readonly type: 'error' | 'info' | 'warn' | 'debug'
  /** 0 error, 1 info, 2 warn, 3 debug. */
  readonly level: number
  /** The formatted message (no colors). */
  readonly text: string
  readonly args: readonly unknown[]
}

export interface CreateAgentInput {
  /** Absolute session cwd; defaults to the host's `cwd`. `null` = no cwd in the header. */
  readonly cwd?: string | null
  /** Defaults to a unique `agent-<n>`. */
  readonly sessionId?: string
  readonly agentOptions?: AgentOptions
  readonly setup?: AgentSetup
  /** Extra session meta (`parentSession`, `origin`, `delegationDepth`…), merged after `cwd`. */
  readonly meta?: Omit<NonNullable<CreateAgentOptions['meta']>, 'cwd'>
  /**
   * Create through this agent's scoped context (`owner.ctx.agents.create`),
   * i.e. as a runtime-owned child of `owner` (see {@link createSubagent}).
   */
  readonly owner?: Agent
}

export interface TestHost {
  /** The root context with llm, sessions, systemPrompt, tools, agents, agentLoop mounted. */
  readonly ctx: Context
  /** Every logger record since boot (all levels, debug included). */
  readonly logs: LogEntry[]
  /** Default cwd for {@link createAgent}. */
  readonly cwd: string
  /** `ctx.agents.create` with defaults; the handle is disposed by {@link dispose}. */
  createAgent(input?: CreateAgentInput): Promise<AgentHandle>
  /**
   * `ctx.plugin(mcpClient, config)` awaited, bounded by `timeoutMs` (default 10 s:
   * a server that never speaks MCP holds activation ~62 s). Rejects on timeout
   * (the fiber is disposed in the background). Disposed by {@link dispose}.
   */
  mountMcp(config: McpClientConfig, options?: { timeoutMs?: number }): Promise<Fiber>
  /** Log lines (formatted) whose text contains `needle` (case-sensitive). */
  logsMatching(needle: string | RegExp): LogEntry[]
  /** Dispose created agents, mounted plugins, then the root fiber. Idempotent. */
  dispose(): Promise<void>
}

export interface CreateHostOptions {
  /** Default agent cwd; defaults to `process.cwd()`. Must be absolute. */
  readonly cwd?: string
  /** Extra AgentLoop config (`maxParallelToolCalls`…); `agents` stays `[]`. */
  readonly agentLoop?: { maxParallelToolCalls?: number }
  /** Echo captured log lines to stderr as they arrive (debugging aid). */
  readonly echoLogs?: boolean
}

let agentSeq = 0

/** Boot a real host in-process. */
export async function createHost(options: CreateHostOptions = {}): Promise<TestHost> {
  const ctx = new Context()
  const logs: LogEntry[] = []
  const exporter = {
    colors: false as const,
    levels: { default: 3 },
    export(message: { name: string; type: LogEntry['type']; level: number; args: unknown[] }) {
      const text = Logger.format(exporter, message as Parameters<typeof Logger.format>[1])
      logs.push({ name: message.name, type: message.type, level: message.level, text, args: message.args })
      if (options.echoLogs) process.stderr.write(`[log ${message.type} ${message.name}] ${text}\n`)
    },
  }
  ctx.logger.exporter(exporter)
  await ctx.plugin(LlmRuntime)
  await ctx.plugin(SessionStore)
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(AgentRegistry)
  await ctx.plugin(AgentLoop, { ...options.agentLoop, agents: [] })

  const cwd = options.cwd ?? process.cwd()
  const handles: AgentHandle[] = []
  const fibers: Fiber[] = []
  let disposing: Promise<void> | undefined

  const host: TestHost = {
    ctx,
    logs,
    cwd,
    async createAgent(input = {}) {
      const agentCwd = input.cwd === undefined ? cwd : input.cwd
      const meta = { ...(agentCwd === null ? {} : { cwd: agentCwd }), ...input.meta }
      const creator = input.owner?.ctx ?? ctx
      const handle = await creator.agents.create({
        sessionId: SessionId(input.sessionId ?? `agent-${++agentSeq}`),
        meta,
        ...(input.agentOptions === undefined ? {} : { agentOptions: input.agentOptions }),
        ...(input.setup === undefined ? {} : { setup: input.setup }),
      })
      handles.push(handle)
      return handle
    },
    async mountMcp(config, { timeoutMs = 10_000 } = {}) {
      const fiber = ctx.plugin(mcpClient, config)
      fibers.push(fiber)
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void fiber.dispose()
          reject(new Error(`mcp-client "${config.serverName}" did not activate within ${timeoutMs} ms`))
        }, timeoutMs)
      })
      try {
        await Promise.race([fiber, timeout])
      } finally {
        clearTimeout(timer)
      }
      return fiber
    },
    logsMatching(needle) {
      return logs.filter((l) => (typeof needle === 'string' ? l.text.includes(needle) : needle.test(l.text)))
    },
    dispose() {
      disposing ??= (async () => {
        // Disposers are single-shot: a repeat call returns undefined, hence Promise.resolve.
        for (const handle of handles.reverse()) await Promise.resolve(handle.dispose()).catch(() => {})
        for (const fiber of fibers.reverse()) await Promise.resolve(fiber.dispose()).catch(() => {})
        await Promise.resolve(ctx.fiber.dispose()).catch(() => {})
      })()
      return disposing
    },
  }
  return host
}

/**
 * Create a subagent the way upstream's in-process subagent driver does: through
 * the parent's scoped context, with the parent's cwd and durable lineage meta
 * (`parentSession`, `origin: 'subagent'`, `delegationDepth`).
 */
export function createSubagent(
  host: TestHost,
  parent: Agent,
  input: Omit<CreateAgentInput, 'owner' | 'cwd'> = {},
): Promise<AgentHandle> {
  const parentCwd = parent.session.header.cwd
  return host.createAgent({
    ...input,
    owner: parent,
    cwd: parentCwd ?? null,
    meta: {
      parentSession: parent.session.header.id,
      origin: 'subagent',
      delegationDepth: (parent.session.header.delegationDepth ?? 0) + 1,
      ...input.meta,
    },
  })
}

// ---------------------------------------------------------------------------
// Tools

/** Names visible to `agent` (or globally) that start with `mcp__`, sorted. */
export function mcpToolNames(ctx: Context, agent?: Agent): string[] {
  return ctx.tools
    .schemas(agent)
    .map((s) => s.name)
    .filter((n) => n.startsWith('mcp__'))
    .sort()
}

/** Every tool name visible to `agent` (or globally), sorted. */
export function toolNames(ctx: Context, agent?: Agent): string[] {
  return ctx.tools
    .schemas(agent)
    .map((s) => s.name)
    .sort()
}

let callSeq = 0

/** `ctx.tools.execute` as `agent` (omit for an agentless call); never throws for tool failures. */
export function execTool(
  ctx: Context,
  agent: Agent | undefined,
  name: string,
  args: unknown = {},
  options: { signal?: AbortSignal } = {},
): Promise<ToolExecutionResult> {
  return ctx.tools.execute({
    callId: CallId(`test-call-${++callSeq}`),
    name,
    arguments: args,
    signal: options.signal ?? new AbortController().signal,
    ...(agent === undefined ? {} : { agent }),
  })
}

/**
 * A minimal ToolDefinition (no parameters, string output) for registry probes:
 * `ctx.tools.register(testTool('x'))`. `execute` receives the run context
 * (`exec.agent` = the calling agent).
 */
export function testTool(
  name: string,
  execute: (args: unknown, exec: ToolRunContext) => Promise<string> = async () => name,
): ToolDefinition {
  return {
    name,
    description: `test tool ${name}`,
    parameters: { type: 'object', properties: {} },
    output: {
      schema: { type: 'string' },
      render: (_args, value) => [{ type: 'text', text: String(value) }],
    },
    execute,
  }
}

/** Concatenated text of a result's text blocks. */
export function resultText(result: ToolExecutionResult): string {
  return result.content
    .map((b) => (b.type === 'text' ? (b as { text: string }).text : ''))
    .join('')
}

// ---------------------------------------------------------------------------
// MCP fixture configs

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url))
/** Absolute path of the stdio MCP fixture. */
export const STDIO_FIXTURE = here('../fixtures/servers/stdio-server.ts')
/** Absolute path of the streamable-HTTP MCP fixture (child-process mode). */
export const HTTP_FIXTURE = here('../fixtures/servers/http-server.ts')

export interface StdioFixtureOptions {
  /** mcp-client serverName and fixture `--name`. */
  readonly serverName: string
  /** Tools to expose; default `['echo']`. */
  readonly tools?: readonly string[]
  /** Child cwd (set it: the default `""` means the host's cwd). Default `process.cwd()`. */
  readonly cwd?: string
  readonly marker?: string
  readonly pidfileDir?: string
  readonly initDelayMs?: number
  readonly hang?: boolean
  readonly crash?: boolean
  readonly echoEnv?: string
  readonly exitAfterMs?: number
  /** Extra env for the child (mcp-client scrubs KEY/TOKEN/SECRET/PASSWORD/DSH_* from the inherited env). */
  readonly env?: Record<string, string>
  readonly toolCallTimeoutMs?: number
  readonly failOnStartupError?: boolean
  readonly reconnect?: StdioConfig['reconnect']
}

/** Fixture argv (after the node binary): `--no-warnings <fixture> --name … ` */
export function stdioFixtureArgs(o: Omit<StdioFixtureOptions, 'cwd' | 'env' | 'toolCallTimeoutMs' | 'failOnStartupError' | 'reconnect'>): string[] {
  const args = ['--no-warnings', STDIO_FIXTURE, '--name', o.serverName, '--tools', (o.tools ?? ['echo']).join(',')]
  if (o.marker !== undefined) args.push('--marker', o.marker)
  if (o.pidfileDir !== undefined) args.push('--pidfile-dir', o.pidfileDir)
  if (o.initDelayMs !== undefined) args.push('--init-delay-ms', String(o.initDelayMs))
  if (o.hang) args.push('--hang')
  if (o.crash) args.push('--crash')
  if (o.echoEnv !== undefined) args.push('--echo-env', o.echoEnv)
  if (o.exitAfterMs !== undefined) args.push('--exit-after-ms', String(o.exitAfterMs))
  return args
}

/** A complete mcp-client stdio config that runs the fixture with this Node binary. */
export function stdioFixtureConfig(o: StdioFixtureOptions): StdioConfig {
  return {
    transport: 'stdio',
    serverName: o.serverName,
    command: process.execPath,
    args: stdioFixtureArgs(o),
    env: o.env ?? {},
    cwd: o.cwd ?? process.cwd(),
    toolCallTimeoutMs: o.toolCallTimeoutMs ?? 10_000,
    failOnStartupError: o.failOnStartupError ?? false,
    ...(o.reconnect === undefined ? {} : { reconnect: o.reconnect }),
  }
}

/** A complete mcp-client streamable-http config. */
export function httpFixtureConfig(
  serverName: string,
  url: string,
  options: { headers?: Record<string, string>; toolCallTimeoutMs?: number; failOnStartupError?: boolean } = {},
): StreamableHttpConfig {
  return {
    transport: 'streamable-http',
    serverName,
    url,
    headers: options.headers ?? {},
    toolCallTimeoutMs: options.toolCallTimeoutMs ?? 10_000,
    failOnStartupError: options.failOnStartupError ?? false,
  }
}

// ---------------------------------------------------------------------------
// Stub model (drives agent turns without a network or a key)

/** One scripted model response: chunks, or a function of the request. */
export type StubResponse = readonly StreamChunk[] | ((request: GenerateOptions, index: number) => readonly StreamChunk[] | Promise<readonly StreamChunk[]>)

export interface StubModel {
  /** Provider route, default `stub`. */
  readonly provider: string
  /** Model id, default `stub-model`. */
  readonly model: string
  /** `{ provider, model }` to pass as `agentOptions`. */
  readonly agentOptions: AgentOptions
  /** Every request the loop sent, in order (`tools` = what the model is offered). */
  readonly requests: GenerateOptions[]
  /** Queue responses; when the queue is empty the model answers `text('ok')`. */
  push(...responses: StubResponse[]): void
  /** Release the adapter route. */
  dispose(): void
}

/** Chunks of a plain text answer that stops the turn. */
export function textResponse(text: string): StreamChunk[] {
  return [
    { type: 'text-delta', index: 0, text },
    { type: 'finish', reason: { kind: 'stop' } },
  ]
}

/** Chunks of one tool call (the loop executes it, then asks the model again). */
export function toolCallResponse(name: string, args: unknown, id = `stub-call-${++callSeq}`): StreamChunk[] {
  return [
    { type: 'tool-call-delta', index: 0, id: CallId(id), name, argumentsDelta: JSON.stringify(args) },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

/** Register an in-process scripted model adapter on `ctx.llm`. */
export function installStubModel(ctx: Context, options: { provider?: string; model?: string } = {}): StubModel {
  const provider = options.provider ?? 'stub'
  const model = options.model ?? 'stub-model'
  const requests: GenerateOptions[] = []
  const queue: StubResponse[] = []
  class StubAdapter extends LlmAdapter {
    async *stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
      const index = requests.push(request) - 1
      const next = queue.shift() ?? textResponse('ok')
      const chunks = typeof next === 'function' ? await next(request, index) : next
      for (const chunk of chunks) {
        request.signal?.throwIfAborted()
        yield chunk
      }
    }
  }
  const release = ctx.llm.registerAdapter([provider], new StubAdapter())
  return {
    provider,
    model,
    agentOptions: { provider, model },
    requests,
    push: (...responses) => {
      queue.push(...responses)
    },
    dispose: () => release(),
  }
}

/** A user message for `agent.followup()` / `agent.steer()`. */
export function userMessage(text: string): UserMessage {
  return createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }) as UserMessage
}

// ---------------------------------------------------------------------------
// Waiting (never assert after fixed sleeps)

export interface Deferred<T> {
  readonly promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}

/** `Promise.withResolvers()` without needing the ES2024 lib typings. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

export interface WaitForOptions {
  /** Give up after this long (default 5000 ms). */
  readonly timeoutMs?: number
  /** Fallback polling interval (default 10 ms). */
  readonly intervalMs?: number
  /** Re-check immediately whenever one of these events fires on `ctx`. */
  readonly ctx?: Context
  readonly events?: readonly string[]
  /** Prefix for the timeout error. */
  readonly message?: string
}

/**
 * Resolve with the first truthy value of `predicate` (sync or async). The
 * predicate is re-evaluated on every listed ctx event and on a short interval;
 * a throwing predicate counts as "not yet" (its last error is reported on timeout).
 */
export function waitFor<T>(predicate: () => T | Promise<T>, options: WaitForOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 5000, intervalMs = 10 } = options
  return new Promise<NonNullable<T>>((resolve, reject) => {
    let done = false
    let running = false
    let again = false
    let last: unknown
    let lastError: unknown
    const disposers: (() => void)[] = []
    const finish = (fn: () => void): void => {
      done = true
      clearInterval(interval)
      clearTimeout(timer)
      for (const d of disposers) d()
      fn()
    }
    const check = async (): Promise<void> => {
      if (done) return
      if (running) {
        again = true
        return
      }
      running = true
      try {
        do {
          again = false
          try {
            const value = await predicate()
            last = value
            if (value) {
              finish(() => resolve(value as NonNullable<T>))
              return
            }
          } catch (error) {
            lastError = error
          }
        } while (again && !done)
      } finally {
        running = false
      }
    }
    const interval = setInterval(check, intervalMs)
    const timer = setTimeout(() => {
      finish(() => {
        const detail = lastError === undefined ? `last value: ${String(last)}` : `last error: ${String(lastError)}`
        reject(new Error(`${options.message ?? 'waitFor'} timed out after ${timeoutMs} ms (${detail})`))
      })
    }, timeoutMs)
    if (options.ctx !== undefined) {
      for (const name of options.events ?? []) {
        disposers.push(options.ctx.on(name as never, (() => void check()) as never))
      }
    }
    void check()
  })
}

/**
 * Resolve with the arguments of the next `name` event on `ctx` that passes
 * `filter`. Subscribe BEFORE triggering the action.
 */
export function nextEvent<A extends unknown[] = unknown[]>(
  ctx: Context,
  name: string,
  filter: (...args: A) => boolean = () => true,
  timeoutMs = 5000,
): Promise<A> {
  return new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`event "${name}" did not fire within ${timeoutMs} ms`))
    }, timeoutMs)
    const off = ctx.on(name as never, ((...args: A) => {
      if (!filter(...args)) return
      clearTimeout(timer)
      off()
      resolve(args)
    }) as never)
  })
}
