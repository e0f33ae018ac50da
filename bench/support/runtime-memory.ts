/**
 * Row 7 (b): heap growth of the running plugin holding 1,000 entries.
 *
 * A real host with the plugin (trust required, nothing trusted: no entry
 * spawns) and one agent in each of 50 empty projects; heap settled; then 20
 * entries written into each project's `.dsh/mcp.yml`, `reload()`,
 * `whenIdle()`, heap settled again. Captured log lines are dropped before
 * each measurement (the test host keeps every record; the plugin does not).
 *
 * @module
 */
import { makeProject } from '../../test/support/tmp.ts'
import { MB, settledHeap } from './heap.ts'
import { bootWithPlugin, loadPlugin } from './plugin.ts'
import { friendlyYaml, plainServers } from './projects.ts'
import type { RowApi } from './report.ts'
import { fmt } from './stats.ts'

const PROJECTS = 50
const PER_PROJECT = 20

export async function runtimeMemory(r: RowApi): Promise<void> {
  const plugin = await loadPlugin()
  const metric = { metric: 'runtime: 1,000 entries, 50 projects', baseline: 'same host, empty projects', ratio: '-', target: '≤ 10 MB' }
  if (!plugin) {
    r.metric({ ...metric, ours: 'n/a', met: null })
    r.note('runtime not in the tree yet (src/index.ts missing)')
    return
  }
  const booted = await bootWithPlugin(plugin, { options: { trust: 'require', watch: false } })
  r.defer(() => booted.host.dispose())
  const { host, service } = booted
  const projects = Array.from({ length: PROJECTS }, () => makeProject({}, 'dsh-mcp-bench-mem-'))
  for (const p of projects) await host.createAgent({ cwd: p.path })
  await service.whenIdle()
  host.logs.length = 0
  const before = await settledHeap()
  projects.forEach((p, i) => {
    p.write('.dsh/mcp.yml', friendlyYaml(plainServers(PER_PROJECT, 's', `p${i}`)))
  })
  await service.reload()
  await service.whenIdle()
  host.logs.length = 0
  const after = await settledHeap()
  const growth = (after - before) / MB
  r.metric({ ...metric, ours: fmt(growth, 'MB'), met: growth <= 10, raw: { before, after } })
}
