/**
 * How a stdio server is mounted through our launcher (launcher.ts), and where
 * its captured stderr is logged.
 *
 * Contract (pure: no fs, no process state):
 * - `serverLogFile(dshHome, origin, name)` is the one path of a server's log:
 *   `$DSH_HOME/mcp-logs/<written name>-<sha256(origin) hex, first 12>.log`
 *   (`origin` is the project root, or `$DSH_HOME` for user-layer servers);
 *   its one backup is the same path + `.1`. Host and CLI both use it.
 * - `launchedConfig(config, spec, launcher)` is the official stdio config
 *   that runs `launcher.node launcher.script <command> ...args` instead of
 *   `command ...args`, with everything else (cwd, env, tuning) unchanged and
 *   the launch spec in `config.env[LAUNCH_ENV]` (the launcher strips it
 *   before it starts the real server) and, when given, the tree marker in
 *   `config.env[TREE_ENV]` (kept: the server's tree inherits it). The trust fingerprint and mount key
 *   are of the unwrapped config; only the edge that mounts wraps.
 * - `readLaunchSpec(env)` decodes that variable, or says why it cannot.
 *   A spec without `log` writes no file: the launcher only forwards the
 *   redacted lines (doctor's probes, which show a stderr tail).
 * - `clientCapturesStderr(Config)` says whether the installed official
 *   client's exported Config schema declares a stdio `stderr` option (a
 *   client that captures the server's stderr itself). rc.8 does not: the
 *   child's stderr is inherited, so the launcher must keep it off the host's
 *   terminal. When the client captures it, the launcher also forwards the
 *   redacted lines to the client (still one raw capture: ours).
 *
 * The launcher imports this module before it starts the server, so it
 * imports nothing but node builtins (and types): no zod, no config parser.
 *
 * @module
 */
import { createHash } from 'node:crypto'
import path from 'node:path'
import type { OfficialConfig } from '../config/official.ts'

/** The variable that carries the launch spec from the host to the launcher (never to the server). */
export const LAUNCH_ENV = 'DSH_MCP_LAUNCH'

/** The variable that marks a launched tree (tree.ts); its value is a random id, never a secret. */
export const TREE_ENV = 'DSH_MCP_TREE'

/** A log is rotated (to `<log>.1`, replacing the old backup) when a write would take it past this size. */
export const LOG_MAX_BYTES = 4 * 1024 * 1024

export interface LaunchSpec {
  /** The log file (serverLogFile); absent: no file, the redacted lines are only forwarded (doctor's probes). */
  log?: string
  /** Values to replace with `***` before anything is written. */
  secrets: string[]
  /** Also write the redacted lines to the launcher's stderr (the client captures it). */
  forward: boolean
  /** Rotation size (default LOG_MAX_BYTES; tests pass less). */
  maxBytes?: number
  /** Names the launcher removes from its environment before anything else: what the host took from the repository's `.env` and the entry does not set itself (host/project-env.ts). */
  unset?: string[]
  /** The project checkouts an agent runs in: a bare command that resolves inside one is refused (resolve.ts). Absent (doctor's probes): the server's cwd when it is a project root (launcher.ts). */
  checkouts?: string[]
  /** A repository server: the lock its start consults (prepare.ts, locked.ts). Absent: a user-layer server, started as written. */
  locked?: { root: string; name: string; dshHome: string }
}

export type StdioConfig = Extract<OfficialConfig, { transport: 'stdio' }>

export interface Launcher {
  /** The node binary (`process.execPath`). */
  node: string
  /** `lib/launch/launcher.js`. */
  script: string
}

export function serverLogFile(dshHome: string, origin: string, name: string): string {
  const hash = createHash('sha256').update(path.resolve(origin)).digest('hex').slice(0, 12)
  return path.join(dshHome, 'mcp-logs', `${name}-${hash}.log`)
}

export function launchedConfig(
  config: StdioConfig,
  spec: LaunchSpec,
  launcher: Launcher,
  marker?: string,
): StdioConfig {
  return {
    ...config,
    command: launcher.node,
    args: [launcher.script, config.command, ...(config.args ?? [])],
    env: { ...(config.env ?? {}), [LAUNCH_ENV]: JSON.stringify(spec), ...(marker ? { [TREE_ENV]: marker } : {}) },
  }
}

function lockedRef(v: unknown): v is NonNullable<LaunchSpec['locked']> {
  const r = v as Partial<NonNullable<LaunchSpec['locked']>> | undefined
  return (
    typeof r?.name === 'string' &&
    typeof r.root === 'string' &&
    path.isAbsolute(r.root) &&
    typeof r.dshHome === 'string' &&
    path.isAbsolute(r.dshHome)
  )
}

export function readLaunchSpec(env: Readonly<Record<string, string | undefined>>): LaunchSpec | { error: string } {
  const raw = env[LAUNCH_ENV]
  if (raw === undefined) return { error: `${LAUNCH_ENV} is not set (the launcher runs only under the dsh-mcp plugin)` }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return { error: `${LAUNCH_ENV} is not JSON` }
  }
  const v = value as Partial<LaunchSpec> | null
  if (
    !v ||
    (v.log !== undefined && typeof v.log !== 'string') ||
    !Array.isArray(v.secrets) ||
    v.secrets.some((s) => typeof s !== 'string') ||
    typeof v.forward !== 'boolean'
  ) {
    return { error: `${LAUNCH_ENV} does not hold a launch spec` }
  }
  const unset = Array.isArray(v.unset) ? v.unset.filter((n): n is string => typeof n === 'string') : []
  const checkouts = Array.isArray(v.checkouts)
    ? v.checkouts.filter((n): n is string => typeof n === 'string' && path.isAbsolute(n))
    : undefined
  return {
    ...(v.log !== undefined ? { log: v.log } : {}),
    secrets: v.secrets,
    forward: v.forward,
    ...(typeof v.maxBytes === 'number' && v.maxBytes > 0 ? { maxBytes: v.maxBytes } : {}),
    ...(unset.length > 0 ? { unset } : {}),
    ...(checkouts ? { checkouts } : {}),
    ...(lockedRef(v.locked) ? { locked: v.locked } : {}),
  }
}

interface SchemaNode {
  type?: unknown
  list?: unknown
  dict?: Record<string, SchemaNode | undefined>
  value?: unknown
}

/** Whether a Schemastery Config (a union of transport objects) declares `stderr` on its stdio branch. */
export function clientCapturesStderr(schema: unknown): boolean {
  const seen = new Set<unknown>()
  const visit = (node: unknown): boolean => {
    if (!node || (typeof node !== 'object' && typeof node !== 'function') || seen.has(node)) return false
    seen.add(node)
    const n = node as SchemaNode
    if (n.dict && typeof n.dict === 'object') {
      const transport = n.dict.transport
      const stdio = transport?.value === 'stdio' || transport === undefined
      if (stdio && Object.hasOwn(n.dict, 'stderr')) return true
    }
    return Array.isArray(n.list) && n.list.some(visit)
  }
  return visit(schema)
}
