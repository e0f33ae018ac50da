/**
 * A real DSH host (rc.8 packages) booted in-process, exactly as in
 * docs/adaptation/dsh-0.1.0-rc.8.md, plus helpers for
 * tool calls. MCP fixture configs, the scripted stub model and event-driven
 * waits live beside it and are re-exported here.
 *
 * No model key is needed: agents only talk to a model when a message is sent,
 * and `installStubModel` registers an in-process adapter for that case.
 */
import { Context, Logger } from '@deepseek-ai/cordis'
import type { Fiber } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import type { Agent, AgentHandle, AgentOptions, AgentSetup, CreateAgentOptions } from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import LlmRuntime, { CallId } from '@deepseek-ai/dsh-llm'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import type { Config as McpClientConfig, StdioConfig, StreamableHttpConfig } from '@deepseek-ai/dsh-mcp-client'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import type { ToolDefinition, ToolExecutionResult, ToolRunContext } from '@deepseek-ai/dsh-tools'
import { PATIENCE_MS } from './wait.ts'

export { mcpClient }
export * from './fixture-config.ts'
export * from './stub-model.ts'
export * from './wait.ts'
export type {
  Agent,
  AgentHandle,
  McpClientConfig,
  StdioConfig,
  StreamableHttpConfig,
  ToolDefinition,
  ToolExecutionResult,
}

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
   * `ctx.plugin(mcpClient, config)` awaited, bounded by `timeoutMs` (default `PATIENCE_MS`:
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
  /** Provided as `launchEnvironment` before any plugin, as the real `dsh` CLI does (which layer supplied each variable). */
  readonly launchEnvironment?: unknown
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
  if (options.launchEnvironment !== undefined) ctx.provide('launchEnvironment', options.launchEnvironment)
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
    async mountMcp(config, { timeoutMs = PATIENCE_MS } = {}) {
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
  return result.content.map((b) => (b.type === 'text' ? (b as { text: string }).text : '')).join('')
}
