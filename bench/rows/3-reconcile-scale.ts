/**
 * Row 3 — reconcile scale, pure core.
 *
 * 50 projects × 20 servers (1,000 entries) and 100 × 20 (2,000), all in
 * memory, all trusted. One entry changes (server 0 of one project gets new
 * args); a reconcile = parse that file, desired state over every project
 * (through the runtime's plan memo, so only the edited project is judged
 * again; the from-scratch desired state is noted for contrast), effective
 * names, diff against the mounted set. Measured in CPU time
 * (`process.cpuUsage`, user + system) so spawning is out by construction;
 * the two scales alternate round by round; medians. Targets: ≤ 5 ms at
 * 1,000 entries, and 2,000 ≤ 2.2× of 1,000 (linear, not worse).
 * (b) The same edit through the running plugin (see runtime-reconcile.ts),
 * for what the runtime adds around the pure core.
 *
 * @module
 */
import { runtimeReconcileWorld } from '../support/runtime-reconcile.ts'
import { makeFleet, planFromScratch, projectText, type ReconcileTimes, reconcile } from '../support/fleet.ts'
import { runRow } from '../support/report.ts'
import { fmt, median, percentile, ratio } from '../support/stats.ts'

const ROUNDS = 40
const WARMUP = 10
const PER_PROJECT = 20
const RUNTIME_ROUNDS = 9
const RUNTIME_WARMUP = 2

await runRow('3', 'Reconcile scale', async (r) => {
  const fleets = [makeFleet(50, PER_PROJECT), makeFleet(100, PER_PROJECT)]
  const samples: ReconcileTimes[][] = [[], []]
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0]
    for (const i of order) {
      const fleet = fleets[i]!
      const project = round % fleet.roots.length
      const t = reconcile(fleet, project, projectText(project, PER_PROJECT, round + 1))
      if (t.diff.add.length !== 1 || t.diff.remove.length !== 1 || t.diff.changed.length !== 1) {
        throw new Error(
          `expected one remount, got ${JSON.stringify({ add: t.diff.add.length, remove: t.diff.remove.length, changed: t.diff.changed.length })}`,
        )
      }
      if (round >= WARMUP) samples[i]!.push(t)
    }
  }
  const ms = (xs: ReconcileTimes[], f: (t: ReconcileTimes) => number) => median(xs.map(f)) / 1000
  const [s1, s2] = samples as [ReconcileTimes[], ReconcileTimes[]]
  const total1 = ms(s1, (t) => t.totalUs)
  const total2 = ms(s2, (t) => t.totalUs)
  const p95 =
    percentile(
      s1.map((t) => t.totalUs),
      0.95,
    ) / 1000
  const phases = (xs: ReconcileTimes[]) =>
    `parse ${fmt(ms(xs, (t) => t.parseUs))} + desired ${fmt(ms(xs, (t) => t.desiredUs))} + names/diff ${fmt(ms(xs, (t) => t.namesDiffUs))} ms`
  r.metric({
    metric: 'reconcile CPU, 1,000 entries p50',
    ours: fmt(total1, 'ms'),
    baseline: `p95 ${fmt(p95, 'ms')}`,
    ratio: '-',
    target: '≤ 5 ms',
    met: total1 <= 5,
    raw: { totalUs: s1.map((t) => t.totalUs) },
  })
  const scale = ratio(total2, total1)
  r.metric({
    metric: 'reconcile CPU, 2,000 vs 1,000 entries p50',
    ours: fmt(total2, 'ms'),
    baseline: `${fmt(total1, 'ms')} at 1,000`,
    ratio: `${fmt(scale)}×`,
    target: '≤ 2.2×',
    met: Number.isFinite(scale) ? scale <= 2.2 : null,
    raw: { totalUs: s2.map((t) => t.totalUs) },
  })
  r.note(`1,000 entries: ${phases(s1)}; 2,000: ${phases(s2)}`)
  const scratch = fleets.map((fleet) => {
    const us: number[] = []
    for (let i = 0; i < 15; i++) {
      const t0 = process.cpuUsage()
      planFromScratch(fleet)
      const u = process.cpuUsage(t0)
      if (i >= 3) us.push(u.user + u.system)
    }
    return median(us) / 1000
  })
  r.note(
    `desired state from scratch (every row judged, no memo): ${fmt(scratch[0]!)} ms at 1,000, ${fmt(scratch[1]!)} ms at 2,000`,
  )

  // (b) the running plugin, same shape, one edit per round, the two scales interleaved.
  const worlds = [await runtimeReconcileWorld(50), await runtimeReconcileWorld(100)]
  for (const w of worlds) r.defer(() => w.dispose())
  const cpu: number[][] = [[], []]
  for (let round = 0; round < RUNTIME_WARMUP + RUNTIME_ROUNDS; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const us = await worlds[i]!.round(round)
      if (round >= RUNTIME_WARMUP) cpu[i]!.push(us)
    }
  }
  const rt1 = median(cpu[0]!) / 1000
  const rt2 = median(cpu[1]!) / 1000
  r.metric({
    metric: 'runtime reconcile CPU, 1,000 entries p50',
    ours: fmt(rt1, 'ms'),
    baseline: `${fmt(rt2, 'ms')} at 2,000`,
    ratio: `${fmt(ratio(rt2, rt1))}× (2,000 / 1,000)`,
    target: '≤ 5 ms; ≤ 2.2×',
    met: rt1 <= 5 && ratio(rt2, rt1) <= 2.2,
    raw: { cpuUs: cpu },
  })
})
