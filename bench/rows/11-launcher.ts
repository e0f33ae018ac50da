/**
 * Row 11 — what starting a stdio server costs the host, per server, and one probe's phases.
 *
 * (a) Host: the same server (the real `@modelcontextprotocol/server-memory` when the peers cache
 *     has it — test/support/peers.ts — else the SDK stdio fixture) connected with the MCP SDK's
 *     stdio client three ways, interleaved rounds (the order rotates), medians: directly (the plain
 *     config); ours — the launcher-shaped config the host hands the official client, started in this
 *     process by the hook on the SDK's transport (host/stdio-hook.ts); and, for contrast, the launcher
 *     process the host used before (lib/launch/launcher.js). Extra start latency = (connect →
 *     initialize answered) − direct (target ≤ 10 ms); extra RSS = the VmRSS of every process the
 *     start brought beside the server itself (/proc; target ≤ 5 MB); the host's one watchdog
 *     (host/watchdog.ts) is noted apart (one per host, not per server); and the host's heap with 10
 *     servers held through ours vs directly (`--expose-gc`). Linux.
 * (b) Doctor's probe, phase by phase (the probe's own transport, launch/group-transport.ts):
 *     spawn (until the `spawn` event), initialize, tools/list, close (until nothing of the
 *     tree is left).
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { GroupStdioTransport } from '../../src/launch/group-transport.ts'
import { installStdioHook } from '../../src/host/stdio-hook.ts'
import { watchdog } from '../../src/host/watchdog.ts'
import { launchedConfig, type StdioConfig } from '../../src/launch/spec.ts'
import { launcher } from '../../src/launch/where.ts'
import { newTreeMarker } from '../../src/launch/tree.ts'
import { stdioFixtureArgs } from '../../test/support/fixture-config.ts'
import { ensureRealServers } from '../../test/support/peers.ts'
import { makeTempDir } from '../../test/support/tmp.ts'
import { runRow } from '../support/report.ts'
import { settledHeap } from '../support/heap.ts'
import { fmt, median } from '../support/stats.ts'

const ROUNDS = 9
const MB = 1024 * 1024

/** VmRSS of a process in bytes (Linux), NaN when unreadable. */
function rss(pid: number | null | undefined): number {
  if (!pid) return Number.NaN
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : Number.NaN
  } catch {
    return Number.NaN
  }
}

