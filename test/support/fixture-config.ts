/**
 * Configs and argv that run the MCP fixture servers (stdio, streamable HTTP)
 * under this Node binary, for mounting directly with the official client.
 */
import { fileURLToPath } from 'node:url'
import type { StdioConfig, StreamableHttpConfig } from '@deepseek-ai/dsh-mcp-client'

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
