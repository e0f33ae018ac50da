/**
 * Edit storm: 500 writes to `.dsh/mcp.yml` in about 5 s — alternating valid
 * and broken text, adding and removing servers and changing one — on a real
 * host with real fixture servers. After the last write the mounted set
 * (snapshot and the agent's tools) comes to equal what the final file says
 * (awaited on `tools/change`; how soon is bench row 8's "edit storm"); servers
 * are mounted once per quiet gap at most, never once per write (the gaps are
 * counted as they happened: a busy machine that stalls the writer makes more
 * of them); no promise rejection goes unhandled; no fixture process outlives
 * its mount.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { mcpToolNames, waitFor } from '../support/host.ts'
import { countLive, readMarker, reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'
import { mountedOf, prng, trackRejections } from '../support/faults.ts'

after(() => cleanupAll())

const WRITES = 500
const STORM_MS = 5000
/** Quiet gaps longer than the debounce, so reconciles also run mid-storm. */
const GAPS = 8
const GAP_MS = 160
/** A pause between two writes this long may let the debounce (100 ms) fire: counted as a gap. */
const MAYBE_QUIET_MS = 50

test('500 writes in about 5 s: the final file wins, mounts are bounded, nothing leaks', async (t) => {
  const rejections = trackRejections()
  t.after(() => rejections.stop())
  const w = await startWorld({ trust: 'all' })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const marker = (n: string) => w.home.join(`marker-${n}.log`)
  const entry = (n: string, tools: string[]) => stdioEntry(n, { tools, marker: marker(n), pidfileDir: w.pids })
  const pool = ['a', 'b', 'c', 'd']
  const toolsOf = (n: string, variant: number) => (n === 'd' && variant === 1 ? ['d1', 'd2'] : [`${n}1`])
  const a = projectWith({ a: entry('a', ['a1']) })
  const file = a.join('.dsh', 'mcp.yml')
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__a__a1'])

  const seed = Number(process.env.STORM_SEED ?? Date.now() % 100_000)
  t.diagnostic(`seed ${seed} (replay with STORM_SEED=${seed})`)
  const rnd = prng(seed)
  const broken = [
    'servers:\n  a: {command: [\n',
    'servers: [1, 2\n',
    '\t\tnot yaml: : :\n',
    '',
    'servers:\n  a: !!js/function x\n',
  ]
  let final: { names: string[]; variant: number } = { names: ['a'], variant: 0 }
  // Half the gaps follow a valid write (a reconcile that mounts), half a broken one (last good kept).
  const gapAt = new Set(
    Array.from({ length: GAPS }, (_, k) => 2 * Math.floor(((k + 1) * WRITES) / (GAPS + 1) / 2) + (k % 2)),
  )
  const perWrite = (STORM_MS - GAPS * GAP_MS) / WRITES
  const t0 = performance.now()
  let lastWrite = 0
  let quietGaps = 0
  for (let i = 0; i < WRITES; i++) {
    if (i % 2 === 1) {
      const names = pool.filter(() => rnd() < 0.5)
      const variant = rnd() < 0.5 ? 0 : 1
      writeFileSync(file, friendly(Object.fromEntries(names.map((n) => [n, entry(n, toolsOf(n, variant))]))))
      final = { names, variant }
    } else writeFileSync(file, broken[Math.floor(rnd() * broken.length)]!)
    const now = performance.now()
    if (i > 0 && now - lastWrite >= MAYBE_QUIET_MS) quietGaps++
    lastWrite = now
    const due = t0 + (i + 1) * perWrite + [...gapAt].filter((g) => g <= i).length * GAP_MS + (gapAt.has(i) ? GAP_MS : 0)
    if (i < WRITES - 1) await sleep(Math.max(0, due - performance.now()))
  }
  const stormMs = lastWrite - t0
  t.diagnostic(
    `${WRITES} writes in ${Math.round(stormMs)} ms with ${quietGaps} pauses of ${MAYBE_QUIET_MS} ms or more; final servers [${final.names.join(', ')}], variant ${final.variant}`,
  )

  const wantTools = final.names.flatMap((n) => toolsOf(n, final.variant).map((x) => `mcp__${n}__${x}`)).sort()
  const wantMounted = [...final.names].sort()
  const same = () =>
    JSON.stringify(mcpToolNames(w.host.ctx, agent)) === JSON.stringify(wantTools) &&
    JSON.stringify(mountedOf(w, a.path)) === JSON.stringify(wantMounted)
  await waitFor(same, {
    ctx: w.host.ctx,
    events: ['tools/change'],
    intervalMs: 5,
    message: `the mounted set never came to equal the final file (want ${JSON.stringify(wantMounted)})`,
  })
  t.diagnostic(`converged ${Math.round(performance.now() - lastWrite)} ms after the last write`)

  await w.mcp.whenIdle()
  assert.ok(same(), 'still equal once idle')
  const spawns = Object.fromEntries(pool.map((n) => [n, readMarker(marker(n)).length]))
  t.diagnostic(`spawns per server: ${JSON.stringify(spawns)}`)
  // One reconcile per quiet gap, plus the initial mount and the final one; each mounts a server at most once.
  const bound = Math.max(GAPS, quietGaps) + 3
  for (const n of pool)
    assert.ok(spawns[n]! <= bound, `server ${n} spawned ${spawns[n]} times (bound ${bound}, ${WRITES} writes)`)

  await waitFor(() => countLive(w.pids) === wantMounted.length, {
    message: `one live process per mounted server (${wantMounted.length})`,
  })
  await w.stop()
  await waitFor(() => countLive(w.pids) === 0, { message: 'no fixture process outlives the plugin' })
  await new Promise((r) => setImmediate(r))
  assert.deepEqual(rejections.list.map(String), [], 'no unhandled rejection')
})
