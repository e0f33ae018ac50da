/**
 * A churning server (issue 24, item 8b): a stdio fixture with 600 tools sends
 * `notifications/tools/list_changed` every 300 ms, and the official client
 * answers each by re-listing and registering the list again.
 * The first changes of each re-sync are handled one by one, then a burst
 * freeze holds every agent to what it sees — held to names registered *now*
 * (the re-sync unregistered the ones of the last listing: an allow naming
 * them fails, and each failure cost a full listing per change). Asserted on a
 * real host through several re-syncs: at every registry change (a listener
 * after the plugin's) no agent of another project — one with a tool of its
 * own, one with none — sees a churn tool, and afterwards the project's own
 * agent sees all of them again. Timing is bench row 10.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { mcpToolNames } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())

const N = 600

test(`a server with ${N} tools re-listing every 300 ms: no other project's agent ever sees one`, async (t) => {
  // Visibility alone: the context budget (host/budget.ts) would put the insider's tools behind its search tool.
  const w = await startWorld({ trust: 'all', toolBudget: 0 })
  t.after(() => w.dispose())
  t.after(() => reapAll(w.pids))
  const names = Array.from({ length: N }, (_, i) => `t${i}`)
  const churn = projectWith({
    churn: stdioEntry('churn', { tools: names, pidfileDir: w.pids, extraArgs: ['--list-changed-ms', '300'] }),
  })
  const other = projectWith({ small: stdioEntry('small', { tools: ['echo'], pidfileDir: w.pids }) })
  const outsider = (await w.host.createAgent({ cwd: other.path })).agent
  const blind = (await w.host.createAgent({ cwd: projectWith({}).path })).agent
  await w.mcp.whenIdle()
  const leaks: string[] = []
  let changes = 0
  const off = w.host.ctx.on('tools/change', () => {
    changes++
    // The newest and the oldest names: a leak of a re-registered tool shows on either.
    for (const agent of [outsider, blind])
      for (const name of ['mcp__churn__t0', `mcp__churn__t${N - 1}`])
        if (w.host.ctx.tools.get(name, agent)) leaks.push(`change ${changes}: ${name} visible to another project`)
  })
  t.after(off)
  const insider = (await w.host.createAgent({ cwd: churn.path })).agent
  await waitFor(() => mcpToolNames(w.host.ctx, insider).length === N, {
    timeoutMs: 120_000,
    message: `the project's agent sees its ${N} tools`,
  })
  // Three re-syncs after the first listing (each unregisters and registers all N).
  const resyncs = () => w.host.logsMatching('tool list changed, re-syncing').length
  const first = resyncs()
  await waitFor(() => resyncs() >= first + 3, { timeoutMs: 120_000, message: 'three re-syncs' })
  await waitFor(() => mcpToolNames(w.host.ctx, insider).length === N, {
    timeoutMs: 120_000,
    message: `the project's agent sees its ${N} tools after the re-syncs`,
  })
  off()
  assert.ok(changes > N, `the registry changed through the re-syncs (${changes} changes)`)
  assert.deepEqual(leaks, [])
  assert.deepEqual(mcpToolNames(w.host.ctx, outsider), ['mcp__small__echo'])
  assert.deepEqual(mcpToolNames(w.host.ctx, blind), [])
})
