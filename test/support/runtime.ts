/**
 * Helpers for runtime tests: load the plugin into a real host, write project
 * config files that run the MCP fixtures, and read what the plugin did.
 */
import type { Fiber } from '@deepseek-ai/cordis'
import * as plugin from '../../src/index.ts'
import type { OptionsInput, ProjectMcp } from '../../src/index.ts'
import { stdioFixtureArgs } from './fixture-config.ts'
import { createHost, type TestHost } from './host.ts'
import { makeProject, makeTempDir, type TempDir } from './tmp.ts'

export { plugin }

export interface StdioEntry {
  tools?: readonly string[]
  marker?: string
  pidfileDir?: string
  initDelayMs?: number
  hang?: boolean
  crash?: boolean
  env?: Record<string, string>
  extraArgs?: readonly string[]
  /** Extra friendly-format keys (`tools` filter, `description`, `enabled`…). */
  extra?: Record<string, unknown>
  /** Fixture `--name` (default: the server name). */
  label?: string
}

/** A friendly-format entry that runs the stdio fixture with this Node binary. */
export function stdioEntry(name: string, o: StdioEntry = {}): Record<string, unknown> {
  const args = stdioFixtureArgs({
    ...o,
    name: o.label ?? name,
    tools: o.tools ?? ['echo'],
    ...(o.extraArgs ? { flags: o.extraArgs } : {}),
  })
  return { command: process.execPath, args, ...(o.env ? { env: o.env } : {}), toolCallTimeoutMs: 10_000, ...o.extra }
}

/** Text of a friendly file (`servers:`), written as JSON (a YAML subset). */
export function friendly(servers: Record<string, unknown>): string {
  return `${JSON.stringify({ servers }, null, 2)}\n`
}

export interface RuntimeWorld {
  host: TestHost
  /** `$DSH_HOME` of this world. */
  home: TempDir
  /** The host's own cwd (a plain directory: no project). */
  hostDir: TempDir
  /** Directory the fixtures write pidfiles into. */
  pids: string
  fiber: Fiber
  mcp: ProjectMcp
  /** Dispose the plugin (idempotent). */
  stop(): Promise<void>
  dispose(): Promise<void>
}

/** Plugin options of a world; `trust` defaults to `'all'` here (tests of the gate pass `trust: 'require'`). */
export interface WorldOptions extends Omit<OptionsInput, 'dshHome' | 'cwd'> {
  /** Content of `$DSH_HOME/mcp.yml`. */
  userFile?: string
  /** Set the plugin's `cwd` (default: an empty temp dir). */
  cwd?: string
  /** Use this `$DSH_HOME` (default: the world's own temp home). */
  dshHome?: string
  /** The host's launch environment snapshot (host.ts `launchEnvironment`). */
  launchEnvironment?: unknown
}

/** A real host with the plugin loaded; DSH_HOME and the host cwd are fresh temp dirs. */
export async function startWorld(options: WorldOptions = {}): Promise<RuntimeWorld> {
  const home = makeTempDir('dsh-mcp-home-')
  const hostDir = makeTempDir('dsh-mcp-hostcwd-')
  const pids = home.mkdir('pids')
  if (options.userFile !== undefined) home.write('mcp.yml', options.userFile)
  const host = await createHost({
    cwd: hostDir.path,
    echoLogs: process.env.ECHO_LOGS === '1',
    ...(options.launchEnvironment === undefined ? {} : { launchEnvironment: options.launchEnvironment }),
  })
  const { userFile: _u, cwd, dshHome, launchEnvironment: _l, ...rest } = options
  const fiber = host.ctx.plugin(plugin, {
    dshHome: dshHome ?? home.path,
    cwd: cwd ?? hostDir.path,
    trust: 'all',
    ...rest,
  })
  await fiber
  const mcp = host.ctx.get('projectMcp') as ProjectMcp
  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= Promise.resolve(fiber.dispose()).then(() => undefined)
    return stopped
  }
  return {
    host,
    home,
    hostDir,
    pids,
    fiber,
    mcp,
    stop,
    async dispose() {
      await stop()
      await host.dispose()
      home.cleanup()
      hostDir.cleanup()
    },
  }
}

/** A temp project whose `.dsh/mcp.yml` holds `servers`. */
export function projectWith(servers: Record<string, unknown>, more: Record<string, string> = {}): TempDir {
  return makeProject({ '.dsh/mcp.yml': friendly(servers), ...more })
}
