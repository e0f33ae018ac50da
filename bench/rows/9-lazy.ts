/**
 * Row 9 — lazy servers against eager ones, side by side in one run.
 *
 *  (a) Agent start → first model request in a project with 5 stdio fixture
 *      servers: eager (the first step waits for the mounts) vs lazy with a
 *      warm tool cache (nothing starts). Real host, real agent loop, the
 *      in-process stub model; rounds interleaved. Live fixture processes at
 *      the first request are counted. Target: lazy ≤ 0.1× eager, 0 processes.
 *  (b) The first call on a dormant server minus a call on the same server
 *      once mounted, against the raw mount time (`ctx.plugin(mcpClient)` →
 *      activated, on the same host). Target: overhead ≤ 20 ms beyond the raw
 *      mount.
 *  (c) Memory of 20 projects × 3 idle servers: the host's RSS, and the host
 *      plus its server processes, eager (all mounted) vs lazy (all dormant,
 *      cache warmed by the eager side: lifecycle is not in the cache key).
 *      Each side runs in its own child process (`LAZY_RSS_SIDE`) so one heap
 *      cannot colour the other. Target: lazy total ≤ 0.3× eager.
 *
 * @module
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  installStubModel,
  stdioFixtureConfig,
  textResponse,
  userMessage,
  execTool,
  waitFor,
} from '../../test/support/host.ts'
import { livePids, pidfilePids, reapAll } from '../../test/support/procs.ts'
import { friendly } from '../../test/support/runtime.ts'
import { makeProject, makeTempDir, type TempDir } from '../../test/support/tmp.ts'
import { cacheFiles, lazyWorld, waitTools } from '../../test/support/lazy.ts'
import { fixtureEntry } from '../support/projects.ts'
import { runRow } from '../support/report.ts'
import { fmt, median } from '../support/stats.ts'

const ROUNDS = 3
const CALL_ROUNDS = 5
const LONG = 120_000
const MB = 1024 * 1024

function servers(n: number, pids: string, lifecycle: 'eager' | 'lazy', prefix = 's'): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (let i = 0; i < n; i++)
    out[`${prefix}${i}`] = { ...fixtureEntry(`${prefix}${i}`, { tools: ['echo', 'add'], pidfileDir: pids }), lifecycle }
  return out
}

/** Wait until `home` holds `n` cache files (a world that mounts everything records them). */
async function warmAll(home: TempDir, roots: readonly string[], n: number): Promise<void> {
  const w = await lazyWorld(home, { mountTimeoutMs: LONG, idleTimeoutMs: 0 })
  try {
    for (const root of roots) await w.host.createAgent({ cwd: root })
    await waitFor(() => cacheFiles(home).length >= n || undefined, {
      timeoutMs: LONG * 2,
      message: `never cached ${n} servers`,
    })
  } finally {
    await w.dispose()
  }
}

