// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${secret:NAME} templates
/**
 * `${secret:NAME}` on the real host: a server whose env needs an unset secret
 * is skipped (never spawned), its reason naming the secret and
 * `dsh-mcp secret set NAME`; `dsh-mcp secret set` (the real CLI, from stdin,
 * the file backend) applies live through the watched index — the server
 * mounts and receives the value (its `echo_env` tool answers it) — and the
 * value is in no status file, no server log and no file under `$DSH_HOME`
 * but the 0600 value file; `secret rm` unmounts it again.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { execTool, resultText } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { serverOf, statusText, untilTools } from '../support/trust.ts'

after(() => cleanupAll())
const dir = makeTempDir('dsh-mcp-secret-host-')
const pids = dir.mkdir('pids')
after(() => reapAll(pids))
const CANARY = `cnry${randomBytes(12).toString('hex')}`

function filesHolding(root: string): string[] {
  const hits: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && readFileSync(p).toString('latin1').includes(CANARY)) hits.push(p)
    }
  }
  if (existsSync(root)) walk(root)
  return hits
}

test('skipped while unset, mounted live once set (the server gets the value), unmounted on rm', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const marker = dir.join('s.ran')
  const p = projectWith({
    s: stdioEntry('s', {
      tools: ['t'],
      marker,
      pidfileDir: pids,
      extraArgs: ['--echo-env', 'SVC_TOKEN'],
      env: { SVC_TOKEN: '${secret:SVC_TOKEN}' },
    }),
  })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  const row = serverOf(w, p.path, 's')
  assert.equal(row.state, 'skipped')
  assert.match(row.lastError ?? '', /\$\{secret:SVC_TOKEN\}, which is not set .*dsh-mcp secret set SVC_TOKEN/)
  assert.equal(existsSync(marker), false, 'never spawned while the secret is unset')

  const cli = (args: string[], stdin?: string) =>
    runCli([...args, '-C', p.path], {
      cwd: w.hostDir.path,
      dshHome: w.home.path,
      home: w.home.path,
      env: { DSH_MCP_SECRET_BACKEND: 'file' },
      ...(stdin === undefined ? {} : { stdin }),
    })
  const set = await cli(['secret', 'set', 'SVC_TOKEN'], `${CANARY}\n`)
  assert.equal(set.code, 0, set.stderr)
  await untilTools(w, agent, ['mcp__s__t', 'mcp__s__echo_env'], 'mounted once the secret is set')
  // The server got the value; its tool result reaches the model redacted (the mount's secret values).
  const echoed = resultText(await execTool(w.host.ctx, agent, 'mcp__s__echo_env', {}))
  assert.ok(echoed.includes('***') && !echoed.includes(CANARY), echoed)
  await w.mcp.whenIdle()
  assert.ok(!statusText(w, p.path).includes(CANARY), 'the status file holds no value')
  const holders = filesHolding(w.home.path).filter((f) => !f.endsWith(join('mcp-secrets', 'values.json')))
  assert.deepEqual(holders, [], 'no file under $DSH_HOME but the 0600 value file holds it')
  assert.deepEqual(filesHolding(p.path), [], 'no file of the repository holds it')

  const rm = await cli(['secret', 'rm', 'SVC_TOKEN'])
  assert.equal(rm.code, 0, rm.stderr)
  await untilTools(w, agent, [], 'unmounted once the secret is removed')
  assert.match(serverOf(w, p.path, 's').lastError ?? '', /dsh-mcp secret set SVC_TOKEN/)
})
