/**
 * End to end through the real `dsh` CLI (rc.8, headless profile) with the packed plugin and its default
 * `toolBudget` (issue 26): a project whose fixture servers offer 100+ tools. The fake model on 127.0.0.1
 * records the `tools` the host offers in each request: the first holds the search tool and no MCP tool
 * (all within the budget); the model searches, and the next request offers the revealed tool, which it
 * calls natively (no gateway); the tool's answer reaches the model.
 *
 * Runs are isolated like test/e2e/visibility.test.ts (`env -i`, a fake model, one DSH_HOME).
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { hostToolJson, estimateTokens } from '../../src/budget/tokens.ts'
import { DEFAULT_TOOL_BUDGET } from '../../src/host/options.ts'
import { readCatalogs } from '../../bench/support/catalogs.ts'
import { type DshCli, NODE22, describeRun, runDsh, runIsolated } from '../support/dsh-cli.ts'
import { type FakeModel, type ModelRequest, messageText, toolResults } from '../support/fake-model.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { installPackedPlugin, type PackedPlugin } from '../support/packed-plugin.ts'
import { makeProject, type TempDir } from '../support/tmp.ts'

let e2e: PackedPlugin
let cli: DshCli
let model: FakeModel
let work: TempDir
let baseEnv: Record<string, string>
let hostPatch: string
let pidDir: string
let shippedCli: string

before(async () => {
  e2e = await installPackedPlugin({ prefix: 'dsh-e2e-budget-' })
  ;({ cli, model, work, env: baseEnv, hostPatch, pidDir, shippedCli } = e2e)
})

after(() => e2e?.close())

const runEnv = () => ({ ...baseEnv, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-e2e' })
const dshMcp = (args: string[]) => runIsolated(NODE22, [shippedCli, ...args], { cwd: work.path, env: baseEnv })

/** Servers named after recorded real catalogs, each offering those real tool names (fixture tools). */
function bigProject(): { dir: TempDir; tools: number } {
  const catalogs = readCatalogs().filter((c) =>
    ['github', 'filesystem', 'slack', 'gitlab', 'memory', 'puppeteer', 'google-maps', 'everything'].includes(c.server),
  )
  let yml = 'servers:\n'
  let tools = 0
  for (const c of catalogs) {
    const name = c.server.replace(/[^a-z]/g, '')
    const names = c.tools.map((t) => t.name.replace(/-/g, '_'))
    tools += names.length
    const args = stdioFixtureArgs({ name, tools: names, pidfileDir: pidDir })
    yml += `  ${name}:\n    command: ${JSON.stringify(NODE22)}\n    args: ${JSON.stringify(args)}\n`
  }
  const db = ['query', 'list_tables', 'describe_table', 'insert_rows', 'update_rows', 'delete_rows', 'create_table']
  tools += db.length
  yml += `  db:\n    command: ${JSON.stringify(NODE22)}\n    args: ${JSON.stringify(stdioFixtureArgs({ name: 'db', tools: db, pidfileDir: pidDir }))}\n`
  return { dir: makeProject({ '.dsh/mcp.yml': yml }, 'dsh-e2e-budget-'), tools }
}

const tokensOf = (r: ModelRequest) =>
  (r.body.tools ?? [])
    .filter((t) => t.function.name.startsWith('mcp__') || t.function.name === 'mcp_tool_search')
    .reduce((n, t) => n + estimateTokens(hostToolJson(t.function)), 0)

test('100+ tools behind the default budget: search, then the revealed tool is offered and called natively', async () => {
  const { dir, tools } = bigProject()
  assert.ok(tools >= 100, `${tools} tools`)
  const trust = await dshMcp(['trust', '--all', '--yes', '-C', dir.path])
  assert.equal(trust.code, 0, describeRun(trust))
  const from = model.requests.length
  model.respond((r) => {
    const results = toolResults(r)
    if (results.length === 0)
      return {
        toolCalls: [{ name: 'mcp_tool_search', arguments: { query: 'create a GitHub issue', limit: 3 }, id: 's1' }],
      }
    if (results.length === 1)
      return r.toolNames.includes('mcp__github__create_issue')
        ? { toolCalls: [{ name: 'mcp__github__create_issue', arguments: { title: 'crash' }, id: 'c1' }] }
        : { text: `not revealed: ${r.toolNames.join(',')}` }
    return { text: `done: ${messageText(results.at(-1)!)}` }
  })
  const run = await runDsh(cli, ['--profile', 'headless', '--patch', hostPatch, 'file the crash as an issue'], {
    cwd: dir.path,
    env: runEnv(),
    timeoutMs: 120_000,
  })
  assert.equal(run.code, 0, describeRun(run))
  const turns = model.turns(from)
  assert.equal(turns.length, 3, describeRun(run))
  const [first, second, third] = turns as [ModelRequest, ModelRequest, ModelRequest]

  // Request 1: the search tool, no MCP tool, within the budget.
  assert.ok(first.toolNames.includes('mcp_tool_search'), first.toolNames.join(','))
  assert.deepEqual(
    first.toolNames.filter((n) => n.startsWith('mcp__')),
    [],
  )
  assert.ok(tokensOf(first) <= DEFAULT_TOOL_BUDGET, `${tokensOf(first)} tokens`)
  const search = first.body.tools?.find((t) => t.function.name === 'mcp_tool_search')
  assert.match(search?.function.description ?? '', /- github: /)
  assert.doesNotMatch(search?.function.description ?? '', /create_issue/)

  // Request 2: the search answer names the tool, and the tool is now offered with its real schema.
  assert.match(messageText(toolResults(second)[0]!), /mcp__github__create_issue \(github\)/)
  assert.ok(second.toolNames.includes('mcp__github__create_issue'), second.toolNames.join(','))
  assert.ok(second.toolNames.filter((n) => n.startsWith('mcp__')).length <= 3, 'only the revealed ones')

  // Request 3: the native call's answer came back from the server.
  assert.match(messageText(toolResults(third).at(-1)!), /\[github\] create_issue/)
  assert.match(run.stdout, /^done: \[github\] create_issue/)
})
