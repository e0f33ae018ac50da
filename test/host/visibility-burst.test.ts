/**
 * A server that registers thousands of tools at once (src/host/visibility.ts,
 * "burst"). Each registration is a `tools/change`; handled one by one, each
 * re-listed every registered tool and re-restricted every agent: 4,000 tools
 * blocked the host's event loop for 27 s, 8,000 for two minutes. Past the
 * first few changes of one macrotask, every agent is frozen to what it sees
 * and one pass settles the burst. Asserted on a real host with a real
 * fixture server of 3,000 tools: the agents of other projects — one that
 * sees a tool of its own, one that sees none — never see one of them (the
 * newest names checked at every change, all of them at every 100th and
 * after), the project's own agent
 * gets all of them, and the CPU the host spent stays bounded.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { mcpToolNames } from '../support/host.ts'
import { cpuMsOf } from '../support/faults.ts'
import { reapAll } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())

const N = 3000

test(`a server registering ${N} tools at once: no other project's agent ever sees one, the host's CPU stays bounded`, async (t) => {
  // Visibility alone: the context budget (host/budget.ts) would put the insider's tools behind its search tool.
  const w = await startWorld({ trust: 'all', toolBudget: 0 })
  t.after(() => w.dispose())
  t.after(() => reapAll(w.pids))
  const names = Array.from({ length: N }, (_, i) => `t${i}`)
  const big = projectWith({ big: stdioEntry('big', { tools: ['echo', ...names], pidfileDir: w.pids }) })
  const other = projectWith({ small: stdioEntry('small', { tools: ['echo'], pidfileDir: w.pids }) })
  const outsider = (await w.host.createAgent({ cwd: other.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, outsider), ['mcp__small__echo'])
  // An agent that sees no tool at all is held too (an allow of a name it is denied: the two intersect to nothing).
  const bare = projectWith({})
  const blind = (await w.host.createAgent({ cwd: bare.path })).agent
  let changes = 0
  const leaks: string[] = []
  const check = () => {
    for (const agent of [outsider, blind]) {
      const foreign = mcpToolNames(w.host.ctx, agent).filter((n) => n.startsWith('mcp__big__'))
      if (foreign.length > 0)
        leaks.push(`after change ${changes}: ${foreign.length} tools of the other project, e.g. ${foreign[0]}`)
    }
  }
  // Every change (as a listener after the plugin's would look): the newest names, which is where a leak would show.
  let next = 0
  const look = () => {
    while (next < N && w.host.ctx.tools.get(`mcp__big__t${next}`)) next++
    if (next === 0) return
    for (const agent of [outsider, blind])
      if (w.host.ctx.tools.get(`mcp__big__t${next - 1}`, agent))
        leaks.push(`change ${changes}: mcp__big__t${next - 1} visible to another project's agent`)
  }
  // The checks cost the host's process too (a scoped lookup resolves the scope's whole view): counted apart.
  let checking = 0
  const off = w.host.ctx.on('tools/change', () => {
    const c0 = cpuMsOf()
    look()
    if (++changes % 100 === 0) check()
    checking += cpuMsOf() - c0
  })
  t.after(off)
  const cpu0 = cpuMsOf()
  const insider = (await w.host.createAgent({ cwd: big.path })).agent
  await waitFor(() => mcpToolNames(w.host.ctx, insider).length === N + 1, {
    timeoutMs: 120_000,
    intervalMs: 50,
    message: `the project's agent sees its ${N} tools and echo`,
  })
  await w.mcp.whenIdle()
  const cpu = cpuMsOf() - cpu0 - checking
  check()
  t.diagnostic(
    `${changes} registry changes, ${Math.round(cpu)} ms of host CPU (and ${Math.round(checking)} ms in the test's checks)`,
  )
  assert.ok(changes >= N, `the server's tools came one change each (${changes})`)
  assert.deepEqual(leaks, [], 'the other agent never saw them')
  assert.deepEqual(mcpToolNames(w.host.ctx, outsider), ['mcp__small__echo'])
  assert.deepEqual(mcpToolNames(w.host.ctx, blind), [])
  // One by one this cost 34 s of CPU (quadratic; 3 s now); the bound leaves room for a busy machine.
  assert.ok(cpu < 10_000, `${Math.round(cpu)} ms of host CPU for ${N} tools`)
})
