/**
 * dsh-project-mcp: project-level MCP servers for DeepSeek Harness.
 *
 * Cordis namespace plugin (named exports `name`, `inject`, `Config`, `apply`,
 * like `@deepseek-ai/dsh-mcp-client`). It finds each agent's project, mounts
 * the project's servers (and the user's global ones) through the official
 * client — the host's own copy, a peer — and scopes tool visibility so an
 * agent only sees and runs its own project's MCP tools plus the globals.
 * Provides `ctx.projectMcp` ({@link ProjectMcp}). Lifecycle is effect-scoped:
 * disposing the plugin unmounts every server and lifts every restriction.
 * When the host runs a web server (`dsh web`), a read-only status route
 * serves the browser half (`./client`, client/panel.js).
 *
 * This file wires the edges and owns nothing else. It first checks the Node
 * version (`host/node-guard.ts`): on a Node older than the host needs it
 * writes the cause on stderr in one line and throws it, before anything of
 * the host is loaded (the rest is imported only after the check), so the
 * host's "plugin(s) failed to load" has that line above it.
 *
 * @module dsh-project-mcp
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-tools'
import { nodeProblem } from './host/node-guard.ts'
import type { Options } from './host/options.ts'
import type { ProjectMcp } from './host/runtime.ts'
import type { WebServerLike } from './host/web.ts'

// Before anything of the host is loaded: on an older Node, the cause in one line (the host's own logger is quiet).
const problem = nodeProblem(process.versions.node)
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`)
  throw new Error(problem)
}
const { startRuntime } = await import('./host/runtime.ts')
const { serveWeb } = await import('./host/web.ts')
const { installStdioHook } = await import('./host/stdio-hook.ts')

export { Config } from './host/options.ts'
export type { Options, OptionsInput } from './host/options.ts'
export type { ProjectMcp } from './host/runtime.ts'
export type { ProjectSnapshot, ServerSnapshot, Snapshot } from './host/status.ts'
export type { ServerState } from './status/format.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    projectMcp: ProjectMcp
  }
}

/** Cordis plugin name. */
export const name = 'dsh-project-mcp'

/** Required services: the tool registry (mounting, visibility) and the agent registry (projects). */
export const inject = ['tools', 'agents']

/** Start the runtime and provide `ctx.projectMcp`; everything is released with the plugin. */
export async function apply(ctx: Context, config: Options): Promise<void> {
  // Stdio servers start in this process (no launcher process each); when the client's transport cannot be hooked, through the launcher.
  const hook = await installStdioHook()
  if (!hook.installed)
    ctx.logger('dsh-project-mcp').info('stdio servers start through the launcher process (%s)', hook.why)
  const runtime = startRuntime(ctx, config)
  ctx.effect(() => () => runtime.dispose(), 'dsh-project-mcp.runtime')
  ctx.provide('projectMcp', runtime.service)
  // The `dsh web` panel's read-only route, whenever the host runs a web server (optional: headless has none).
  ctx.inject(['webServer'], (web) => {
    const server = (web as unknown as { webServer: WebServerLike }).webServer
    web.effect(() => serveWeb(server, runtime.web), 'dsh-project-mcp.web')
  })
}
