/**
 * Row 7 — memory: heap growth of holding 1,000 entries across 50 projects.
 *
 * (a) Pure core: the parsed layers, desired state and effective names of 50
 *     projects × 20 entries, kept alive; heap after (with `global.gc()`)
 *     minus heap before. Repeated; median.
 * (b) Runtime (when the plugin is built): a real host with the plugin and
 *     one agent in each of 50 projects, first with no config (baseline),
 *     then with 20 untrusted entries written into each project (nothing
 *     spawns: the trust gate holds them), reloaded; growth = after − before.
 * Target ≤ 10 MB.
 *
 * @module
 */
import { makeFleet, plan } from '../support/fleet.ts'
import { MB, settledHeap } from '../support/heap.ts'
import { runRow } from '../support/report.ts'
import { fmt, median } from '../support/stats.ts'
import { runtimeMemory } from '../support/runtime-memory.ts'

const REPEATS = 5

await runRow('7', 'Memory', async (r) => {
  const growth: number[] = []
  for (let i = 0; i < REPEATS; i++) {
    const before = await settledHeap()
    let held: unknown = (() => {
      const fleet = makeFleet(50, 20)
      return { fleet, plan: plan(fleet) }
    })()
    const after = await settledHeap()
    growth.push(after - before)
    held = undefined
    void held
  }
  const core = median(growth) / MB
  r.metric({
    metric: 'pure core: 1,000 entries, 50 projects',
    ours: fmt(core, 'MB'),
    baseline: '-',
    ratio: '-',
    target: '≤ 10 MB',
    met: core <= 10,
    raw: { growthBytes: growth },
  })
  await runtimeMemory(r)
})
