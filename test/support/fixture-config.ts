/**
 * The one way to build the stdio MCP fixture's command line
 * (`stdioFixtureArgs`, after the Node binary — every friendly entry, client
 * config and spawned fixture in the tests uses it), and configs that run the
 * fixtures (stdio, streamable HTTP) under this Node binary for mounting
 * directly with the official client.
 */
import { fileURLToPath } from 'node:url'
import type { StdioConfig, StreamableHttpConfig } from '@deepseek-ai/dsh-mcp-client'

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url))
/** Absolute path of the stdio MCP fixture. */
export const STDIO_FIXTURE = here('../fixtures/servers/stdio-server.ts')
/** Absolute path of the streamable-HTTP MCP fixture (child-process mode). */
export const HTTP_FIXTURE = here('../fixtures/servers/http-server.ts')

/** What the stdio fixture is told on its command line (its flags: test/fixtures/servers/stdio-server.ts). */
export interface StdioFixtureFlags {
  /** Fixture `--name`. */
  readonly name: string
  /** `--tools`; absent: the fixture's default (`$MCP_FIXTURE_TOOLS`, else `echo`). */
  readonly tools?: readonly string[]
  readonly marker?: string
  readonly pidfileDir?: string
  readonly initDelayMs?: number
  readonly hang?: boolean
  readonly crash?: boolean
  readonly echoEnv?: string
  readonly exitAfterMs?: number
  /** `--control <file>`: JSON read at start (`tools`, `crash`, `initDelayMs`): another behaviour, the same launch. */
  readonly control?: string
  /** Further flags, verbatim, after these. */
  readonly flags?: readonly string[]
}

/** A client config of the fixture: its flags (but `name`) and the client's own keys. */
export interface StdioFixtureOptions extends Omit<StdioFixtureFlags, 'name' | 'flags'> {
  /** mcp-client serverName and fixture `--name`. */
  readonly serverName: string
  /** Tools to expose; default `['echo']`. */
  readonly tools?: readonly string[]
  /** Child cwd (set it: the default `""` means the host's cwd). Default `process.cwd()`. */
  readonly cwd?: string
  /** Extra env for the child (mcp-client scrubs KEY/TOKEN/SECRET/PASSWORD/DSH_* from the inherited env). */
  readonly env?: Record<string, string>
  readonly toolCallTimeoutMs?: number
  readonly failOnStartupError?: boolean
  readonly reconnect?: StdioConfig['reconnect']
}

/** Fixture argv (after the node binary): `--no-warnings <stdio-server.ts> --name <name> …` */
export function stdioFixtureArgs(o: StdioFixtureFlags): string[] {
  const args = ['--no-warnings', STDIO_FIXTURE, '--name', o.name]
  if (o.tools !== undefined) args.push('--tools', o.tools.join(','))
  if (o.marker !== undefined) args.push('--marker', o.marker)
  if (o.pidfileDir !== undefined) args.push('--pidfile-dir', o.pidfileDir)
  if (o.initDelayMs !== undefined) args.push('--init-delay-ms', String(o.initDelayMs))
  if (o.hang) args.push('--hang')
  if (o.crash) args.push('--crash')
  if (o.echoEnv !== undefined) args.push('--echo-env', o.echoEnv)
  if (o.exitAfterMs !== undefined) args.push('--exit-after-ms', String(o.exitAfterMs))
  if (o.control !== undefined) args.push('--control', o.control)
  if (o.flags) args.push(...o.flags)
  return args
}

/** The same command line as one `sh -c` word list, each word single-quoted (the fixture under `node`). */
export function stdioFixtureShell(o: StdioFixtureFlags, node: string = process.execPath): string {
  return [node, ...stdioFixtureArgs(o)].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ')
}

/** A complete mcp-client stdio config that runs the fixture with this Node binary. */
export function stdioFixtureConfig(o: StdioFixtureOptions): StdioConfig {
  return {
    transport: 'stdio',
    serverName: o.serverName,
    command: process.execPath,
    args: stdioFixtureArgs({ ...o, name: o.serverName, tools: o.tools ?? ['echo'] }),
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
