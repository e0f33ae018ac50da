/**
 * Config text and temp projects for the benchmark rows: friendly `.dsh/mcp.yml`
 * documents whose servers run the stdio MCP fixture with this Node (22, so the
 * fixture's TypeScript runs), and isolated `DSH_HOME`/`HOME` environments.
 *
 * Contract: every directory comes from test/support/tmp.ts (removed by
 * `runRow`); nothing here spawns a process.
 *
 * @module
 */
import { stringify } from 'yaml'
import { stdioFixtureArgs } from '../../test/support/host.ts'
import { makeTempDir, type TempDir } from '../../test/support/tmp.ts'

export interface FixtureEntryOptions {
  tools?: readonly string[]
  marker?: string
  pidfileDir?: string
  initDelayMs?: number
}

/** A friendly entry that runs the stdio fixture named `name`. */
export function fixtureEntry(name: string, o: FixtureEntryOptions = {}): Record<string, unknown> {
  const args = stdioFixtureArgs({ name, tools: ['echo'], ...o })
  return { command: process.execPath, args }
}

/** A friendly document `{ servers }`. */
export function friendlyYaml(servers: Record<string, Record<string, unknown>>): string {
  return stringify({ servers }, { lineWidth: 0 })
}

/** `count` servers `<prefix>0..` of plain `node server-N.js` shape (never started by the rows that use it). */
export function plainServers(count: number, prefix = 's', project = 'p'): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  for (let i = 0; i < count; i++) {
    out[`${prefix}${i}`] = {
      command: 'node',
      args: [`./tools/${project}-server-${i}.js`, '--port', String(4000 + i)],
      env: { LOG_LEVEL: 'info' },
      description: `server ${i} of ${project}`,
    }
  }
  return out
}

/** `count` servers that never spawn: each needs `${BENCH_UNSET}`, which is never set, so the plan skips it. */
export function unsetServers(count: number, project = 'p'): Record<string, Record<string, unknown>> {
  const servers = plainServers(count, 's', project)
  for (const entry of Object.values(servers)) entry.env = { LOG_LEVEL: 'info', TOKEN: '$'.concat('{BENCH_UNSET}') }
  return servers
}

export interface IsolatedEnv {
  home: TempDir
  dshHome: string
  env: NodeJS.ProcessEnv
}

/** An environment whose HOME and DSH_HOME are fresh temp dirs (no real user layer or trust store leaks in). */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): IsolatedEnv {
  const home = makeTempDir('dsh-mcp-bench-home-')
  const dshHome = home.mkdir('.dsh')
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home.path, DSH_HOME: dshHome, NO_COLOR: '1', ...extra }
  return { home, dshHome, env }
}
