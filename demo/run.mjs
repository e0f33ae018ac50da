// `npm run demo`: the whole mission in one minute, on a real host in-process, with no network and no model key.
//   1. two sample projects, each with its own .dsh/mcp.yml, plus one global server in $DSH_HOME/mcp.yml
//   2. trust both projects through the real `dsh-mcp` CLI
//   3. a real DSH host (cordis, dsh-tools, dsh-agent, dsh-agent-loop, dsh-mcp-client) with this plugin
//   4. an agent in each project: what each one sees, side by side, and a call across the fence
//   5. a live edit of one project's file, and the change arriving
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import LlmRuntime from '@deepseek-ai/dsh-llm'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import * as projectMcp from '../lib/index.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.join(here, '..')
const server = path.join(here, 'example-server.mjs')
const tty = process.stdout.isTTY && !process.env.NO_COLOR
const bold = (s) => (tty ? `\u001b[1m${s}\u001b[22m` : s)
const dim = (s) => (tty ? `\u001b[2m${s}\u001b[22m` : s)
const green = (s) => (tty ? `\u001b[32m${s}\u001b[39m` : s)
const step = (n, text) => console.log(`\n${bold(`${n}.`)} ${bold(text)}`)

const yaml = (servers) =>
  `servers:\n${Object.entries(servers)
    .map(
      ([name, [label, ...tools]]) =>
        `  ${name}:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify([server, label, ...tools])}\n`,
    )
    .join('')}`

const tmp = mkdtempSync(path.join(os.tmpdir(), 'dsh-project-mcp-demo-'))
const dshHome = path.join(tmp, 'dsh-home')
const project = (name, servers) => {
  const root = path.join(tmp, name)
  mkdirSync(path.join(root, '.git'), { recursive: true })
  mkdirSync(path.join(root, '.dsh'), { recursive: true })
  writeFileSync(path.join(root, '.dsh', 'mcp.yml'), yaml(servers))
  return root
}

let ctx
try {
  step(1, 'Two projects and one global server')
  mkdirSync(dshHome, { recursive: true })
  writeFileSync(path.join(dshHome, 'mcp.yml'), yaml({ notes: ['global notes', 'remember'] }))
  const shop = project('webshop', { catalog: ['webshop catalog', 'search_products', 'price'] })
  const lake = project('datalake', { warehouse: ['datalake warehouse', 'run_query', 'list_tables'] })
  console.log(`   ${shop}/.dsh/mcp.yml   → catalog (search_products, price)`)
  console.log(`   ${lake}/.dsh/mcp.yml  → warehouse (run_query, list_tables)`)
  console.log(`   ${dshHome}/mcp.yml      → notes (remember), for every project`)

  step(2, 'Trust both projects with the CLI (a cloned repo runs no code until you say so)')
  const cli = (args) =>
    execFileSync(process.execPath, [path.join(repo, 'bin', 'dsh-mcp.js'), ...args], {
      env: { ...process.env, DSH_HOME: dshHome },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  for (const root of [shop, lake]) {
    cli(['trust', '--all', '--yes', '-C', root])
    console.log(`   $ dsh-mcp trust --all --yes -C ${path.basename(root)}`)
  }

  step(3, 'Boot a real DSH host with the plugin')
  ctx = new Context()
  await ctx.plugin(LlmRuntime)
  await ctx.plugin(SessionStore)
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(AgentRegistry)
  await ctx.plugin(AgentLoop, { agents: [] })
  await ctx.plugin(projectMcp, { dshHome, cwd: tmp, debounceMs: 50 })
  const mcp = ctx.get('projectMcp')
  console.log('   cordis + dsh-tools + dsh-agent + dsh-agent-loop + dsh-mcp-client, and dsh-project-mcp')

  step(4, 'An agent in each project: what each one sees')
  const a = await ctx.agents.create({ sessionId: SessionId('demo-webshop'), meta: { cwd: shop } })
  const b = await ctx.agents.create({ sessionId: SessionId('demo-datalake'), meta: { cwd: lake } })
  await mcp.whenIdle()
  const seen = (agent) =>
    ctx.tools
      .schemas(agent.agent)
      .map((s) => s.name ?? s.function?.name)
      .filter((n) => n.startsWith('mcp__'))
      .sort()
  const left = seen(a)
  const right = seen(b)
  const width = Math.max(24, ...left.map((n) => n.length)) + 4
  console.log(`   ${bold('agent in webshop'.padEnd(width))}${bold('agent in datalake')}`)
  for (let i = 0; i < Math.max(left.length, right.length); i++)
    console.log(`   ${(left[i] ?? '').padEnd(width)}${right[i] ?? ''}`)
  const call = async (agent, name) => {
    const r = await ctx.tools.execute({
      callId: `demo-${Math.random()}`,
      name,
      arguments: { query: 'demo' },
      signal: new AbortController().signal,
      agent: agent.agent,
    })
    const text = (r.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('')
    return /unknown tool/i.test(text) ? 'unknown tool (hidden from this agent)' : text
  }
  console.log(`\n   webshop agent calls mcp__catalog__price      → ${green(await call(a, 'mcp__catalog__price'))}`)
  console.log(`   datalake agent calls mcp__catalog__price     → ${green(await call(b, 'mcp__catalog__price'))}`)

  step(5, "Edit webshop's .dsh/mcp.yml live: add a reviews server")
  const started = performance.now()
  writeFileSync(
    path.join(shop, '.dsh', 'mcp.yml'),
    yaml({ catalog: ['webshop catalog', 'search_products', 'price'], reviews: ['webshop reviews', 'top_reviews'] }),
  )
  cli(['trust', 'reviews', '--yes', '-C', shop])
  const deadline = Date.now() + 15_000
  while (!seen(a).includes('mcp__reviews__top_reviews') && Date.now() < deadline) {
    await new Promise((resolve) => {
      const timer = setTimeout(done, 50)
      const off = ctx.on('tools/change', done)
      function done() {
        clearTimeout(timer)
        off()
        resolve()
      }
    })
  }
  const ms = Math.round(performance.now() - started)
  if (!seen(a).includes('mcp__reviews__top_reviews')) throw new Error('the edit did not arrive within 15 s')
  console.log(`   ${green('arrived')} after ${ms} ms (debounce 50 ms, trust, spawn and tools/list included)`)
  console.log(`   webshop agent now sees:  ${seen(a).join(', ')}`)
  console.log(`   datalake agent still sees: ${seen(b).join(', ')}`)
  console.log(dim('\n   Cleaning up: agents disposed, servers unmounted, temp files removed.'))
  await a.dispose()
  await b.dispose()
} finally {
  if (ctx) await Promise.resolve(ctx.fiber.dispose()).catch(() => {})
  rmSync(tmp, { recursive: true, force: true })
}
process.exit(0)
