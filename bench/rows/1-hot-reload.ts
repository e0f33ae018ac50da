/**
 * Row 1 — hot-reload overhead.
 *
 * Ours: save `.dsh/mcp.yml` adding a fixture stdio server → the instant its
 * tool is in the agent's `ctx.tools.schemas(agent)` (seen from inside
 * `tools/change`). Contrast, same run, interleaved edit by edit (order
 * alternating): the raw time of mounting the same server directly with
 * `ctx.plugin(mcpClient, config)` on a second host without the plugin →
 * its tool registered. Overhead of edit i = ours_i − mount_i − debounceMs,
 * where mount_i is the official client's share of that same edit (from the
 * plugin's `ctx.plugin` call to the tool, see mount-probe.ts) — spawn noise
 * cancels; mount vs direct (p50, p95) shows mount_i is the raw mount time,
 * and the coarse p50(ours) − p50(direct) − debounce is printed as well.
 * p50/p95 over 20 edits (after 2 warm-up edits). Between edits the added
 * server is removed again (and the direct fiber disposed), untimed.
 * Targets: overhead p50 ≤ 20 ms, p95 ≤ 60 ms.
 *
 * @module
 */
import { writeFileSync } from 'node:fs'
import { createHost, mcpClient, stdioFixtureConfig } from '../../test/support/host.ts'
import { reapAll } from '../../test/support/procs.ts'
import { startWorld } from '../../test/support/runtime.ts'
import { makeProject } from '../../test/support/tmp.ts'
import { installMountProbe, mountCalls } from '../support/mount-probe.ts'
import { fixtureEntry, friendlyYaml } from '../support/projects.ts'
import { runRow } from '../support/report.ts'
import { fmt, median, percentile } from '../support/stats.ts'
import { sees, whenTools } from '../support/visible.ts'

const EDITS = 20
const WARMUP = 2
const DEBOUNCE_MS = 100

await runRow('1', 'Hot reload', async (r) => {
  installMountProbe()
  const w = await startWorld({ debounceMs: DEBOUNCE_MS })
  r.defer(() => reapAll(w.pids))
  r.defer(() => w.dispose())
  const direct = await createHost()
  r.defer(() => direct.dispose())
  const base = { base: fixtureEntry('base', { tools: ['b'], pidfileDir: w.pids }) }
  const project = makeProject({ '.dsh/mcp.yml': friendlyYaml(base) }, 'dsh-mcp-bench-reload-')
  const file = project.join('.dsh', 'mcp.yml')
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await w.mcp.whenIdle()
  if (!sees(w.host.ctx, 'mcp__base__b', agent)) throw new Error('the base server is not visible to the agent')

  /** Edit → visible, and the part of it the official client spent mounting (ctx.plugin → tool registered). */
  const viaEdit = async (i: number): Promise<{ total: number; mount: number }> => {
    const name = `e${i}`
    const tool = `mcp__${name}__t`
    const seen = whenTools(w.host.ctx, () => sees(w.host.ctx, tool, agent), `edit ${i}`)
    const started = performance.now()
    writeFileSync(file, friendlyYaml({ ...base, [name]: fixtureEntry(name, { tools: ['t'], pidfileDir: w.pids }) }))
    const at = await seen
    const called = mountCalls.get(name)
    if (called === undefined) throw new Error(`the plugin never forked mcp-client for ${name}`)
    const gone = whenTools(w.host.ctx, () => !sees(w.host.ctx, tool), `removal ${i}`)
    writeFileSync(file, friendlyYaml(base))
    await gone
    await w.mcp.whenIdle()
    return { total: at - started, mount: at - called }
  }
  const viaPlugin = async (i: number): Promise<number> => {
    const name = `d${i}`
    const tool = `mcp__${name}__t`
    const seen = whenTools(direct.ctx, () => sees(direct.ctx, tool), `direct mount ${i}`)
    const started = performance.now()
    const fiber = direct.ctx.plugin(
      mcpClient,
      stdioFixtureConfig({ serverName: name, tools: ['t'], cwd: project.path, pidfileDir: w.pids }),
    )
    const ms = (await seen) - started
    await fiber
    await fiber.dispose()
    return ms
  }

  const ours: number[] = []
  const inPlugin: number[] = []
  const raw: number[] = []
  const overhead: number[] = []
  for (let i = 0; i < WARMUP + EDITS; i++) {
    let a: { total: number; mount: number }
    let b: number
    if (i % 2 === 0) {
      a = await viaEdit(i)
      b = await viaPlugin(i)
    } else {
      b = await viaPlugin(i)
      a = await viaEdit(i)
    }
    if (i < WARMUP) continue
    ours.push(a.total)
    inPlugin.push(a.mount)
    raw.push(b)
    overhead.push(a.total - a.mount - DEBOUNCE_MS)
  }
  // Spawning a Node MCP server varies by ±100 ms on a busy 2-core machine, so ours − direct per
  // edit is dominated by that noise. Per edit, the mount's own time is subtracted instead (the
  // probe on ctx.plugin); the direct mounts, interleaved, show that this mount time is the raw one.
  const p50 = median(overhead)
  const p95 = percentile(overhead, 0.95)
  const mountP50 = median(inPlugin)
  const directP50 = median(raw)
  r.metric({
    metric: `overhead p50 (${EDITS} edits)`,
    ours: fmt(p50, 'ms'),
    baseline: `edit→visible ${fmt(median(ours), 'ms')}; mount ${fmt(mountP50, 'ms')} vs direct ${fmt(directP50, 'ms')}`,
    ratio: `mount/direct ${fmt(mountP50 / directP50)}×`,
    target: '≤ 20 ms',
    met: p50 <= 20,
    raw: { ours, inPluginMount: inPlugin, direct: raw, overhead, debounceMs: DEBOUNCE_MS },
  })
  r.metric({
    metric: `overhead p95 (${EDITS} edits)`,
    ours: fmt(p95, 'ms'),
    baseline: `mount p95 ${fmt(percentile(inPlugin, 0.95), 'ms')} vs direct p95 ${fmt(percentile(raw, 0.95), 'ms')}`,
    ratio: '-',
    target: '≤ 60 ms',
    met: p95 <= 60,
  })
  const coarse = median(ours) - directP50 - DEBOUNCE_MS
  r.metric({
    metric: 'p50(edit→visible) − p50(direct) − debounce',
    ours: fmt(coarse, 'ms'),
    baseline: `${fmt(median(ours), 'ms')} − ${fmt(directP50, 'ms')} − ${DEBOUNCE_MS} ms`,
    ratio: '-',
    // Two independent medians of spawn-dominated times: their difference carries the spawn jitter
    // (±20 ms here), so it is a cross-check of the split above, not the verdict.
    target: '(cross-check)',
    met: null,
  })
})
