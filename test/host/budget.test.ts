/**
 * The context budget on a real host with real fixture MCP servers (src/host/budget.ts): above
 * `toolBudget` an agent is offered its pinned tools and `mcp_tool_search`; a search reveals the matches to
 * that agent only, which then calls one natively; under change (hot reload, a dropped server, another
 * project) nothing hidden or foreign is ever found.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { readCatalogs } from '../../bench/support/catalogs.ts'
import { hostToolJson, estimateTokens } from '../../src/budget/tokens.ts'
import { execTool, mcpToolNames, resultText, toolNames } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'
import { cli, statusText } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())

/** Real tool names of recorded catalogs (github 26, filesystem 14, slack 8, google-maps 7, memory 9…): 100+ in all. */
const catalogs = readCatalogs()
const names = (server: string) => catalogs.find((c) => c.server === server)!.tools.map((t) => t.name)
const BIG = {
  gh: names('github'),
  fs: names('filesystem'),
  chat: names('slack'),
  maps: names('google-maps'),
  mem: names('memory'),
  web: names('puppeteer'),
  lab: names('gitlab'),
  every: names('everything').map((n) => n.replace(/-/g, '_')),
  db: [
    'query',
    'list_tables',
    'describe_table',
    'insert_rows',
    'update_rows',
    'delete_rows',
    'create_table',
    'drop_table',
    'explain_query',
    'list_schemas',
  ],
}
const total = Object.values(BIG).reduce((n, l) => n + l.length, 0)
const BUDGET = 1500

function servers(w: RuntimeWorld, extra: Record<string, Record<string, unknown>> = {}) {
  return Object.fromEntries(
    Object.entries(BIG).map(([s, tools]) => [s, { ...stdioEntry(s, { tools, pidfileDir: w.pids }), ...extra[s] }]),
  )
}

/** Schema tokens of the tools `agent` is offered (as the host sends them). */
function offeredTokens(w: RuntimeWorld, agent: Agent): number {
  return w.host.ctx.tools
    .schemas(agent)
    .filter((s) => s.name.startsWith('mcp__') || s.name === 'mcp_tool_search')
    .reduce((n, s) => n + estimateTokens(hostToolJson(s)), 0)
}

const sees = (w: RuntimeWorld, agent: Agent, name: string) => toolNames(w.host.ctx, agent).includes(name)

test(`above the budget (${total} tools): pinned tools and the search tool fit; a search reveals to that agent only, which calls it natively`, async (t) => {
  assert.ok(total >= 100)
  const w = await startWorld({ toolBudget: BUDGET })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const p = projectWith(servers(w, { mem: { alwaysLoad: ['search_nodes'], description: 'Knowledge graph memory' } }))
  const other = projectWith({ solo: stdioEntry('solo', { tools: ['echo'], pidfileDir: w.pids }) })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  const sibling = (await w.host.createAgent({ cwd: p.path })).agent
  const outsider = (await w.host.createAgent({ cwd: other.path })).agent
  await w.mcp.whenIdle()
  await waitFor(() => sees(w, agent, 'mcp_tool_search'), { message: 'the search tool is offered' })

  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__mem__search_nodes'], 'only the pinned tool up front')
  assert.ok(offeredTokens(w, agent) <= BUDGET, `offered ${offeredTokens(w, agent)} tokens`)
  const search = w.host.ctx.tools.get('mcp_tool_search', agent)
  assert.match(search?.description ?? '', /- mem: Knowledge graph memory/)
  assert.match(search?.description ?? '', /- gh: MCP server \(26 more tools\)/)
  assert.doesNotMatch(search?.description ?? '', /create_issue/, 'servers, not every tool name')
  // Under the budget nothing changes: the other project's one tool, no search tool.
  assert.deepEqual(mcpToolNames(w.host.ctx, outsider), ['mcp__solo__echo'])
  assert.equal(sees(w, outsider, 'mcp_tool_search'), false)

  const found = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'open a new issue on GitHub', limit: 3 })
  assert.equal(found.isError, false, resultText(found))
  assert.match(resultText(found), /mcp__gh__create_issue \(gh\)/)
  assert.ok(mcpToolNames(w.host.ctx, agent).includes('mcp__gh__create_issue'), 'revealed from the next step')
  const call = await execTool(w.host.ctx, agent, 'mcp__gh__create_issue', { title: 'x' })
  assert.equal(call.isError, false, resultText(call))
  assert.match(resultText(call), /^\[gh\] create_issue/)
  // The sibling agent of the same project is not affected; the outsider never finds the project's tools.
  assert.equal(mcpToolNames(w.host.ctx, sibling).includes('mcp__gh__create_issue'), false)
  const foreign = await execTool(w.host.ctx, outsider, 'mcp_tool_search', { query: 'create issue' })
  assert.equal(foreign.isError, true, 'the outsider has no search tool')
  // Visible: the status file and `dsh-mcp status` carry per server its schema tokens, per agent offered vs deferred.
  const doc = await waitFor(
    () => {
      const d = JSON.parse(statusText(w, p.path)) as {
        budget?: {
          toolBudget: number
          servers: { name: string; tools: number; tokens: number }[]
          agents: { offered: number; deferred: number }[]
        }
      }
      return d.budget?.agents.some((a) => a.offered > 1) ? d.budget : undefined
    },
    { message: 'the status file carries the budget' },
  )
  assert.equal(doc.toolBudget, BUDGET)
  assert.deepEqual(doc.servers.find((x) => x.name === 'gh')?.tools, BIG.gh.length)
  assert.ok((doc.servers.find((x) => x.name === 'gh')?.tokens ?? 0) > 0)
  // The sibling: the pinned tool alone; the searching agent: the pinned one and what it revealed. Both see every tool.
  assert.deepEqual(
    doc.agents.map((a) => a.offered + a.deferred),
    [total, total],
  )
  assert.deepEqual(doc.agents.map((a) => a.offered).sort(), [1, mcpToolNames(w.host.ctx, agent).length])
  const status = await cli(w, p.path, ['status'])
  assert.match(status.stdout, new RegExp(`schema tokens: \\d+ of a ${BUDGET} budget — .*gh \\d+ \\(26 tools\\)`))
  assert.match(status.stdout, /agent \d: 1 tool offered \(\d+ tokens\), \d+ deferred behind mcp_tool_search/)
})