await runRow('11', 'Launcher cost', async (r) => {
  const servers = await ensureRealServers()
  const data = makeTempDir('dsh-mcp-bench-launcher-')
  const server: StdioConfig =
    'skip' in servers
      ? { transport: 'stdio', serverName: 'fixture', command: process.execPath, args: stdioFixtureArgs({ name: 'f' }) }
      : {
          transport: 'stdio',
          serverName: 'memory',
          command: process.execPath,
          args: [servers.memory],
          env: { MEMORY_FILE_PATH: path.join(data.path, 'memory.json') },
        }
  r.note(`server: ${'skip' in servers ? `the SDK fixture (${servers.skip})` : '@modelcontextprotocol/server-memory'}`)
  // Ours: the host's path — the launcher-shaped config the host hands the client, started in this process by
  // the hook on the SDK's transport (host/stdio-hook.ts). Contrast: the launcher process (lib/launch/launcher.js,
  // not the script the hook recognises, so the SDK really spawns it) — the path before this release.
  const hook = await installStdioHook()
  if (!hook.installed) throw new Error(`the stdio hook is not installed: ${hook.why}`)
  const built = fileURLToPath(new URL('../../lib/launch/launcher.js', import.meta.url))
  if (!existsSync(built)) throw new Error('lib/launch/launcher.js is missing: npm run build first')
  const spec = { secrets: [], forward: false, log: path.join(data.path, 'logs', 'memory.log') }
  const variants = {
    direct: () => server,
    ours: () => launchedConfig(server, spec, launcher(), newTreeMarker()),
    launcher: () => launchedConfig(server, spec, { node: process.execPath, script: built }, newTreeMarker()),
  }
  type Variant = keyof typeof variants

  /** Every process below this one (the servers, their launchers, the host's watchdog). */
  function descendants(): number[] {
    const out: number[] = []
    const walk = (pid: number) => {
      let kids: number[] = []
      try {
        kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
      } catch {
        // gone
      }
      for (const k of kids) {
        out.push(k)
        walk(k)
      }
    }
    walk(process.pid)
    return out
  }

  async function connect(
    v: Variant,
  ): Promise<{ ms: number; extraRss: number; serverRss: number; close(): Promise<void> }> {
    const c = variants[v]()
    const t = new StdioClientTransport({
      command: c.command,
      args: c.args ?? [],
      env: { PATH: process.env.PATH ?? '', ...(c.env ?? {}) },
      ...(c.cwd ? { cwd: c.cwd } : {}),
      stderr: 'ignore',
    })
    const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} })
    const before = new Set(descendants())
    const started = performance.now()
    await client.connect(t)
    const ms = performance.now() - started
    const mine = descendants().filter((p) => !before.has(p) && p !== watchdog().pid)
    const rsses = mine.map(rss)
    // The server is the biggest new process; whatever else this server brought along is extra.
    const serverRss = Math.max(...rsses)
    const extraRss = rsses.reduce((a, b) => a + b, 0) - serverRss
    return { ms, extraRss, serverRss, close: () => client.close() }
  }

  const ms: Record<Variant, number[]> = { direct: [], ours: [], launcher: [] }
  const extra: Record<Variant, number[]> = { direct: [], ours: [], launcher: [] }
  const serverRss: number[] = []
  for (const v of ['direct', 'ours', 'launcher'] as const) await (await connect(v)).close()
  const orders: Variant[][] = [
    ['direct', 'ours', 'launcher'],
    ['launcher', 'ours', 'direct'],
    ['ours', 'direct', 'launcher'],
  ]
  for (let i = 0; i < ROUNDS; i++) {
    for (const v of orders[i % orders.length]!) {
      const m = await connect(v)
      ms[v].push(m.ms)
      extra[v].push(m.extraRss)
      if (v === 'direct') serverRss.push(m.serverRss)
      await m.close()
    }
  }
  const extraMs = median(ms.ours) - median(ms.direct)
  const launcherMs = median(ms.launcher) - median(ms.direct)
  r.metric({
    metric: 'host: extra start latency per stdio server (ours − direct, to initialize) p50',
    ours: fmt(extraMs, 'ms'),
    baseline: `${fmt(median(ms.direct), 'ms')} direct; launcher process (before): +${fmt(launcherMs, 'ms')}`,
    ratio: '-',
    target: '≤ 10 ms',
    met: Number.isFinite(extraMs) ? extraMs <= 10 : null,
    raw: ms,
  })
  const dogRss = rss(watchdog().pid)
  const extraRss = median(extra.ours) / MB
  r.metric({
    metric: 'host: extra RSS per stdio server (processes beside the server) p50',
    ours: fmt(extraRss, 'MB'),
    baseline: `launcher process (before): ${fmt(median(extra.launcher) / MB, 'MB')}; server ${fmt(median(serverRss) / MB, 'MB')}`,
    ratio: '-',
    target: '≤ 5 MB',
    met: Number.isFinite(extraRss) ? extraRss <= 5 : null,
    raw: { extra, serverRss },
  })
  r.note(`[11] one watchdog per host, not per server: ${fmt(dogRss / MB, 'MB')} RSS (host/watchdog.ts)`)

  // In-process cost per server: the host's heap with 10 servers held through our path vs directly.
  const heldHeap = async (v: Variant) => {
    const held = []
    for (let i = 0; i < 10; i++) held.push(await connect(v))
    const heap = await settledHeap()
    for (const h of held) await h.close()
    return heap
  }
  const heaps: Record<'direct' | 'ours', number[]> = { direct: [], ours: [] }
  for (let i = 0; i < 3; i++)
    for (const v of i % 2 === 0 ? (['direct', 'ours'] as const) : (['ours', 'direct'] as const))
      heaps[v].push(await heldHeap(v))
  const perServer = (median(heaps.ours) - median(heaps.direct)) / 10 / 1024
  r.metric({
    metric: 'host: extra heap per stdio server held (ours − direct, 10 held) p50',
    ours: fmt(perServer, 'KB'),
    baseline: `${fmt(median(heaps.direct) / MB, 'MB')} heap with 10 direct`,
    ratio: '-',
    target: '(contrast)',
    met: null,
    raw: heaps,
  })

  // (b) one probe, phase by phase, on doctor's own transport
  const phases = { spawn: [] as number[], initialize: [] as number[], list: [] as number[], close: [] as number[] }
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now()
    let spawned = t0
    const t = new GroupStdioTransport({
      file: server.command,
      argv0: server.command,
      args: server.args ?? [],
      env: { PATH: process.env.PATH ?? '', ...(server.env ?? {}) },
      marker: newTreeMarker(),
      secrets: [],
      onStderrLine: () => {},
      onSpawn: () => {
        spawned = performance.now()
      },
    })
    const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} })
    await client.connect(t)
    const t1 = performance.now()
    await client.listTools()
    const t2 = performance.now()
    await t.end(1000)
    await client.close()
    const t3 = performance.now()
    phases.spawn.push(spawned - t0)
    phases.initialize.push(t1 - spawned)
    phases.list.push(t2 - t1)
    phases.close.push(t3 - t2)
  }
  r.metric({
    metric: 'doctor probe phases p50: spawn / initialize / tools/list / close',
    ours: ['spawn', 'initialize', 'list', 'close']
      .map((k) => fmt(median(phases[k as keyof typeof phases]), 'ms'))
      .join(' / '),
    baseline: `launcher process (before): +${fmt(launcherMs, 'ms')} before initialize`,
    ratio: '-',
    target: '(profile)',
    met: null,
    raw: phases,
  })
})
