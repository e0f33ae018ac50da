/**
 * Row 6 — CLI speed.
 *
 * (a) `dsh-mcp list` over a project of 20 servers vs `node -e 0`, both on the
 *     CLI's target Node (the system Node 20 when there is one), interleaved
 *     (the order alternates each round), medians. Target ≤ 2.0×.
 * (b) `dsh-mcp doctor` over 8 fixture servers that each wait 300 ms before
 *     answering initialize, vs each server alone (`doctor <name>`); the
 *     ratio is all-at-once over the slowest single server (target ≤ 1.3×),
 *     and the serial sum is the contrast (what a one-after-another check costs).
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { makeProject } from '../../test/support/tmp.ts'
import { cliNode, type Timed, timeRun } from '../support/proc.ts'
import { fixtureEntry, friendlyYaml, isolatedEnv, plainServers } from '../support/projects.ts'
import { runRow } from '../support/report.ts'
import { fmt, median, ratio, sum } from '../support/stats.ts'

const BIN = fileURLToPath(new URL('../../bin/dsh-mcp.js', import.meta.url))
const DOCTOR_BUILT = fileURLToPath(new URL('../../lib/cli/commands/doctor.js', import.meta.url))
const LIST_ROUNDS = 21
const DOCTOR_ROUNDS = 3
const DOCTOR_SERVERS = 8
const INIT_DELAY_MS = 300

function check(t: Timed, what: string): Timed {
  if (t.code !== 0) throw new Error(`${what} exited ${t.code}: ${t.stderr.trim().split('\n')[0] ?? ''}`)
  return t
}

await runRow('6', 'CLI', async (r) => {
  const node = cliNode()
  r.note(`CLI node: ${node.path} ${node.version} (${node.system ? 'system' : 'no system node found: the bench node'})`)
  const { env, dshHome } = isolatedEnv()

  // (a) list vs node -e 0
  const project = makeProject({ '.dsh/mcp.yml': friendlyYaml(plainServers(20)) })
  const list = () => check(timeRun(node.path, [BIN, 'list', '-C', project.path], { env }), 'dsh-mcp list')
  const bare = () => check(timeRun(node.path, ['-e', '0'], { env }), 'node -e 0')
  const rows = list().stdout.trim().split('\n').length - 1
  if (rows !== 20) throw new Error(`dsh-mcp list printed ${rows} rows, expected 20`)
  for (let i = 0; i < 3; i++) {
    list()
    bare()
  }
  const listMs: number[] = []
  const bareMs: number[] = []
  for (let i = 0; i < LIST_ROUNDS; i++) {
    if (i % 2 === 0) {
      listMs.push(list().ms)
      bareMs.push(bare().ms)
    } else {
      bareMs.push(bare().ms)
      listMs.push(list().ms)
    }
  }
  const listP50 = median(listMs)
  const bareP50 = median(bareMs)
  const listRatio = ratio(listP50, bareP50)
  r.metric({
    metric: `list, 20 servers (node ${node.version}) p50`,
    ours: fmt(listP50, 'ms'),
    baseline: `${fmt(bareP50, 'ms')} node -e 0`,
    ratio: `${fmt(listRatio)}×`,
    target: '≤ 2.0×',
    met: Number.isFinite(listRatio) ? listRatio <= 2.0 : null,
    raw: { listMs, bareMs, node },
  })

  // (b) doctor, 8 slow servers at once vs one at a time
  if (!existsSync(DOCTOR_BUILT)) {
    r.metric({ metric: 'doctor, 8 × 300 ms servers', ours: 'n/a', baseline: '-', ratio: '-', target: '≤ 1.3× slowest single', met: null })
    r.note('doctor is not built yet (lib/cli/commands/doctor.js missing)')
    return
  }
  const names = Array.from({ length: DOCTOR_SERVERS }, (_, i) => `slow${i}`)
  const servers = Object.fromEntries(names.map((n) => [n, fixtureEntry(n, { tools: ['echo', 'add'], initDelayMs: INIT_DELAY_MS })]))
  const slow = makeProject({ '.dsh/mcp.yml': friendlyYaml(servers) })
  check(timeRun(node.path, [BIN, 'trust', '--all', '--yes', '-C', slow.path], { env }), 'dsh-mcp trust --all')
  const doctor = (only: string[]) => {
    const t = check(timeRun(node.path, [BIN, 'doctor', '--json', '-C', slow.path, ...only], { env, timeoutMs: 30_000 }), 'dsh-mcp doctor')
    const report = JSON.parse(t.stdout) as { name: string; state: string }[]
    const bad = report.filter((s) => s.state !== 'ok')
    if (bad.length > 0 || report.length !== (only.length || DOCTOR_SERVERS)) throw new Error(`doctor: ${JSON.stringify(report.map((s) => [s.name, s.state]))}`)
    return t.ms
  }
  doctor([names[0]!])
  const allMs: number[] = []
  const singleMs: number[][] = names.map(() => [])
  for (let round = 0; round < DOCTOR_ROUNDS; round++) {
    allMs.push(doctor([]))
    names.forEach((n, i) => {
      singleMs[i]!.push(doctor([n]))
    })
  }
  const allP50 = median(allMs)
  const singles = singleMs.map(median)
  const slowest = Math.max(...singles)
  const serial = sum(singles)
  const doctorRatio = ratio(allP50, slowest)
  r.metric({
    metric: `doctor, ${DOCTOR_SERVERS} × ${INIT_DELAY_MS} ms servers p50`,
    ours: fmt(allP50, 'ms'),
    baseline: `${fmt(slowest, 'ms')} slowest single; serial sum ${fmt(serial, 'ms')}`,
    ratio: `${fmt(doctorRatio)}× (serial ${fmt(ratio(serial, allP50))}× ours)`,
    target: '≤ 1.3× slowest single',
    met: Number.isFinite(doctorRatio) ? doctorRatio <= 1.3 : null,
    raw: { allMs, singleMs, slowest, serial, dshHome },
  })
})
