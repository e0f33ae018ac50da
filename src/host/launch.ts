/**
 * The config a mount hands the official client: a stdio server in our
 * launcher's shape (src/launch/launcher.ts), which the host's hook on the
 * client's transport (stdio-hook.ts) starts in this process — no launcher
 * process — and, when the hook is not installed, the launcher runs: either
 * way its stderr is logged redacted and its process tree ends with it; an
 * HTTP server is mounted as planned.
 *
 * Contract: `mountedConfig(spec, effectiveName, opts)` is `spec.config` with
 * the effective `serverName`, and for stdio the launcher wrapping
 * (spec.ts `launchedConfig`): the log at `serverLogFile(dshHome,
 * spec.origin, spec.name)`, the spec's secrets, and `forward` when the
 * installed client captures stderr itself (`stderrCapturedByClient`, asked
 * once), and a fresh tree marker per mount (launch/tree.ts: what the
 * hang-kill looks for), and `unset`: the names of `opts.projectEnv` (what
 * the host took from the repository's `.env`) the entry's own `env` does not
 * set, and `checkouts`: the project checkouts a bare command must not
 * resolve into (launch/resolve.ts) — the server's own project root, and for
 * a user-layer server every known project root (`opts.checkouts`) but one
 * that holds the user's home or `$DSH_HOME` (a home directory is no
 * checkout). The launcher runs on this process's node (launch/where.ts).
 * `missingCommand(spec)` resolves a stdio command as the launcher will (its
 * PATH, else the host's; launch/resolve.ts) and answers the typed cause
 * (plan/states.ts) when there is no such command or it cannot be executed.
 *
 * @module
 */
import { homedir } from 'node:os'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import type { OfficialConfig } from '../config/official.ts'
import { checkoutRoots, resolveCommand } from '../launch/resolve.ts'
import type { Cause } from '../plan/states.ts'
import { clientCapturesStderr, launchedConfig, serverLogFile } from '../launch/spec.ts'
import { newTreeMarker } from '../launch/tree.ts'
import { launcher } from '../launch/where.ts'
import type { MountSpec } from '../plan/desired.ts'

export interface LaunchOptions {
  dshHome: string
  /** Rotation size of the server logs (default spec.ts LOG_MAX_BYTES). */
  logMaxBytes?: number
  /** Names the host took from the repository's `.env` (project-env.ts): unset for the server unless its entry sets them. */
  projectEnv?: readonly string[]
  /** The project roots agents run in: no bare command may resolve into one. */
  checkouts?: readonly string[]
}

/** The checkouts no bare command may resolve into: the server's own project, and every root agents run in. */
function checkoutsOf(spec: MountSpec, opts: LaunchOptions): string[] {
  const roots = spec.layer === 'user' ? [...(opts.checkouts ?? [])] : [spec.origin, ...(opts.checkouts ?? [])]
  return checkoutRoots(roots, [homedir(), opts.dshHome])
}

let captured: boolean | undefined
/** Whether the installed official client captures a stdio server's stderr itself. */
/** The cause when a stdio server's command cannot be found or executed where it will run (else undefined). */
export function missingCommand(spec: MountSpec): Cause | undefined {
  const c = spec.config
  if (c.transport !== 'stdio') return undefined
  const r = resolveCommand(c.command, { PATH: process.env.PATH, ...(c.env ?? {}) }, c.cwd)
  if (!('code' in r)) return undefined
  if (r.code === 'ENOENT') return { kind: 'command-not-found', command: c.command }
  if (r.code === 'EACCES') return { kind: 'not-executable', command: c.command }
  return undefined
}

export function stderrCapturedByClient(): boolean {
  captured ??= clientCapturesStderr(mcpClient.Config)
  return captured
}

export function mountedConfig(spec: MountSpec, effectiveName: string, opts: LaunchOptions): OfficialConfig {
  const config = { ...spec.config, serverName: effectiveName }
  if (config.transport !== 'stdio') return config
  const log = serverLogFile(opts.dshHome, spec.origin, spec.name)
  const own = config.env ?? {}
  const unset = (opts.projectEnv ?? []).filter((name) => !Object.hasOwn(own, name))
  const launch = {
    log,
    secrets: spec.secrets,
    forward: stderrCapturedByClient(),
    ...(opts.logMaxBytes ? { maxBytes: opts.logMaxBytes } : {}),
    ...(unset.length > 0 ? { unset } : {}),
    checkouts: checkoutsOf(spec, opts),
  }
  // Blank them for the launcher's own start too (NODE_OPTIONS, LD_PRELOAD act on the node that runs it); it then removes them.
  const blanked =
    unset.length > 0 ? { ...config, env: { ...own, ...Object.fromEntries(unset.map((name) => [name, ''])) } } : config
  return launchedConfig(blanked, launch, launcher(), newTreeMarker())
}
