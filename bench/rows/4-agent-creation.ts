/**
 * Row 4 — what the plugin adds to agent creation and to `tools/change`.
 *
 * Real hosts side by side in one process, with the plugin and without,
 * holding the same 1,000 foreign MCP tools. Agents are created in project Q
 * on each alternately (the order flips each round); the plugin's cost per
 * agent is median(with) − median(without). Situations:
 *  (a) 1,000 plain tools `mcp__srvN__toolM` registered through ctx.tools
 *      (before the plugin loads) — not ours, so never denied;
 *  (b) a fixture server with 1,000 tools that the plugin mounted for
 *      project F (mounted directly on the other host): every Q agent is
 *      denied all 1,000; the mount itself (ctx.plugin → last tool
 *      registered) is timed too, with vs without the plugin;
 *  (c) the first agent of a brand-new project while 50 projects with 1,000
 *      entries (never spawned, see projects.ts unsetServers) are known.
 * `tools/change`: registering then unregistering one tool in the 1,000-tool
 * server's namespace (each Q agent's deny set changes), timed with 2 and
 * with 12 live agents; with − without, per change and per agent.
 * Target ≤ 2 ms per agent.
 *
 * @module
 */
import { createHost, type TestHost, stdioFixtureConfig, testTool } from '../../test/support/host.ts'
import { reapAll } from '../../test/support/procs.ts'
import { plugin, startWorld } from '../../test/support/runtime.ts'
import { makeProject, makeTempDir } from '../../test/support/tmp.ts'
import { installMountProbe, mountCalls } from '../support/mount-probe.ts'
import { fixtureEntry, friendlyYaml, unsetServers } from '../support/projects.ts'
import type { RowApi } from '../support/report.ts'
import { runRow } from '../support/report.ts'
import { fmt, median } from '../support/stats.ts'
import { sees, whenTools } from '../support/visible.ts'

const ROUNDS = 20
const CHANGES = 20
const TOOLS = Array.from({ length: 1000 }, (_, i) => `t${i}`)

async function createTimed(host: TestHost, cwd: string): Promise<number> {
  const started = performance.now()
  const handle = await host.createAgent({ cwd })
  const ms = performance.now() - started
  await handle.dispose()
  return ms
}

/** Alternate `x()` and `y()` (order flipping each round) after 3 warm-up rounds. */
async function interleave(
  x: () => Promise<number> | number,
  y: () => Promise<number> | number,
  rounds: number,
): Promise<[number[], number[]]> {
  const xs: number[] = []
  const ys: number[] = []
  for (let i = 0; i < rounds + 3; i++) {
    let a: number
    let b: number
    if (i % 2 === 0) {
      a = await x()
      b = await y()
    } else {
      b = await y()
      a = await x()
    }
    if (i < 3) continue
    xs.push(a)
    ys.push(b)
  }
  return [xs, ys]
}

function line(r: RowApi, metric: string, [xs, ys]: [number[], number[]], agents = 1): void {
  const cost = median(xs) - median(ys)
  r.metric({
    metric,
    ours: fmt(cost, 'ms'),
    baseline: `${fmt(median(xs), 'ms')} with vs ${fmt(median(ys), 'ms')} without`,
    ratio: agents === 1 ? `${fmt(median(xs) / median(ys))}×` : `${fmt(cost / agents)} ms per agent`,
    target: '≤ 2 ms per agent',
    met: cost / agents <= 2,
    raw: { withPlugin: xs, without: ys },
  })
}

