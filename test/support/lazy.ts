/**
 * Lazy-server test worlds: a real host with the plugin on a `$DSH_HOME` that
 * outlives one host, so a first host can warm the tool cache for a second.
 */
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import type { Fiber } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createHost, mcpToolNames, type TestHost, waitFor } from './host.ts'
import { plugin } from './runtime.ts'
import type { OptionsInput, ProjectMcp, ServerSnapshot } from '../../src/index.ts'
import { makeTempDir, type TempDir } from './tmp.ts'

export const LONG = 60_000

export interface LazyWorld {
  host: TestHost
  mcp: ProjectMcp
  fiber: Fiber
  dispose(): Promise<void>
}

/** A host with the plugin on `home` (trust `all` unless given). */
export async function lazyWorld(
  home: TempDir,
  options: Omit<OptionsInput, 'dshHome' | 'cwd'> = {},
): Promise<LazyWorld> {
  const hostDir = makeTempDir('dsh-mcp-lazy-hostcwd-')
  const host = await createHost({ cwd: hostDir.path, echoLogs: process.env.ECHO_LOGS === '1' })
  const fiber = host.ctx.plugin(plugin, { dshHome: home.path, cwd: hostDir.path, trust: 'all', ...options })
  await fiber
  const mcp = host.ctx.get('projectMcp') as ProjectMcp
  return {
    host,
    mcp,
    fiber,
    async dispose() {
      await Promise.resolve(fiber.dispose())
      await host.dispose()
      hostDir.cleanup()
    },
  }
}

export function cacheFiles(home: TempDir): string[] {
  const dir = path.join(home.path, 'mcp-cache')
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []
}

/** The row of `name` in `root`'s snapshot. */
export function row(w: LazyWorld, root: string, name: string): ServerSnapshot | undefined {
  return w.mcp
    .snapshot()
    .projects.find((p) => p.root === root)
    ?.servers.find((s) => s.name === name)
}

export function waitRow(
  w: LazyWorld,
  root: string,
  name: string,
  ok: (s: ServerSnapshot) => boolean,
  what: string,
): Promise<ServerSnapshot> {
  return waitFor(
    () => {
      const s = row(w, root, name)
      return s && ok(s) ? s : undefined
    },
    { timeoutMs: LONG, ctx: w.host.ctx, events: ['tools/change'], message: what },
  )
}

/** Wait until `agent` sees exactly `names` among its MCP tools. */
export function waitTools(
  w: LazyWorld,
  agent: Agent | undefined,
  names: readonly string[],
  what: string,
): Promise<true> {
  const want = [...names].sort().join(',')
  return waitFor(() => mcpToolNames(w.host.ctx, agent).join(',') === want || undefined, {
    timeoutMs: LONG,
    ctx: w.host.ctx,
    events: ['tools/change'],
    message: what,
  })
}

/**
 * Warm the cache: a first host mounts the project's servers (lazy, no cache
 * yet: mounted as eager), records their tools, and goes away.
 */
export async function warm(
  home: TempDir,
  root: string,
  name: string,
  options: Omit<OptionsInput, 'dshHome' | 'cwd'> = {},
): Promise<void> {
  const before = cacheFiles(home).length
  const w = await lazyWorld(home, { idleTimeoutMs: 0, ...options })
  try {
    await w.host.createAgent({ cwd: root })
    await waitRow(
      w,
      root,
      name,
      (s) => s.state === 'mounted' && s.toolCount > 0,
      `"${name}" never mounted while warming`,
    )
    await waitFor(() => cacheFiles(home).length > before || undefined, {
      timeoutMs: LONG,
      message: 'the tool cache was never written',
    })
  } finally {
    await w.dispose()
  }
}
