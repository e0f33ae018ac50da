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
 * hang-kill looks for). The launcher runs on this process's node
 * (launch/where.ts).
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
  const launch = { log, secrets: spec.secrets, forward: stderrCapturedByClient(), ...(opts.logMaxBytes ? { maxBytes: opts.logMaxBytes } : {}) }
  return launchedConfig(config, launch, launcher(), newTreeMarker())
}
