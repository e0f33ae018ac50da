/**
 * The context budget under change, on a real host with real fixture servers (src/host/budget.ts):
 * a deferred tool of a server that becomes untrusted disappears from search results; a dormant lazy
 * server is searched from its cached tools without starting, a revealed tool of it wakes it on the
 * native call, and the tool stays revealed over an idle release; a revealed tool the woken server no
 * longer offers is hidden and no longer found. Marker files prove what ran.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { readCatalogs } from '../../bench/support/catalogs.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { execTool, mcpToolNames, resultText, toolNames } from '../support/host.ts'
import { cacheFiles, lazyWorld, row, waitRow, warm } from '../support/lazy.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { trustAll } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())

const catalogs = readCatalogs()
const names = (server: string) => catalogs.find((c) => c.server === server)!.tools.map((t) => t.name)
const BUDGET = 600

test('a server that becomes untrusted: its deferred tools vanish from search results and from the agent', async (t) => {
  const w = await startWorld({ trust: 'require', debounceMs: 20, toolBudget: BUDGET })
  t.after(() => w.dispose())
  t.after(() => reapAll(w.pids))
  const entries = {
    gh: stdioEntry('gh', { tools: names('github'), pidfileDir: w.pids }),
    chat: stdioEntry('chat', { tools: names('slack'), pidfileDir: w.pids }),
  }
  const p = projectWith(entries)
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  await trustAll(w, p.path)
  const all = names('github').length + names('slack').length
  await waitFor(() => mcpToolNames(w.host.ctx).length === all, { message: 'both servers mounted' })
  await w.mcp.whenIdle()
  assert.ok(toolNames(w.host.ctx, agent).includes('mcp_tool_search'), 'search tool offered')
  const before = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'slack channel message', limit: 10 })
  assert.match(resultText(before), /mcp__chat__slack_post_message/)

  // A changed fingerprint (new argument) untrusts `chat`: it goes down, and a search no longer finds it.
  writeFileSync(
    p.join('.dsh', 'mcp.yml'),
    friendly({
      ...entries,
      chat: { ...entries.chat, args: [...(entries.chat.args as string[]), '--init-delay-ms', '1'] },
    }),
  )
  await waitFor(() => !mcpToolNames(w.host.ctx).some((n) => n.startsWith('mcp__chat__')), {
    message: 'the untrusted server is down',
  })
  await w.mcp.whenIdle()
  const after = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'slack channel message', limit: 10 })
  assert.doesNotMatch(resultText(after), /mcp__chat__/)
  assert.doesNotMatch(w.host.ctx.tools.get('mcp_tool_search', agent)?.description ?? '', /- chat:/)
})

test('a dormant lazy server is searched from its cache without starting; the revealed tool wakes it natively and stays over an idle release', async (t) => {
  const home = makeTempDir('dsh-mcp-budget-home-')
  const pids = home.mkdir('pids')
  const marker = home.join('spawns.log')
  const tools = names('github')
  const project = projectWith({
    gh: stdioEntry('gh', { tools, marker, pidfileDir: pids, extra: { lifecycle: 'lazy', idleTimeoutMs: 300 } }),
  })
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'gh')
  assert.equal(cacheFiles(home).length, 1)
  const spawned = readMarker(marker).length

  const w = await lazyWorld(home, { toolBudget: BUDGET })
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await w.mcp.whenIdle()
  await waitFor(() => toolNames(w.host.ctx, agent).includes('mcp_tool_search'), { message: 'search tool offered' })
  assert.equal(row(w, project.path, 'gh')?.state, 'dormant')
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [], 'every cached tool deferred')

  const found = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'merge a pull request', limit: 2 })
  assert.match(resultText(found), /mcp__gh__merge_pull_request/)
  assert.equal(readMarker(marker).length, spawned, 'the search started nothing')
  assert.equal(row(w, project.path, 'gh')?.state, 'dormant')
  assert.ok(mcpToolNames(w.host.ctx, agent).includes('mcp__gh__merge_pull_request'))

  // Called natively: the server wakes and answers.
  const call = await execTool(w.host.ctx, agent, 'mcp__gh__merge_pull_request', { pull_number: 1 })
  assert.equal(call.isError, false, resultText(call))
  assert.match(resultText(call), /^\[gh\] merge_pull_request/)
  assert.equal(readMarker(marker).length, spawned + 1)

  // Idle release: dormant again, and the revealed tool is still offered.
  await waitRow(w, project.path, 'gh', (s) => s.state === 'dormant', 'released when idle')
  await w.mcp.whenIdle()
  assert.ok(mcpToolNames(w.host.ctx, agent).includes('mcp__gh__merge_pull_request'), 'revealed for the agent’s life')
})

test('a revealed tool the server no longer offers is hidden: the cache offered it, the woken server does not', async (t) => {
  const home = makeTempDir('dsh-mcp-budget-drop-')
  const pids = home.mkdir('pids')
  const control = home.join('control.json')
  const tools = names('github')
  writeFileSync(control, JSON.stringify({ tools: tools.join(',') }))
  const entry = {
    command: process.execPath,
    args: stdioFixtureArgs({ name: 'gh', pidfileDir: pids, control }),
    lifecycle: 'lazy',
    toolCallTimeoutMs: 10_000,
  }
  const project = projectWith({ gh: entry })
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'gh')
  // Same launch (same cache key), but the server now drops merge_pull_request.
  writeFileSync(control, JSON.stringify({ tools: tools.filter((n) => n !== 'merge_pull_request').join(',') }))

  const w = await lazyWorld(home, { toolBudget: BUDGET })
  t.after(() => w.dispose())
  const { agent } = await w.host.createAgent({ cwd: project.path })
  await w.mcp.whenIdle()
  await waitFor(() => toolNames(w.host.ctx, agent).includes('mcp_tool_search'), { message: 'search tool offered' })
  const found = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'merge pull request', limit: 3 })
  assert.match(resultText(found), /mcp__gh__merge_pull_request/)
  assert.ok(mcpToolNames(w.host.ctx, agent).includes('mcp__gh__merge_pull_request'), 'revealed from the cache')
  // Another revealed tool wakes the server: its real list has no merge_pull_request.
  const other = mcpToolNames(w.host.ctx, agent).find((n) => n !== 'mcp__gh__merge_pull_request')
  assert.ok(other)
  const call = await execTool(w.host.ctx, agent, other, {})
  assert.equal(call.isError, false, resultText(call))
  await waitFor(() => !mcpToolNames(w.host.ctx).includes('mcp__gh__merge_pull_request'), {
    message: 'the real list replaced the cached one',
  })
  await w.mcp.whenIdle()
  assert.equal(mcpToolNames(w.host.ctx, agent).includes('mcp__gh__merge_pull_request'), false, 'hidden with it')
  const again = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'merge pull request', limit: 3 })
  assert.doesNotMatch(resultText(again), /mcp__gh__merge_pull_request/)
})
