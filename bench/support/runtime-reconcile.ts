/**
 * Row 3 (b): the running plugin's reconcile after one edit, in CPU time.
 *
 * A real host with the plugin (watcher off: `reload()` triggers the
 * reconcile directly, so no debounce or file event is in the window), one
 * agent in each of `projects` projects of 20 entries that never spawn
 * (`${BENCH_UNSET}`, see projects.ts). Each round rewrites one project's
 * `.dsh/mcp.yml` with one entry changed, then `reload()` + `whenIdle()`;
 * the process's CPU time over that window is the sample. Unlike (a) this
 * includes what the runtime does around the pure core: reading files,
 * status files, visibility.
 *
 * @module
 */
import { startWorld } from '../../test/support/runtime.ts'
import { makeProject, type TempDir } from '../../test/support/tmp.ts'
import { friendlyYaml, unsetServers } from './projects.ts'

const PER_PROJECT = 20

export interface RuntimeWorldForReconcile {
  /** CPU µs of one reconcile after editing project `round % projects`. */
  round(round: number): Promise<number>
  dispose(): Promise<void>
}

function text(project: number, variant: number): string {
  const servers = unsetServers(PER_PROJECT, `p${project}`)
  servers.s0!.args = ['./tools/server-0.js', '--variant', String(variant)]
  return friendlyYaml(servers)
}

export async function runtimeReconcileWorld(projects: number): Promise<RuntimeWorldForReconcile> {
  const w = await startWorld({ watch: false })
  // Agents first, files second: each first agent of a project runs a full reconcile synchronously
  // (see row 4), so joining 100 projects that already hold their files would be quadratic.
  const dirs: TempDir[] = Array.from({ length: projects }, () => makeProject({}, 'dsh-mcp-bench-rec-'))
  for (const d of dirs) await w.host.createAgent({ cwd: d.path })
  dirs.forEach((d, i) => {
    d.write('.dsh/mcp.yml', text(i, 0))
  })
  await w.mcp.reload()
  await w.mcp.whenIdle()
  return {
    async round(round) {
      const i = round % projects
      dirs[i]!.write('.dsh/mcp.yml', text(i, round + 1))
      w.host.logs.length = 0
      const t0 = process.cpuUsage()
      await w.mcp.reload()
      await w.mcp.whenIdle()
      const u = process.cpuUsage(t0)
      return u.user + u.system
    },
    dispose: () => w.dispose(),
  }
}
