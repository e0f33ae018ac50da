/**
 * Issue 12 class 7 — hostile `tools` globs from a repository file. Patterns
 * that are catastrophic for a backtracking regular expression (`*a*a…b`,
 * the extglob `+(a|aa)+`, nested stars in braces) run through the linear
 * matcher without stalling the event loop (measured with
 * `perf_hooks.monitorEventLoopDelay`, generous bound); very long patterns and
 * brace explosions are refused by the schema with `file:line:col`, and the
 * row is invalid (never mounted, the exclude never silently dropped). On a
 * real host a hostile filter mounts its server with the right tools while the
 * loop keeps turning.
 */
import assert from 'node:assert/strict'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, test } from 'node:test'
import { compileGlob, globProblem, MAX_ALTERNATIVES, MAX_GLOB_LENGTH } from '../../src/config/glob.ts'
import { admits } from '../../src/plan/filter.ts'
import { runCli } from '../support/cli.ts'
import { mcpToolNames } from '../support/host.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { friendly, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

/** Run `work` and return the largest event-loop delay seen, in ms. */
async function stallOf(work: () => void): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 })
  h.enable()
  await sleep(20)
  work()
  await sleep(50)
  h.disable()
  return h.max / 1e6
}

// Catastrophic for a backtracking regex, all within the length bound.
const HOSTILE = [
  `${'*a'.repeat(120)}b`,
  '+(a|aa)+b',
  `${'{*a,*a*}'.repeat(3)}b`,
  `${'?*'.repeat(100)}!`,
  `*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*0`,
]
const NAMES = ['a'.repeat(5000), `${'a'.repeat(4999)}c`, 'ab'.repeat(2500), 'x']

test('catastrophic patterns match in linear time: the event loop never stalls', async () => {
  for (const g of HOSTILE) assert.equal(globProblem(g), undefined, `${g.slice(0, 40)} is accepted`)
  const stall = await stallOf(() => {
    for (const g of HOSTILE) {
      const filter = { include: [g], exclude: [g] }
      for (const n of NAMES) admits(filter, n)
    }
  })
  assert.ok(stall < 5_000, `the loop stalled ${stall.toFixed(0)} ms`)
  // And they still mean what they say.
  assert.equal(compileGlob(HOSTILE[0]!)!(`${'a'.repeat(150)}b`), true)
  assert.equal(compileGlob(HOSTILE[0]!)!('a'.repeat(150)), false)
  assert.equal(compileGlob('+(a|aa)+b')!('+(a|aa)+b'), true, 'extglob syntax is literal text')
})

test('too long or too many alternatives: refused, and a refused glob fails closed', () => {
  const long = `${'*a'.repeat(200)}b`
  assert.match(globProblem(long) ?? '', new RegExp(`at most ${MAX_GLOB_LENGTH}`))
  assert.match(globProblem('{a,b}'.repeat(7)) ?? '', new RegExp(`more than ${MAX_ALTERNATIVES} alternatives`))
  assert.match(globProblem('{{a,b},{c,d},{e,f},{g,h}}'.repeat(4)) ?? '', /alternatives/)
  assert.equal(globProblem('{a,b}'.repeat(6)), undefined, '64 alternatives are fine')
  assert.equal(admits({ include: [long] }, 'anything'), false, 'a refused include admits nothing')
  assert.equal(admits({ exclude: [long] }, 'anything'), false, 'a refused exclude hides everything')
})

test('the real CLI: validate and list refuse hostile globs with file:line:col; the row is invalid', async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const lines = [
    'servers:',
    '  s:',
    '    command: echo',
    '    tools:',
    `      include: ["${'*a'.repeat(200)}b"]`,
    `      exclude: ["${'{a,b}'.repeat(8)}"]`,
    '',
  ]
  const p = makeProject({ '.dsh/mcp.yml': lines.join('\n') })
  const o = { cwd: p.path, dshHome: home.path, home: home.path }
  const v = await runCli(['validate', '-C', p.path], o)
  assert.equal(v.code, 1)
  assert.match(
    v.stdout + v.stderr,
    /mcp\.yml:5:\d+: error: servers\.s\.tools\.include\[0\]: this glob is 401 characters long/,
  )
  assert.match(
    v.stdout + v.stderr,
    /mcp\.yml:6:\d+: error: servers\.s\.tools\.exclude\[0\]: this glob expands to more than 64 alternatives/,
  )
  const list = await runCli(['list', '--json', '-C', p.path], o)
  const rows = JSON.parse(list.stdout) as { name: string; state: string }[]
  assert.deepEqual(
    rows.map((r) => [r.name, r.state]),
    [['s', 'invalid']],
  )
})

test('a real host mounts a server behind a hostile filter, with the right tools, without stalling', async (t) => {
  const marks = makeTempDir('dsh-mcp-marks-')
  const pids = marks.mkdir('pids')
  t.after(() => reapAll(pids))
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const mark = marks.join('g.log')
  const tools = [`${'a'.repeat(40)}b`, 'a'.repeat(50), 'keep_me', 'drop_me']
  const filter = { include: [`${'*a'.repeat(30)}b`, '*_me', '+(a|aa)+'], exclude: ['*d*r*o*p*_*m*e*'] }
  const p = makeProject({
    '.dsh/mcp.yml': friendly({
      g: stdioEntry('g', { tools, marker: mark, pidfileDir: pids, extra: { tools: filter } }),
    }),
  })
  let agentTools: string[] = []
  const stall = await stallOf(() => {})
  const h = monitorEventLoopDelay({ resolution: 10 })
  h.enable()
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  agentTools = mcpToolNames(w.host.ctx, agent)
  h.disable()
  assert.equal(readMarker(mark).length, 1)
  assert.deepEqual(agentTools, [`mcp__g__${'a'.repeat(40)}b`, 'mcp__g__keep_me'].sort())
  assert.ok(h.max / 1e6 < 5_000 + stall, `the host loop stalled ${(h.max / 1e6).toFixed(0)} ms`)
})
