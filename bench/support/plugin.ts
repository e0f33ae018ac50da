/**
 * A real host (test/support/host.ts) with our plugin mounted from source
 * (`src/index.ts`, the same code `lib/` is built from), plus the service
 * surface the rows drive (`ctx.projectMcp`).
 *
 * Contract: `loadPlugin()` resolves `null` while the runtime is not in the
 * tree yet (rows then report `n/a`); `bootWithPlugin` always isolates the
 * plugin in a fresh `dshHome` and a neutral host cwd outside every project.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Context, Fiber, Plugin } from '@deepseek-ai/cordis'
import { createHost, type TestHost } from '../../test/support/host.ts'
import { makeTempDir } from '../../test/support/tmp.ts'

const ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url))

/** What the rows use of `ctx.projectMcp`. */
export interface ProjectMcp {
  snapshot(): unknown
  reload(): Promise<void>
  whenIdle(): Promise<void>
}

export async function loadPlugin(): Promise<Plugin | null> {
  if (!existsSync(ENTRY)) return null
  return (await import(ENTRY)) as Plugin
}

export interface PluginHost {
  host: TestHost
  fiber: Fiber
  service: ProjectMcp
  dshHome: string
}

export interface BootOptions {
  /** Plugin options merged over the bench defaults (no user layer, trust off unless given). */
  options?: Record<string, unknown>
}

/** A real host with the plugin active; `dispose` the host to end both. */
export async function bootWithPlugin(plugin: Plugin, o: BootOptions = {}): Promise<PluginHost> {
  const neutral = makeTempDir('dsh-mcp-bench-hostcwd-')
  const dshHome = neutral.mkdir('.dsh')
  const host = await createHost({ cwd: neutral.path })
  const options = { dshHome, cwd: neutral.path, userLayer: false, trust: 'all', graceMs: 600_000, ...o.options }
  const fiber = host.ctx.plugin(plugin, options)
  await fiber
  const service = (host.ctx as Context & { projectMcp?: ProjectMcp }).projectMcp
  if (!service) throw new Error('the plugin did not provide ctx.projectMcp')
  return { host, fiber, service, dshHome }
}
