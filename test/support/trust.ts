/**
 * Helpers for the trust-gate tests on a real host: run `dsh-mcp` (in
 * process, support/cli.ts) against a world's DSH_HOME,
 * read what the plugin reports, and wait for an agent's MCP tools.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ServerSnapshot } from '../../src/index.ts'
import { statusDir, statusFileOf, statusFilePath } from '../../src/status/path.ts'
import { type CliRun, runCli } from './cli.ts'
import { mcpToolNames, waitFor } from './host.ts'
import { readMarker } from './procs.ts'
import type { RuntimeWorld } from './runtime.ts'

/** `dsh-mcp <args> -C <root>` with the world's DSH_HOME (HOME: the world's home too); asserts exit 0 unless `expectFail`. */
export async function cli(
  w: RuntimeWorld,
  root: string,
  args: string[],
  o: { expectFail?: boolean } = {},
): Promise<CliRun> {
  const r = await runCli([...args, '-C', root], { cwd: w.hostDir.path, dshHome: w.home.path, home: w.home.path })
  if (!o.expectFail) assert.equal(r.code, 0, `dsh-mcp ${args.join(' ')} exited ${r.code}\n${r.stderr}`)
  return r
}

/** `dsh-mcp trust --all --yes -C <root>`. */
export function trustAll(w: RuntimeWorld, root: string): Promise<CliRun> {
  return cli(w, root, ['trust', '--all', '--yes'])
}

/** The in-memory snapshot row of `name` in project `root`. */
export function serverOf(w: RuntimeWorld, root: string, name: string): ServerSnapshot {
  const p = w.mcp.snapshot().projects.find((x) => x.root === root)
  const s = p?.servers.find((x) => x.name === name)
  assert.ok(s, `no snapshot row ${name} in ${root}`)
  return s
}

/**
 * The newest status file of `root` whatever host wrote it (a host in a child process writes `<hash>.<its pid>.json`),
 * or undefined.
 */
export function newestStatusFile(dshHome: string, root: string): string | undefined {
  let names: string[] = []
  try {
    names = readdirSync(statusDir(dshHome))
  } catch {
    return undefined
  }
  const files = names.filter((n) => statusFileOf(n, root)).map((n) => join(statusDir(dshHome), n))
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
}

/** `[name, state]` of every server of the status file of `root`. */
export function statusStates(w: RuntimeWorld, root: string): [string, string][] {
  const file = statusFilePath(w.home.path, root)
  if (!existsSync(file)) return []
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { servers: { name: string; state: string }[] }
  return doc.servers.map((s) => [s.name, s.state])
}

/** The raw status file of `root`. */
export function statusText(w: RuntimeWorld, root: string): string {
  return readFileSync(statusFilePath(w.home.path, root), 'utf8')
}

/** Wait until `agent`'s MCP tools are exactly `want` (sorted), then until the plugin is idle. */
export async function untilTools(w: RuntimeWorld, agent: Agent, want: string[], message: string): Promise<void> {
  const sorted = JSON.stringify([...want].sort())
  await waitFor(() => JSON.stringify(mcpToolNames(w.host.ctx, agent)) === sorted, {
    ctx: w.host.ctx,
    events: ['tools/change'],
    message: `${message} (have ${JSON.stringify(mcpToolNames(w.host.ctx, agent))})`,
  })
  await w.mcp.whenIdle()
}

/** Several full reconciles (each re-reads every file and the store), settled. */
export async function reconcileTimes(w: RuntimeWorld, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await w.mcp.reload()
    await w.mcp.whenIdle()
  }
}

/** Warning lines of the plugin that contain `needle`. */
export function warnings(w: RuntimeWorld, needle: string): string[] {
  return w.host.logs
    .filter((l) => l.name === 'dsh-project-mcp' && l.type === 'warn' && l.text.includes(needle))
    .map((l) => l.text)
}

/** An agent starts in `root` and two more reconciles pass: `name` never spawned (its marker is empty), offers no tools, and reads `untrusted`. */
export async function assertHeldBack(w: RuntimeWorld, root: string, name: string, marker: string): Promise<Agent> {
  const agent = (await w.host.createAgent({ cwd: root })).agent
  await w.mcp.whenIdle()
  await reconcileTimes(w, 2)
  assert.deepEqual(readMarker(marker), [], `${name} never spawned`)
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [])
  assert.equal(serverOf(w, root, name).state, 'untrusted')
  return agent
}
