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
 * This file wires the edges and owns nothing else.
 *
 * @module dsh-project-mcp
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-tools'
import type { Options } from './host/options.ts'
import { type ProjectMcp, startRuntime } from './host/runtime.ts'
import { serveWeb, type WebServerLike } from './host/web.ts'

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
  const runtime = startRuntime(ctx, config)
  ctx.effect(() => () => runtime.dispose(), 'dsh-project-mcp.runtime')
  ctx.provide('projectMcp', runtime.service)
  // The `dsh web` panel's read-only route, whenever the host runs a web server (optional: headless has none).
  ctx.inject(['webServer'], (web) => {
    const server = (web as unknown as { webServer: WebServerLike }).webServer
    web.effect(() => serveWeb(server, runtime.web), 'dsh-project-mcp.web')
  })
}
