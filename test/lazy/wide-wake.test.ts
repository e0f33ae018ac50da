/**
 * A dormant lazy server with many tools, woken by a native call (no context budget): the woken server's tools
 * register as one burst, which freezes every agent to what it saw before it (host/visibility-burst.ts). The
 * call must wait for that freeze to end and go through, not meet the registry's `unknown tool` (the regression:
 * a server of more than four tools answered `not_sent: unknown tool`). An agent of another project still sees
 * none of the tools, and its call of one is refused without starting anything (marker file).
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { execTool, mcpToolNames, resultText } from '../support/host.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { projectWith, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { lazyWorld, row, waitRow, waitTools, warm } from '../support/lazy.ts'

after(() => cleanupAll())

// `echo` last: the server lists (and the host registers) it after the burst has frozen every agent.
const TOOLS = [...Array.from({ length: 23 }, (_, i) => `tool_${String(i).padStart(2, '0')}`), 'echo']

test('a dormant lazy server with 24 tools, woken by a native call, answers it; another project sees none of them', async (t) => {
  const home = makeTempDir('dsh-mcp-lazy-wide-')
  const pids = home.mkdir('pids')
  const marker = home.join('spawns.log')
  const project = projectWith({
    lz: stdioEntry('lz', { tools: TOOLS, marker, pidfileDir: pids, extra: { lifecycle: 'lazy' } }),
  })
  const other = makeProject({})
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const spawned = readMarker(marker).length

  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  const { agent: stranger } = await w.host.createAgent({ cwd: other.path })
  await w.mcp.whenIdle()
  const all = TOOLS.map((n) => `mcp__lz__${n}`)
  await waitTools(w, agent, all, 'the cached tools were never offered')
  assert.equal(row(w, project.path, 'lz')?.state, 'dormant')
  assert.deepEqual(mcpToolNames(w.host.ctx, stranger), [], 'another project sees none of the cached tools')

  // The other project's agent: refused like the host, nothing started.
  const refused = await execTool(w.host.ctx, stranger, 'mcp__lz__echo', { text: 'no' })
  assert.equal(refused.isError, true)
  assert.match(resultText(refused), /unknown tool/)
  assert.equal(readMarker(marker).length, spawned, 'a refused call started nothing')

  // The project's agent: the native call wakes the server and gets the real answer.
  const call = await execTool(w.host.ctx, agent, 'mcp__lz__echo', { text: 'wide' })
  assert.equal(call.isError, false, resultText(call))
  assert.equal(resultText(call), '[lz] echo: wide')
  assert.equal(readMarker(marker).length, spawned + 1, 'one start')
  await waitRow(w, project.path, 'lz', (s) => s.state === 'mounted', 'the woken server never read mounted')
  await w.mcp.whenIdle()
  await waitTools(w, agent, all, 'the live tools were never offered')
  assert.deepEqual(mcpToolNames(w.host.ctx, stranger), [], 'nor the live ones')
  const again = await execTool(w.host.ctx, stranger, 'mcp__lz__tool_05', {})
  assert.equal(again.isError, true)
  assert.match(resultText(again), /unknown tool/)
})
