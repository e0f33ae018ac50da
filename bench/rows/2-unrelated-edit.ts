/**
 * Row 2 — an edit restarts only what it changed.
 *
 * One project with 20 mounted fixture servers, each appending to its own
 * `--marker` file on every start. Three edits, each changing one server's
 * tools (a reconnect-worthy change: it must restart exactly that server);
 * then one tuning-only edit (a `tools.exclude` filter: restarts nothing).
 * Each edit is done when the agent's tool list shows it and the plugin is
 * idle; restarts are marker lines beyond the first. Target: 0 restarts of
 * the other servers.
 *
 * @module
 */
import { writeFileSync } from 'node:fs'
import { readMarker, reapAll } from '../../test/support/procs.ts'
import { startWorld } from '../../test/support/runtime.ts'
import { makeProject } from '../../test/support/tmp.ts'
import { fixtureEntry, friendlyYaml } from '../support/projects.ts'
import { runRow } from '../support/report.ts'
import { sum } from '../support/stats.ts'
import { sees, whenTools } from '../support/visible.ts'

const SERVERS = 20
const EDITED = [0, 7, 13]
const TUNED = 3

await runRow('2', 'Unrelated edit', async (r) => {
  const w = await startWorld({ debounceMs: 50 })
  r.defer(() => reapAll(w.pids))
  r.defer(() => w.dispose())
  const names = Array.from({ length: SERVERS }, (_, i) => `s${i}`)
  const marker = (n: string) => w.home.join(`marker-${n}.log`)
  const tools = new Map(names.map((n) => [n, ['a']]))
  const filters = new Map<string, Record<string, unknown>>()
  const text = () =>
    friendlyYaml(
      Object.fromEntries(
        names.map((n) => [
          n,
          { ...fixtureEntry(n, { tools: tools.get(n)!, marker: marker(n), pidfileDir: w.pids }), ...filters.get(n) },
        ]),
      ),
    )
  const project = makeProject({ '.dsh/mcp.yml': text() }, 'dsh-mcp-bench-edit-')
  const file = project.join('.dsh', 'mcp.yml')
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await whenTools(
    w.host.ctx,
    () => names.every((n) => sees(w.host.ctx, `mcp__${n}__a`, agent)),
    'all 20 servers mounted',
    60_000,
  )
  await w.mcp.whenIdle()
  const starts = () => new Map(names.map((n) => [n, readMarker(marker(n)).length]))
  const initial = starts()
  if ([...initial.values()].some((c) => c !== 1))
    throw new Error(`each server should have started once: ${JSON.stringify([...initial])}`)

  for (const i of EDITED) {
    const n = names[i]!
    tools.set(n, ['a', 'b'])
    const seen = whenTools(w.host.ctx, () => sees(w.host.ctx, `mcp__${n}__b`, agent), `edit of ${n}`)
    writeFileSync(file, text())
    await seen
    await w.mcp.whenIdle()
  }
  const afterEdits = starts()
  const edited = new Set(EDITED.map((i) => names[i]!))
  const restartsOf = (m: Map<string, number>, which: (n: string) => boolean) =>
    sum(names.filter(which).map((n) => m.get(n)! - 1))
  const others = restartsOf(afterEdits, (n) => !edited.has(n))
  const own = restartsOf(afterEdits, (n) => edited.has(n))
  r.metric({
    metric: `other servers restarted (${EDITED.length} edits × 1 server of ${SERVERS})`,
    ours: String(others),
    baseline: `edited servers: ${own} restarts (expected ${EDITED.length})`,
    ratio: '-',
    target: '0',
    met: others === 0 && own === EDITED.length,
    raw: { starts: Object.fromEntries(afterEdits) },
  })

  const tuned = names[TUNED]!
  filters.set(tuned, { tools: { exclude: ['a'] } })
  const hidden = whenTools(w.host.ctx, () => !sees(w.host.ctx, `mcp__${tuned}__a`, agent), `filter on ${tuned}`)
  writeFileSync(file, text())
  await hidden
  await w.mcp.whenIdle()
  const afterTuning = starts()
  const tuningRestarts = sum(names.map((n) => afterTuning.get(n)! - afterEdits.get(n)!))
  r.metric({
    metric: 'restarts after a tuning-only edit (tools filter)',
    ours: String(tuningRestarts),
    baseline: '-',
    ratio: '-',
    target: '0',
    met: tuningRestarts === 0,
  })
})
