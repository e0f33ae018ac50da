/**
 * Row 7 (b): heap growth of the running plugin holding 1,000 entries.
 *
 * A real host with the plugin and one agent in each of 50 empty projects;
 * heap settled; then 20 entries written into each project's `.dsh/mcp.yml`,
 * `reload()`, `whenIdle()`, heap settled again. No entry spawns: each uses
 * `${BENCH_UNSET}` in its env, so the plan skips it after parse, merge, trust
 * and expansion (when the trust gate is on they stop at "untrusted", earlier
 * still). Captured log lines are dropped before each measurement (the test
 * host keeps every record; the plugin itself does not).
 *
 * @module
 */
import { startWorld } from '../../test/support/runtime.ts'
import { makeProject } from '../../test/support/tmp.ts'
import { MB, settledHeap } from './heap.ts'
import { friendlyYaml, unsetServers } from './projects.ts'
import type { RowApi } from './report.ts'
import { fmt } from './stats.ts'

const PROJECTS = 50
const PER_PROJECT = 20

export async function runtimeMemory(r: RowApi): Promise<void> {
  const w = await startWorld({ watch: false })
  r.defer(() => w.dispose())
  const projects = Array.from({ length: PROJECTS }, () => makeProject({}, 'dsh-mcp-bench-mem-'))
  for (const p of projects) await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  w.host.logs.length = 0
  const before = await settledHeap()
  projects.forEach((p, i) => {
    p.write('.dsh/mcp.yml', friendlyYaml(unsetServers(PER_PROJECT, `p${i}`)))
  })
  await w.mcp.reload()
  await w.mcp.whenIdle()
  const servers = (w.mcp.snapshot() as { projects: { servers: unknown[] }[] }).projects.reduce(
    (n, p) => n + p.servers.length,
    0,
  )
  if (servers < PROJECTS * PER_PROJECT)
    throw new Error(`the plugin holds ${servers} servers, expected ${PROJECTS * PER_PROJECT}`)
  w.host.logs.length = 0
  const after = await settledHeap()
  const growth = (after - before) / MB
  r.metric({
    metric: 'runtime: 1,000 entries, 50 projects',
    ours: fmt(growth, 'MB'),
    baseline: 'same host, empty projects',
    ratio: '-',
    target: '≤ 10 MB',
    met: growth <= 10,
    raw: { before, after, servers },
  })
}
