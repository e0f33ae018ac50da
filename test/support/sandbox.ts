/**
 * Helpers for the doctor/status tests: temp projects with `.dsh/mcp.yml`
 * written from a plain object, fixture server entries, and isolated homes.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stdioFixtureArgs } from './fixture-config.ts'
import { makeProject, makeTempDir, type TempDir } from './tmp.ts'

export const NODE = process.execPath
export const DOCTOR_FIXTURES = fileURLToPath(new URL('../fixtures/doctor/', import.meta.url))

export type ServerEntry = Record<string, unknown>

/** A stdio entry running the shared MCP fixture with Node 22 (`flags`: its own, verbatim). */
export function fixtureServer(name: string, flags: string[] = [], extra: ServerEntry = {}): ServerEntry {
  return { command: NODE, args: stdioFixtureArgs({ name, flags }), ...extra }
}

/** A stdio entry running one of test/fixtures/doctor/*.ts. */
export function doctorFixture(file: string, args: string[] = [], extra: ServerEntry = {}): ServerEntry {
  return { command: NODE, args: ['--no-warnings', join(DOCTOR_FIXTURES, file), ...args], ...extra }
}

export interface Sandbox {
  project: TempDir
  /** `$DSH_HOME` (inside `home`). */
  dshHome: string
  home: string
  pids: string
  cleanup(): void
}

/** A project with these servers in `.dsh/mcp.yml`, plus fresh HOME / DSH_HOME / pidfile dirs. */
export function sandbox(
  servers: Record<string, ServerEntry>,
  opts: { userServers?: Record<string, ServerEntry> } = {},
): Sandbox {
  const project = makeProject({ '.dsh/mcp.yml': `${JSON.stringify({ servers }, null, 2)}\n` })
  const homeDir = makeTempDir('dsh-mcp-home-')
  const dshHome = join(homeDir.path, '.dsh')
  mkdirSync(dshHome, { recursive: true })
  if (opts.userServers)
    writeFileSync(join(dshHome, 'mcp.yml'), `${JSON.stringify({ servers: opts.userServers }, null, 2)}\n`)
  const pids = homeDir.mkdir('pids')
  return {
    project,
    dshHome,
    home: homeDir.path,
    pids,
    cleanup() {
      project.cleanup()
      homeDir.cleanup()
    },
  }
}

/** A minimal inherited environment for a child (PATH and HOME only, plus `extra`). */
export function cleanEnv(s: Pick<Sandbox, 'home' | 'dshHome'>, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.home, DSH_HOME: s.dshHome, ...extra }
}

/** A TCP port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const net = await import('node:net')
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}
