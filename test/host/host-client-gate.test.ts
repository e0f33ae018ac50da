/**
 * On a real host (rc.8): an entry that uses a field the host's own
 * dsh-mcp-client does not have (`maxInstructionBytes`, added in a later
 * line) is not mounted with the field dropped in silence — it is reported
 * `failed` with a reason naming the field and the host client's version, its
 * command never runs, and the project's other servers mount as usual.
 * Removing the field mounts it.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { mcpToolNames, waitFor } from '../support/host.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

const VERSION = JSON.parse(
  readFileSync(new URL('../../node_modules/@deepseek-ai/dsh-mcp-client/package.json', import.meta.url), 'utf8'),
).version as string

test('a later-line field is refused by name and host version, never stripped; the rest mount', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const marker = w.home.join('marker-newer.log')
  const newer = (extra: Record<string, unknown>) =>
    stdioEntry('newer', { tools: ['n'], marker, pidfileDir: w.pids, extra })
  const a = projectWith({
    newer: newer({ maxInstructionBytes: 4096 }),
    fine: stdioEntry('fine', { tools: ['f'], pidfileDir: w.pids }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const server = (name: string) =>
    w.mcp
      .snapshot()
      .projects.find((p) => p.root === a.path)!
      .servers.find((s) => s.name === name)!
  assert.equal(server('newer').state, 'failed')
  assert.match(
    server('newer').lastError ?? '',
    new RegExp(
      `dsh-mcp-client ${VERSION.replace(/\./g, '\\.')} does not support "maxInstructionBytes" \\(from 0\\.1\\.6-alpha\\.2\\)`,
    ),
  )
  assert.equal(readMarker(marker).length, 0, 'its command never ran')
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__fine__f'])
  assert.equal(server('fine').state, 'mounted')

  writeFileSync(
    a.join('.dsh', 'mcp.yml'),
    friendly({ newer: newer({}), fine: stdioEntry('fine', { tools: ['f'], pidfileDir: w.pids }) }),
  )
  await waitFor(() => mcpToolNames(w.host.ctx, agent).includes('mcp__newer__n'), {
    ctx: w.host.ctx,
    events: ['tools/change'],
    timeoutMs: 30_000,
    message: 'without the field it mounts',
  })
  await w.mcp.whenIdle()
  assert.equal(server('newer').state, 'mounted')
})
