/**
 * A server's own `startupTimeoutMs` on a real host: a fixture slow to
 * initialize is bounded by its entry's bound (not the plugin's much longer
 * `mountTimeoutMs`) and marked failed naming it, while its neighbours mount;
 * a repository file's value above the cap is clamped, with the warning at its
 * line in the host log, and the server still mounts. Each wait is on an
 * event; no assertion on time.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { REPOSITORY_STARTUP_CAP_MS } from '../../src/config/fields.ts'
import { mcpToolNames, settles } from '../support/host.ts'
import { countLive, reapAll } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { waitFor } from '../support/wait.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

test('startupTimeoutMs bounds one slow server (failed, naming its bound) while the others mount; a repository value above the cap is clamped with a warning', async (t) => {
  // The plugin's bound is far beyond any wait of this test: only the entry's own bound can end the slow mount.
  const w = await startWorld({ mountTimeoutMs: 600_000 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({
    slow: stdioEntry('slow', {
      tools: ['late'],
      initDelayMs: 600_000,
      pidfileDir: w.pids,
      extra: { startupTimeoutMs: 1500 },
    }),
    fine: stdioEntry('fine', { tools: ['ok'], pidfileDir: w.pids }),
    capped: stdioEntry('capped', {
      tools: ['c'],
      pidfileDir: w.pids,
      extra: { startupTimeoutMs: REPOSITORY_STARTUP_CAP_MS * 10 },
    }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await settles(w.mcp.whenIdle(), 'whenIdle() with a server slower than its own startupTimeoutMs')
  const servers = w.mcp.snapshot().projects.find((p) => p.root === a.path)?.servers ?? []
  const slow = servers.find((s) => s.name === 'slow')
  assert.equal(slow?.state, 'failed')
  assert.match(slow?.lastError ?? '', /did not finish initialize \+ tools\/list within 1500 ms/)
  assert.deepEqual(mcpToolNames(w.host.ctx, agent).sort(), ['mcp__capped__c', 'mcp__fine__ok'])
  assert.equal(w.host.logsMatching(/failed "slow".*within 1500 ms/).length, 1)
  // The clamp is reported where the value is written (file:line:col), once.
  const warned = w.host.logsMatching(
    new RegExp(`mcp\\.yml:\\d+:\\d+: warning.*startupTimeoutMs.*may not set more than ${REPOSITORY_STARTUP_CAP_MS}`),
  )
  assert.equal(
    warned.length,
    1,
    w.host
      .logsMatching(/startupTimeoutMs/)
      .map((l) => l.text)
      .join('\n'),
  )
  await settles(w.stop(), 'the plugin dispose after a timed-out mount')
  await waitFor(() => countLive(w.pids) === 0, {
    message: 'every fixture process exits (the slow one was ended at its bound)',
  })
})