test('a server pinned with alwaysLoad: true is offered whole; budget 0 turns it all off', async (t) => {
  const w = await startWorld({ toolBudget: BUDGET })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const p = projectWith(servers(w, { chat: { alwaysLoad: true } }))
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  await waitFor(() => sees(w, agent, 'mcp_tool_search'), { message: 'the search tool is offered' })
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), BIG.chat.map((n) => `mcp__chat__${n}`).sort())
  const off = await startWorld({ toolBudget: 0 })
  t.after(async () => {
    await off.dispose()
    reapAll(off.pids)
  })
  const q = projectWith(servers(off))
  const plain = (await off.host.createAgent({ cwd: q.path })).agent
  await off.mcp.whenIdle()
  await waitFor(() => mcpToolNames(off.host.ctx, plain).length === total, { message: 'every tool offered' })
  assert.equal(sees(off, plain, 'mcp_tool_search'), false)
})

test('under change: a revealed tool whose server goes is hidden and no longer found; a hot reload that fits ends the search tool', async (t) => {
  const w = await startWorld({ toolBudget: BUDGET })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const p = projectWith(servers(w))
  const file = p.join('.dsh', 'mcp.yml')
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  await waitFor(() => sees(w, agent, 'mcp_tool_search'), { message: 'the search tool is offered' })
  const found = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'post a slack message' })
  assert.match(resultText(found), /mcp__chat__slack_post_message/)
  assert.ok(mcpToolNames(w.host.ctx, agent).includes('mcp__chat__slack_post_message'))

  // The slack server is removed (hot reload): its revealed tool goes, and a search no longer finds it.
  const { chat: _gone, ...rest } = servers(w)
  writeFileSync(file, friendly(rest))
  await w.mcp.reload()
  await w.mcp.whenIdle()
  await waitFor(() => !mcpToolNames(w.host.ctx, agent).includes('mcp__chat__slack_post_message'), {
    message: 'the dropped tool is hidden',
  })
  const again = await execTool(w.host.ctx, agent, 'mcp_tool_search', { query: 'post a slack message' })
  assert.doesNotMatch(resultText(again), /mcp__chat__/)
  assert.doesNotMatch(w.host.ctx.tools.get('mcp_tool_search', agent)?.description ?? '', /- chat:/)

  // Down to one small server: everything fits, the search tool goes, the tool is offered natively.
  writeFileSync(file, friendly({ mem: stdioEntry('mem', { tools: BIG.mem, pidfileDir: w.pids }) }))
  await w.mcp.reload()
  await w.mcp.whenIdle()
  await waitFor(() => !sees(w, agent, 'mcp_tool_search') && mcpToolNames(w.host.ctx, agent).length === BIG.mem.length, {
    message: 'the search tool is gone and every tool is offered',
  })
})
