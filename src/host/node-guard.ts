/**
 * The Node the plugin needs, said in one line.
 *
 * Contract: pure, imports nothing. {@link nodeProblem} returns the one-line
 * cause when `version` (as `process.versions.node` spells it) is older than
 * Node 22 — what the dsh host packages need (`Promise.withResolvers`; the
 * `@deepseek-ai/dsh` CLI declares >= 22.22) and so what the plugin needs,
 * since it runs inside the host and mounts through the host's own MCP
 * client — else undefined. The plugin entry (src/index.ts) checks it before
 * loading anything of the host, so on Node 20 the failure names its cause
 * instead of "could not be resolved (see the error(s) logged above)" with
 * nothing above.
 *
 * @module
 */

export const MIN_NODE_MAJOR = 22

export function nodeProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1])
  if (Number.isFinite(major) && major >= MIN_NODE_MAJOR) return undefined
  return `dsh-project-mcp needs Node >= ${MIN_NODE_MAJOR} (the Node the dsh host needs); this host runs on Node ${version.replace(/^v?/, 'v')}: run dsh with Node 22 or later`
}
