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
 * once). The launcher runs on this process's node (`process.execPath`):
 * `lib/launch/launcher.js`, or its `.ts` source when the plugin itself runs
 * from source (tests; Node strips the types).
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import type { OfficialConfig } from '../config/official.ts'
import { clientCapturesStderr, type Launcher, launchedConfig, serverLogFile } from '../launch/spec.ts'
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

let found: Launcher | undefined
function launcher(): Launcher {
  if (found) return found
  const js = fileURLToPath(new URL('../launch/launcher.js', import.meta.url))
  const ts = fileURLToPath(new URL('../launch/launcher.ts', import.meta.url))
  found = { node: process.execPath, script: existsSync(js) ? js : ts }
  return found
}

export function mountedConfig(spec: MountSpec, effectiveName: string, opts: LaunchOptions): OfficialConfig {
  const config = { ...spec.config, serverName: effectiveName }
  if (config.transport !== 'stdio') return config
  const log = serverLogFile(opts.dshHome, spec.origin, spec.name)
  return launchedConfig(config, { log, secrets: spec.secrets, forward: stderrCapturedByClient(), ...(opts.logMaxBytes ? { maxBytes: opts.logMaxBytes } : {}) }, launcher())
}
