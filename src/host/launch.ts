/**
 * The config a mount hands the official client: a stdio server goes through
 * our launcher (src/launch/launcher.ts) so its stderr is logged redacted and
 * its process tree ends with it; an HTTP server is mounted as planned.
 *
 * Contract: `mountedConfig(spec, effectiveName, opts)` is `spec.config` with
 * the effective `serverName`, and for stdio the launcher wrapping
 * (spec.ts `launchedConfig`): the log at `serverLogFile(dshHome,
 * spec.origin, spec.name)`, the spec's secrets, and `forward` when the
 * installed client captures stderr itself (`stderrCapturedByClient`, asked
 * once), and a fresh tree marker per mount (launch/tree.ts: what the
 * hang-kill looks for), and `unset`: the names of `opts.projectEnv` (what
 * the host took from the repository's `.env`) the entry's own `env` does not
 * set. The launcher runs on this process's node (launch/where.ts).
 *
 * @module
 */
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import type { OfficialConfig } from '../config/official.ts'
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
}

let captured: boolean | undefined
/** Whether the installed official client captures a stdio server's stderr itself. */
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
  }
  // Blank them for the launcher's own start too (NODE_OPTIONS, LD_PRELOAD act on the node that runs it); it then removes them.
  const blanked =
    unset.length > 0 ? { ...config, env: { ...own, ...Object.fromEntries(unset.map((name) => [name, ''])) } } : config
  return launchedConfig(blanked, launch, launcher(), newTreeMarker())
}
