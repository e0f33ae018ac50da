/**
 * `npm run bench:peers` — ours beside the real peer CLIs (Claude Code, Codex, Gemini CLI), same
 * real servers, same machine.
 *
 * Installs (once, pinned: test/support/peers.ts) the three peer CLIs and the real servers
 * (`@modelcontextprotocol/server-memory`, `-filesystem`, `-everything`, run as `<absolute node>
 * <entry script>`), writes the same N servers in each CLI's own format and user scope under a
 * private HOME (config.ts), then times, interleaved (every case of every scenario in each round,
 * the order reversed every other round), one warm-up round and `BENCH_PEERS_ROUNDS` (default 9)
 * timed ones, medians:
 * - scenarios N = 1, 5, 10, and N = 5 with one server that never answers `initialize`
 *   (`BENCH_PEERS_SCENARIOS=1,5,10,hang` selects);
 * - per scenario: `dsh-mcp list`, `dsh-mcp list --check`, `dsh-mcp doctor`, `claude mcp list`
 *   (checks health), `gemini mcp list` (checks health), `codex mcp list` (no check), and the floor
 *   (floor.mjs: N raw spawns, a minimal SDK client each, initialize + tools/list in parallel);
 * - bare start-up: each CLI's `--version` and `node -e 0`.
 * Each run's output is checked (how many servers each reports connected) and a mismatch noted.
 * Prints one markdown table of medians and the goal rows (ratios ours/peer), and writes
 * `bench/peers-results.json`. When the registry cannot be reached it prints why and exits 0.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  ensurePeers,
  ensureRealServers,
  PEER_VERSIONS,
  type PeerBins,
  peerEnv,
  REAL_SERVER_VERSIONS,
  type RealServers,
} from '../../test/support/peers.ts'
import { NODE22 } from '../../test/support/dsh-cli.ts'
import { makeTempDir } from '../../test/support/tmp.ts'
import { snapshotCli, type Timed, timeRun } from '../support/proc.ts'
import { fmt, median, ratio } from '../support/stats.ts'
import { realServers, writeHome } from './config.ts'

const ROUNDS = Number(process.env.BENCH_PEERS_ROUNDS ?? 9)
const SCENARIOS = (process.env.BENCH_PEERS_SCENARIOS ?? '1,5,10,hang').split(',')
/** Only these cases (e.g. `check,floor`); all when unset. `--version` runs with the full set only. */
const ONLY = process.env.BENCH_PEERS_CASES?.split(',')
const FLOOR = fileURLToPath(new URL('./floor.mjs', import.meta.url))
const OUT = fileURLToPath(new URL('../peers-results.json', import.meta.url))
/** Our probe timeout (doctor's default) — also the floor's. */
const TIMEOUT_MS = 10_000

const installedPeers = await ensurePeers()
const installedServers = await ensureRealServers()
if ('skip' in installedPeers || 'skip' in installedServers) {
  const why = 'skip' in installedPeers ? installedPeers.skip : (installedServers as { skip: string }).skip
  console.log(`bench:peers skipped: ${why}`)
  process.exit(0)
}
const peers = installedPeers as PeerBins
const scripts = installedServers as RealServers
const node = NODE22
const bin = snapshotCli()

type CaseName = 'list' | 'check' | 'doctor' | 'claude' | 'gemini' | 'codex' | 'floor' | 'floor-setsid'
interface Case {
  scenario: string
  name: CaseName | string
  run: () => Timed
  /** How many servers the run reports connected (undefined: not a health check). */
  connected?: (t: Timed) => number
  expect?: number
}

/** Matches in stdout and stderr (Gemini CLI writes its list to stderr). */
const count = (re: RegExp) => (t: Timed) => (`${t.stdout}\n${t.stderr}`.match(re) ?? []).length
const jsonOk = (pick: (row: Record<string, unknown>) => unknown) => (t: Timed) => {
  try {
    return (JSON.parse(t.stdout) as Record<string, unknown>[]).filter((r) => pick(r) === 'ok').length
  } catch {
    return -1
  }
}

function scenarioCases(label: string): Case[] {
  const hang = label === 'hang'
  const n = hang ? 5 : Number(label)
  const home = makeTempDir(`dsh-mcp-peers-${label}-`).path
  const cwd = path.join(home, 'work')
  const data = path.join(home, 'data')
  mkdirSync(data, { recursive: true })
  const floor = writeHome(home, realServers(n, node, scripts, data, hang), cwd)
  const env = peerEnv(home)
  const opts = { env, cwd, timeoutMs: 120_000 }
  const expect = hang ? n - 1 : n
  const ours = (args: string[]) => () => timeRun(node, [bin, ...args], opts)
  return [
    { scenario: label, name: 'list', run: ours(['list']) },
    {
      scenario: label,
      name: 'check',
      run: ours(['list', '--check', '--json']),
      connected: jsonOk((r) => (r.check as { state?: string } | undefined)?.state),
      expect,
    },
    { scenario: label, name: 'doctor', run: ours(['doctor', '--json']), connected: jsonOk((r) => r.state), expect },
    {
      scenario: label,
      name: 'claude',
      run: () => timeRun(peers.claude, ['mcp', 'list'], opts),
      connected: count(/Connected/g),
      expect,
    },
    {
      scenario: label,
      name: 'gemini',
      run: () => timeRun(peers.gemini, ['mcp', 'list'], opts),
      connected: count(/- Connected/g),
      expect,
    },
    { scenario: label, name: 'codex', run: () => timeRun(peers.codex, ['mcp', 'list'], opts) },
    {
      scenario: label,
      name: 'floor',
      run: () => timeRun(node, [FLOOR, floor, String(TIMEOUT_MS)], opts),
      connected: count(/ ok /g),
      expect,
    },
    {
      scenario: label,
      name: 'floor-setsid',
      run: () => timeRun(node, [FLOOR, floor, String(TIMEOUT_MS), 'setsid'], opts),
      connected: count(/ ok /g),
      expect,
    },
  ]
}

