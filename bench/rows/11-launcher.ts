/**
 * Row 11 — the launcher's cost, per stdio server, and one probe's phases.
 *
 * (a) Host: the same server (the real `@modelcontextprotocol/server-memory` when the peers cache
 *     has it — test/support/peers.ts — else the SDK stdio fixture) connected with the MCP SDK's
 *     stdio client directly vs through our launcher (src/launch/launcher.ts, the config
 *     `launch/spec.ts` `launchedConfig` gives the host), interleaved rounds, medians:
 *     extra start latency = (spawn → initialize answered) through the launcher − direct
 *     (target ≤ 10 ms); extra RSS = the launcher process's own resident set (VmRSS, /proc) while
 *     its server runs (target ≤ 5 MB). Linux.
 * (b) Doctor's probe, phase by phase (the probe's own transport, launch/group-transport.ts: no launcher):
 *     spawn (until the `spawn` event), initialize, tools/list, close (until nothing of the
 *     tree is left); the launcher's share of a probe before this release is (a)'s latency.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { GroupStdioTransport } from '../../src/launch/group-transport.ts'
import { launchedConfig, type StdioConfig } from '../../src/launch/spec.ts'
import { newTreeMarker } from '../../src/launch/tree.ts'
import { stdioFixtureArgs } from '../../test/support/fixture-config.ts'
import { ensureRealServers } from '../../test/support/peers.ts'
import { makeTempDir } from '../../test/support/tmp.ts'
import { runRow } from '../support/report.ts'
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

/** The launcher's child (the server) — the one process whose parent is `pid`. */
function childOf(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || undefined
  } catch {
    return undefined
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
  // The built launcher the host runs (lib/), not its .ts source (type stripping would inflate it).
  const built = fileURLToPath(new URL('../../lib/launch/launcher.js', import.meta.url))
  if (!existsSync(built)) throw new Error('lib/launch/launcher.js is missing: npm run build first')
  const via = launchedConfig(
    server,
    { secrets: [], forward: true },
    { node: process.execPath, script: built },
    newTreeMarker(),
  )

  async function connect(c: StdioConfig): Promise<{ ms: number; launcherRss: number; serverRss: number }> {
    const t = new StdioClientTransport({
      command: c.command,
      args: c.args ?? [],
      env: { PATH: process.env.PATH ?? '', ...(c.env ?? {}) },
      stderr: 'ignore',
    })
    const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} })
    const started = performance.now()
    await client.connect(t)
    const ms = performance.now() - started
    const pid = t.pid ?? undefined
    const viaLauncher = c.command === via.command && c.args?.[0] === via.args?.[0]
    const launcherRss = viaLauncher ? rss(pid) : 0
    const serverRss = rss(viaLauncher && pid ? childOf(pid) : pid)
    await client.close()
    return { ms, launcherRss, serverRss }
  }

  const direct: number[] = []
  const launched: number[] = []
  const launcherRss: number[] = []
  const serverRss: number[] = []
  await connect(server)
  await connect(via)
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 === 0 ? ['direct', 'via'] : ['via', 'direct']
    for (const o of order) {
      const m = await connect(o === 'direct' ? server : via)
      if (o === 'direct') direct.push(m.ms)
      else {
        launched.push(m.ms)
        launcherRss.push(m.launcherRss)
        serverRss.push(m.serverRss)
      }
    }
  }
  const extraMs = median(launched) - median(direct)
  r.metric({
    metric: 'host: extra start latency per stdio server (launcher − direct, to initialize) p50',
    ours: fmt(extraMs, 'ms'),
    baseline: `${fmt(median(direct), 'ms')} direct; ${fmt(median(launched), 'ms')} via launcher`,
    ratio: '-',
    target: '≤ 10 ms',
    met: Number.isFinite(extraMs) ? extraMs <= 10 : null,
    raw: { direct, launched },
  })
  const extraRss = median(launcherRss) / MB
  r.metric({
    metric: 'host: extra RSS per stdio server (the launcher process) p50',
    ours: fmt(extraRss, 'MB'),
    baseline: `${fmt(median(serverRss) / MB, 'MB')} the server itself`,
    ratio: '-',
    target: '≤ 5 MB',
    met: Number.isFinite(extraRss) ? extraRss <= 5 : null,
    raw: { launcherRss, serverRss },
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
    baseline: `launcher (before): +${fmt(extraMs, 'ms')} before initialize`,
    ratio: '-',
    target: '(profile)',
    met: null,
    raw: phases,
  })
})
