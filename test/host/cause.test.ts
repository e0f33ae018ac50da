/**
 * One plain cause at every edge (issue 29 item 3): a server whose command does not exist reads
 * "command not found: <cmd> — fix the file; it reloads live" in the host log, the snapshot the `dsh web` panel
 * reads, the agent's prompt line, the status file and `dsh-mcp status` — never the official client's "connection
 * failed; retrying in 30000ms (attempt 7/10)" nor "reload the plugin or restart the Host" — and editing the file
 * mounts it live. A start that keeps failing says its retries plainly and bounded ("retry 1 of 2 …", then
 * "gave up after 2 failed attempts"). On a real host with the real launcher.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { CAUSE_FIX } from '../../src/plan/states.ts'
import { runCli } from '../support/cli.ts'
import { installStubModel, userMessage } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { serverOf, statusText, untilTools } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())
const pids = makeTempDir('dsh-mcp-cause-').mkdir('pids')
after(() => reapAll(pids))

const MISSING = 'dsh-mcp-no-such-command-cause'
const CAUSE = `command not found: ${MISSING} — ${CAUSE_FIX}`

test('a missing command reads the same plain cause in the host log, panel, prompt line and status; an edit mounts it live', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const stub = installStubModel(w.host.ctx)
  const p = projectWith({ gone: { command: MISSING, args: ['x'] } })
  const agent = (await w.host.createAgent({ cwd: p.path, agentOptions: stub.agentOptions })).agent
  await waitFor(() => serverOf(w, p.path, 'gone').state === 'failed', { message: 'the server failed' })
  await w.mcp.whenIdle()

  assert.equal(serverOf(w, p.path, 'gone').lastError, CAUSE, 'the snapshot the panel and the web route read')
  assert.ok(
    w.host.logs.some((l) => l.text.includes(CAUSE)),
    `the host log says it: ${w.host.logs.map((l) => l.text).join('\n')}`,
  )
  const raw = w.host.logs.filter((l) => /restart the Host|retrying in \d+ms/.test(l.text)).map((l) => l.text)
  assert.deepEqual(raw, [], 'no raw client advice')
  assert.ok(statusText(w, p.path).includes(CAUSE), 'the status file')
  const status = await runCli(['status', '-C', p.path], { cwd: p.path, dshHome: w.home.path, home: w.home.path })
  assert.ok(status.stdout.includes(CAUSE), status.stdout)
  agent.followup(userMessage('use gone'))
  await agent.whenIdle()
  const system = stub.requests.at(-1)?.system ?? ''
  assert.ok(system.includes(`- gone: ${CAUSE}. Fix:`), system)

  // Fixing the file is enough: it reloads live.
  p.write('.dsh/mcp.yml', friendly({ gone: stdioEntry('gone', { tools: ['t'], pidfileDir: pids }) }))
  await untilTools(w, agent, ['mcp__gone__t'], 'mounted once the file names a real command')
  assert.equal(serverOf(w, p.path, 'gone').lastError, null)
})

test('a start that keeps failing says its retries, bounded, then that it gave up — in the host log and the row', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({
    dies: {
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
      failOnStartupError: false,
      reconnect: { maxAttempts: 2, initialDelayMs: 50, maxDelayMs: 100 },
    },
  })
  await w.host.createAgent({ cwd: p.path })
  await waitFor(() => /gave up after 2 failed attempts/.test(serverOf(w, p.path, 'dies').lastError ?? ''), {
    message: 'the row says it gave up',
  })
  const lines = w.host.logs.map((l) => l.text)
  assert.ok(
    lines.some((l) => /could not start or connect; retry 1 of 2 in \d+ ms .* — fix the file; it reloads live/.test(l)),
    lines.join('\n'),
  )
  assert.ok(lines.some((l) => l.includes(`gave up after 2 failed attempts (dsh-mcp logs shows why) — ${CAUSE_FIX}`)))
  assert.ok(!lines.some((l) => /restart the Host|retrying in \d+ms/.test(l)), 'the client’s raw words never show')
  assert.equal(serverOf(w, p.path, 'dies').state, 'failed')
})