function versionCases(): Case[] {
  const home = makeTempDir('dsh-mcp-peers-version-').path
  const opts = { env: peerEnv(home), cwd: home }
  return [
    { scenario: 'version', name: 'dsh-mcp', run: () => timeRun(node, [bin, '--version'], opts) },
    { scenario: 'version', name: 'claude', run: () => timeRun(peers.claude, ['--version'], opts) },
    { scenario: 'version', name: 'gemini', run: () => timeRun(peers.gemini, ['--version'], opts) },
    { scenario: 'version', name: 'codex', run: () => timeRun(peers.codex, ['--version'], opts) },
    { scenario: 'version', name: 'node -e 0', run: () => timeRun(node, ['-e', '0'], opts) },
  ]
}

const cases = ONLY
  ? SCENARIOS.flatMap(scenarioCases).filter((c) => ONLY.includes(c.name))
  : [...SCENARIOS.flatMap(scenarioCases), ...versionCases()]
const times = new Map<Case, number[]>(cases.map((c) => [c, []]))
const notes: string[] = []
for (let round = -1; round < ROUNDS; round++) {
  for (const c of round % 2 === 0 ? [...cases].reverse() : cases) {
    const t = c.run()
    if (c.connected && c.expect !== undefined) {
      const got = c.connected(t)
      if (got !== c.expect)
        notes.push(`round ${round}: ${c.scenario} ${c.name}: ${got} of ${c.expect} connected (exit ${t.code})`)
    }
    if (round >= 0) times.get(c)?.push(t.ms)
  }
  console.error(`bench:peers: round ${round + 1}/${ROUNDS} done`)
}

const p50 = (scenario: string, name: string) => {
  const c = cases.find((x) => x.scenario === scenario && x.name === name)
  return c ? median(times.get(c) ?? []) : Number.NaN
}
const s = (ms: number) => fmt(ms / 1000, 's')
const lines: string[] = []
lines.push(
  `Peers: ${Object.values(PEER_VERSIONS)
    .map((p) => `${p.pkg}@${p.version}`)
    .join(', ')}`,
)
lines.push(
  `Servers: ${Object.values(REAL_SERVER_VERSIONS)
    .map((p) => `${p.pkg}@${p.version}`)
    .join(', ')}`,
)
lines.push(`Node ${process.version}, ${ROUNDS} interleaved rounds (medians), one warm-up round`)
lines.push('')
lines.push(
  '| servers | `dsh-mcp list --check` | `dsh-mcp doctor` | `claude mcp list` | `gemini mcp list` | floor (raw SDK) | floor, own sessions | `codex mcp list` (no check) | `dsh-mcp list` (no check) |',
)
lines.push('|---|---|---|---|---|---|---|---|---|')
for (const sc of SCENARIOS) {
  const label = sc === 'hang' ? '5, one never answers' : sc
  const cols = ['check', 'doctor', 'claude', 'gemini', 'floor', 'floor-setsid', 'codex', 'list'].map((k) =>
    s(p50(sc, k)),
  )
  lines.push(`| ${label} | ${cols.join(' | ')} |`)
}
lines.push('')
lines.push('| `--version` | dsh-mcp | claude | gemini | codex | `node -e 0` |')
lines.push('|---|---|---|---|---|---|')
lines.push(
  `| p50 | ${['dsh-mcp', 'claude', 'gemini', 'codex', 'node -e 0'].map((k) => s(p50('version', k))).join(' | ')} |`,
)
lines.push('')
lines.push('| goal | measured | met? |')
lines.push('|---|---|---|')
const goal = (what: string, value: number, target: number) =>
  lines.push(
    `| ${what} ≤ ${target}× | ${fmt(value)}× | ${Number.isFinite(value) ? (value <= target ? 'yes' : 'NO') : '?'} |`,
  )
for (const sc of SCENARIOS.filter((x) => x === '5' || x === '10')) {
  goal(`list --check, N=${sc}, over claude mcp list`, ratio(p50(sc, 'check'), p50(sc, 'claude')), 0.6)
  goal(`list --check, N=${sc}, over the raw floor`, ratio(p50(sc, 'check'), p50(sc, 'floor')), 1.2)
  goal(`list --check, N=${sc}, over the floor in own sessions`, ratio(p50(sc, 'check'), p50(sc, 'floor-setsid')), 1.2)
}
if (SCENARIOS.includes('hang') && SCENARIOS.includes('5')) {
  const extra = p50('hang', 'check') - p50('5', 'check')
  goal('a hanging server: (check with it − check without) over its timeout', ratio(extra, TIMEOUT_MS), 1.0)
}
for (const sc of SCENARIOS)
  goal(
    `plain list, N=${sc === 'hang' ? '5+hang' : sc}, over codex mcp list`,
    ratio(p50(sc, 'list'), p50(sc, 'codex')),
    1.0,
  )
goal('--version over codex --version', ratio(p50('version', 'dsh-mcp'), p50('version', 'codex')), 1.0)
if (notes.length) lines.push('', 'Notes:', ...notes.map((n) => `- ${n}`))
console.log(lines.join('\n'))
writeFileSync(
  OUT,
  `${JSON.stringify({ when: new Date().toISOString(), rounds: ROUNDS, table: lines, raw: cases.map((c) => ({ scenario: c.scenario, name: c.name, ms: times.get(c) })) }, null, 2)}\n`,
)
process.exit(0)