await runRow('4', 'Agent creation', async (r) => {
  installMountProbe()
  const plainNames = TOOLS.map((_, i) => `mcp__srv${Math.floor(i / 10)}__tool${i % 10}`)

  // (a) on a pair of hosts whose 1,000 plain tools were registered before the plugin loaded
  {
    const home = makeTempDir('dsh-mcp-bench-home-')
    const withP = await createHost({ cwd: home.path })
    const without = await createHost({ cwd: home.path })
    for (const h of [withP, without]) for (const n of plainNames) h.ctx.tools.register(testTool(n))
    const fiber = withP.ctx.plugin(plugin, { dshHome: home.path, cwd: home.path })
    await fiber
    const q = makeProject({}, 'dsh-mcp-bench-q-')
    line(
      r,
      'per agent, 1,000 plain foreign tools',
      await interleave(
        () => createTimed(withP, q.path),
        () => createTimed(without, q.path),
        ROUNDS,
      ),
    )
    await fiber.dispose()
    await withP.dispose()
    await without.dispose()
  }

  const w = await startWorld({})
  r.defer(() => reapAll(w.pids))
  r.defer(() => w.dispose())
  const b = await createHost()
  r.defer(() => b.dispose())
  const a = w.host
  const q = makeProject({}, 'dsh-mcp-bench-q-')
  await a.createAgent({ cwd: q.path })
  await b.createAgent({ cwd: q.path })
  await w.mcp.whenIdle()

  // (b) mount the 1,000-tool server: directly on B first, then through the plugin on A (not concurrently)
  const f = makeProject(
    { '.dsh/mcp.yml': friendlyYaml({ big: fixtureEntry('big', { tools: TOOLS, pidfileDir: w.pids }) }) },
    'dsh-mcp-bench-f-',
  )
  const directSeen = whenTools(b.ctx, () => sees(b.ctx, 'mcp__big__t999'), 'direct 1,000-tool mount', 60_000)
  const directStart = performance.now()
  await b.mountMcp(stdioFixtureConfig({ serverName: 'big', tools: TOOLS, cwd: f.path, pidfileDir: w.pids }), {
    timeoutMs: 60_000,
  })
  const directMs = (await directSeen) - directStart
  const { agent: fAgent } = await a.createAgent({ cwd: f.path })
  const pluginSeen = await whenTools(
    a.ctx,
    () => sees(a.ctx, 'mcp__big__t999', fAgent),
    '1,000-tool mount through the plugin',
    90_000,
  )
  const pluginMs = pluginSeen - mountCalls.get('big')!
  await w.mcp.whenIdle()
  r.metric({
    metric: 'mount a 1,000-tool server: ctx.plugin → last tool',
    ours: fmt(pluginMs, 'ms'),
    baseline: `${fmt(directMs, 'ms')} direct, no plugin`,
    ratio: `${fmt(pluginMs / directMs)}×`,
    target: '(contrast)',
    met: null,
  })
  const probe = await a.createAgent({ cwd: q.path })
  if (sees(a.ctx, 'mcp__big__t0', probe.agent)) throw new Error('a Q agent sees a tool of project F')
  await probe.dispose()
  line(
    r,
    'per agent, 1,000 tools of another project (denied)',
    await interleave(
      () => createTimed(a, q.path),
      () => createTimed(b, q.path),
      ROUNDS,
    ),
  )

  // tools/change with 2, then 12 live agents on each host
  let seq = 0
  const change = (h: TestHost) => () => {
    const started = performance.now()
    const off = h.ctx.tools.register(testTool(`mcp__big__extra${seq++}`))
    off()
    return (performance.now() - started) / 2
  }
  line(r, 'per tools/change, 2 agents', await interleave(change(a), change(b), CHANGES), 2)
  for (let i = 0; i < 10; i++) {
    await a.createAgent({ cwd: q.path })
    await b.createAgent({ cwd: q.path })
  }
  line(r, 'per tools/change, 12 agents', await interleave(change(a), change(b), CHANGES), 12)

  // (c) first agent of a new project while 50 projects / 1,000 entries are known
  const known = Array.from({ length: 50 }, () => makeProject({}, 'dsh-mcp-bench-known-'))
  for (const p of known) await a.createAgent({ cwd: p.path })
  known.forEach((p, i) => {
    p.write('.dsh/mcp.yml', friendlyYaml(unsetServers(20, `p${i}`)))
  })
  await w.mcp.reload()
  await w.mcp.whenIdle()
  const fresh = () => makeProject({}, 'dsh-mcp-bench-new-').path
  line(
    r,
    'first agent of a new project, 50 known',
    await interleave(
      () => createTimed(a, fresh()),
      () => createTimed(b, fresh()),
      8,
    ),
  )
  await w.mcp.whenIdle()
})
