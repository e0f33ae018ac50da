/**
 * A measurement probe on `ctx.plugin`: records the instant any context forks
 * the official MCP client for a given `serverName`, so a row can split an
 * edit's latency into "before the mount was asked for" and "the official
 * client mounting", inside the same edit (no cross-run spawn noise).
 *
 * Contract: wraps `RegistryService.prototype.plugin` once per process and
 * only records (performance.now()); behaviour is unchanged. `mountCalls`
 * is keyed by serverName; the latest call wins.
 *
 * @module
 */
import { RegistryService } from '@deepseek-ai/cordis'
import { mcpClient } from '../../test/support/host.ts'

export const mountCalls = new Map<string, number>()
let installed = false

export function installMountProbe(): void {
  if (installed) return
  installed = true
  const proto = RegistryService.prototype as unknown as {
    plugin: (this: unknown, plugin: unknown, config?: unknown, ...rest: unknown[]) => unknown
  }
  const original = proto.plugin
  proto.plugin = function (this: unknown, plugin: unknown, config?: unknown, ...rest: unknown[]) {
    if (plugin === mcpClient && config && typeof config === 'object' && 'serverName' in config) {
      mountCalls.set(String((config as { serverName: unknown }).serverName), performance.now())
    }
    return original.call(this, plugin, config, ...rest)
  }
}