/** ms from agent creation to the first model request, and live fixture processes then. */
async function firstRequest(home: TempDir, root: string, pids: string): Promise<{ ms: number; processes: number }> {
  const w = await lazyWorld(home, { mountTimeoutMs: LONG, firstStepWaitMs: LONG })
  try {
    const stub = installStubModel(w.host.ctx)
    let at = 0
    let processes = -1
    stub.push(() => {
      at = performance.now()
      processes = livePids(pids).length
      return textResponse('ok')
    })
    const started = performance.now()
    const { agent } = await w.host.createAgent({ cwd: root, agentOptions: stub.agentOptions })
    agent.followup(userMessage('hello'))
    await agent.whenIdle()
    return { ms: at - started, processes }
  } finally {
    await w.dispose()
    reapAll(pids)
  }
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** One side of (c), in this (child) process: JSON `{ host, children, processes }` on stdout. */
async function rssSide(side: 'eager' | 'lazy'): Promise<void> {
  const home = { path: process.env.LAZY_HOME! } as TempDir
  const roots = JSON.parse(process.env.LAZY_ROOTS!) as string[]
  const pids = process.env.LAZY_PIDS!
  const w = await lazyWorld(home, { mountTimeoutMs: LONG, idleTimeoutMs: 0, watch: false })
  for (const root of roots) await w.host.createAgent({ cwd: root })
  await w.mcp.whenIdle()
  const want = side === 'eager' ? 'mounted' : 'dormant'
  await waitFor(() => w.mcp.snapshot().projects.every((p) => p.servers.every((s) => s.state === want)) || undefined, {
    timeoutMs: LONG * 2,
    message: `not all ${want}`,
  })
  w.host.logs.length = 0
  for (let i = 0; i < 4; i++) {
    ;(globalThis as { gc?: () => void }).gc?.()
    await new Promise((r) => setTimeout(r, 50))
  }
  const live = livePids(pids)
  const out = {
    host: process.memoryUsage().rss,
    children: live.reduce((n, p) => n + rssOf(p), 0),
    processes: live.length,
  }
  process.stdout.write(`${JSON.stringify(out)}\n`)
  await w.dispose()
  reapAll(pids)
}

if (process.env.LAZY_RSS_SIDE) {
  await rssSide(process.env.LAZY_RSS_SIDE as 'eager' | 'lazy')
  process.exit(0)
}

await runRow('8', 'Lazy servers', async (r) => {
  r.note('machine shared with other jobs (2 cpus, load often > 10): absolute times are inflated, ratios are the signal')
  // (a) agent start → first request, 5 servers.
  const pids = makeTempDir('dsh-mcp-bench-lazy-pids-').path
  const eagerHome = makeTempDir('dsh-mcp-bench-lazy-eager-')
  const lazyHome = makeTempDir('dsh-mcp-bench-lazy-home-')
  const eagerP = makeProject({ '.dsh/mcp.yml': friendly(servers(5, pids, 'eager')) }, 'dsh-mcp-bench-eager-')
  const lazyP = makeProject({ '.dsh/mcp.yml': friendly(servers(5, pids, 'lazy')) }, 'dsh-mcp-bench-lazy-')
  r.defer(() => reapAll(pids))
  await warmAll(lazyHome, [lazyP.path], 5)
  reapAll(pids)
  const eager: number[] = []
  const lazy: number[] = []
  let lazyProcesses = 0
  for (let i = 0; i < ROUNDS + 1; i++) {
    const order = i % 2 === 0 ? ['eager', 'lazy'] : ['lazy', 'eager']
    for (const side of order) {
      const got =
        side === 'eager'
          ? await firstRequest(eagerHome, eagerP.path, pids)
          : await firstRequest(lazyHome, lazyP.path, pids)
      if (i === 0) continue
      if (side === 'eager') eager.push(got.ms)
      else {
        lazy.push(got.ms)
        lazyProcesses = Math.max(lazyProcesses, got.processes)
      }
    }
  }
  const ratio = median(lazy) / median(eager)
  r.metric({
    metric: '(a) agent start → first request, 5 servers',
    ours: `${fmt(median(lazy), 'ms')} lazy (${lazyProcesses} processes)`,
    baseline: `${fmt(median(eager), 'ms')} eager`,
    ratio: `${fmt(ratio)}×`,
    target: '≤ 0.1×, 0 processes',
    met: ratio <= 0.1 && lazyProcesses === 0,
    raw: { lazy, eager, lazyProcesses },
  })

  // (b) first call on a dormant server − a call on a mounted one, vs the raw mount.
  const one = makeProject({ '.dsh/mcp.yml': friendly(servers(1, pids, 'lazy', 'b')) }, 'dsh-mcp-bench-lazy-one-')
  await warmAll(lazyHome, [one.path], 6)
  reapAll(pids)
  const firsts: number[] = []
  const raws: number[] = []
  for (let i = 0; i < CALL_ROUNDS + 1; i++) {
    const w = await lazyWorld(lazyHome, { mountTimeoutMs: LONG })
    try {
      const { agent } = await w.host.createAgent({ cwd: one.path })
      await waitTools(w, agent, ['mcp__b0__add', 'mcp__b0__echo'], 'dormant tools never offered')
      let t = performance.now()
      await execTool(w.host.ctx, agent, 'mcp__b0__echo', { text: 'first' })
      const first = performance.now() - t
      t = performance.now()
      await execTool(w.host.ctx, agent, 'mcp__b0__echo', { text: 'second' })
      const mounted = performance.now() - t
      t = performance.now()
      await w.host.mountMcp(stdioFixtureConfig({ serverName: `raw${i}`, tools: ['echo', 'add'], pidfileDir: pids }), {
        timeoutMs: LONG,
      })
      const raw = performance.now() - t
      if (i === 0) continue
      firsts.push(first - mounted)
      raws.push(raw)
    } finally {
      await w.dispose()
      reapAll(pids)
    }
  }
  const overhead = median(firsts) - median(raws)
  r.metric({
    metric: '(b) first call on a dormant server − a mounted call',
    ours: `${fmt(median(firsts), 'ms')} (${fmt(overhead, 'ms')} beyond the raw mount)`,
    baseline: `${fmt(median(raws), 'ms')} raw mount`,
    ratio: `${fmt(median(firsts) / median(raws))}×`,
    target: '≤ raw mount + 20 ms',
    met: overhead <= 20,
    raw: { firstMinusMounted: firsts, rawMount: raws },
  })

  // (c) memory, 20 projects × 3 idle servers, each side in its own process.
  const memHome = makeTempDir('dsh-mcp-bench-lazy-mem-')
  const roots = Array.from({ length: 20 }, (_, i) => makeProject({}, `dsh-mcp-bench-lazy-mem${i}-`))
  const write = (lifecycle: 'eager' | 'lazy') => {
    for (const [i, p] of roots.entries()) p.write('.dsh/mcp.yml', friendly(servers(3, pids, lifecycle, `m${i}x`)))
  }
  const side = (s: 'eager' | 'lazy') => {
    const out = execFileSync(process.execPath, ['--no-warnings', '--expose-gc', fileURLToPath(import.meta.url)], {
      env: {
        ...process.env,
        LAZY_RSS_SIDE: s,
        LAZY_HOME: memHome.path,
        LAZY_ROOTS: JSON.stringify(roots.map((p) => p.path)),
        LAZY_PIDS: pids,
      },
      encoding: 'utf8',
      timeout: 600_000,
      maxBuffer: 1024 * 1024,
    })
    return JSON.parse(out.trim().split('\n').at(-1)!) as { host: number; children: number; processes: number }
  }
  write('eager')
  const e = side('eager')
  write('lazy')
  const l = side('lazy')
  if (pidfilePids(pids).length) reapAll(pids)
  const total = (x: typeof e) => x.host + x.children
  const memRatio = total(l) / total(e)
  r.metric({
    metric: '(c) RSS, 20 projects × 3 idle servers (host + servers)',
    ours: `${fmt(total(l) / MB, 'MB')} lazy (host ${fmt(l.host / MB, 'MB')}, ${l.processes} processes)`,
    baseline: `${fmt(total(e) / MB, 'MB')} eager (host ${fmt(e.host / MB, 'MB')}, ${e.processes} processes)`,
    ratio: `${fmt(memRatio)}× (host alone ${fmt(l.host / e.host)}×)`,
    target: '≤ 0.3×',
    met: memRatio <= 0.3,
    raw: { eager: e, lazy: l },
  })
})
