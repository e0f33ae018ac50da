/**
 * Row 12 — the resident memory of a host with 20 projects × 3 eager stdio servers: the plugin vs the raw
 * official client mounting the same 60 servers (goal ≤ 1.1×).
 *
 * Each side is a real host in a process of its own (bench/support/scale-host.ts), started one after the
 * other, the order flipped every round; once every server is mounted, the row sums VmRSS (/proc) of the
 * host and of every process below it (the servers, and with the plugin its one watchdog), then stops it.
 * The servers are the minimal stdio server (bench/support/slow-server.mjs): the smaller the servers, the
 * more any per-server overhead shows. Medians of `ROUNDS` rounds per side. Linux.
 *
 * @module
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { makeTempDir } from '../../test/support/tmp.ts'
import { runRow } from '../support/report.ts'
import { fmt, median } from '../support/stats.ts'

const ROUNDS = 3
const PROJECTS = 20
const PER = 3
const MB = 1024 * 1024

function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : 0
  } catch {
    return 0
  }
}

function tree(pid: number): number[] {
  let kids: number[] = []
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    // gone
  }
  return [pid, ...kids.flatMap(tree)]
}

interface Side {
  total: number
  host: number
  processes: number
  mounted: number
}

async function measure(mode: 'plugin' | 'raw'): Promise<Side> {
  const dir = makeTempDir(`dsh-mcp-bench-scale-${mode}-`)
  const script = fileURLToPath(new URL('../support/scale-host.ts', import.meta.url))
  const child = spawn(process.execPath, ['--no-warnings', script, mode, dir.path, String(PROJECTS), String(PER)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.setEncoding('utf8')
  const ready = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (c: string) => {
      out += c
      const m = /READY (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`${mode} host exited (${code}) before it was ready`)))
  })
  const mounted = await ready
  // Let start-up garbage settle the same way on both sides.
  await new Promise((r) => setTimeout(r, 2000))
  const pids = tree(child.pid as number)
  const side = {
    total: pids.reduce((a, p) => a + rss(p), 0),
    host: rss(child.pid as number),
    processes: pids.length,
    mounted,
  }
  const exited = new Promise((r) => child.once('exit', r))
  child.stdin.write('stop\n')
  await exited
  return side
}

await runRow('12', 'Host memory at scale', async (r) => {
  const sides: Record<'plugin' | 'raw', Side[]> = { plugin: [], raw: [] }
  for (let i = 0; i < ROUNDS; i++)
    for (const mode of i % 2 === 0 ? (['raw', 'plugin'] as const) : (['plugin', 'raw'] as const))
      sides[mode].push(await measure(mode))
  const total = (m: 'plugin' | 'raw') => median(sides[m].map((s) => s.total))
  const host = (m: 'plugin' | 'raw') => median(sides[m].map((s) => s.host))
  const ratio = total('plugin') / total('raw')
  r.metric({
    metric: `RSS, ${PROJECTS} projects × ${PER} eager stdio servers (host + every process below) p50`,
    ours: fmt(total('plugin') / MB, 'MB'),
    baseline: `${fmt(total('raw') / MB, 'MB')} raw official client, same servers`,
    ratio: `${fmt(ratio)}×`,
    target: '≤ 1.1×',
    met: Number.isFinite(ratio) ? ratio <= 1.1 : null,
    raw: sides,
  })
  r.metric({
    metric: '  of which the host process itself p50',
    ours: fmt(host('plugin') / MB, 'MB'),
    baseline: `${fmt(host('raw') / MB, 'MB')} raw`,
    ratio: `${fmt(host('plugin') / host('raw'))}×`,
    target: '(contrast)',
    met: null,
  })
  r.note(
    `[12] processes: plugin ${sides.plugin.map((s) => s.processes).join('/')} (servers + host + watchdog), raw ${sides.raw.map((s) => s.processes).join('/')}; mounted: plugin ${sides.plugin.map((s) => s.mounted).join('/')}, raw ${sides.raw.map((s) => s.mounted).join('/')}`,
  )
})
