/**
 * Issue 12 class 7 — hostile `tools` globs from a repository file. Very long patterns and brace
 * explosions are refused by the schema with `file:line:col`, and the row is invalid (never mounted, the
 * exclude never silently dropped). On a real host a filter of patterns catastrophic for a backtracking
 * regular expression mounts its server with exactly the right tools. The matcher's own cases are in
 * test/config/glob.test.ts; the event-loop cost of those patterns is bench row 8 (m).
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { mcpToolNames } from '../support/host.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { friendly, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('the real CLI: validate and list refuse hostile globs with file:line:col; the row is invalid', async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const lines = [
    'servers:',
    '  s:',
    '    command: echo',
    '    tools:',
    `      include: ["${'*a'.repeat(200)}b"]`,
    `      exclude: ["${'{a,b}'.repeat(8)}"]`,
    '',
  ]
  const p = makeProject({ '.dsh/mcp.yml': lines.join('\n') })
  const o = { cwd: p.path, dshHome: home.path, home: home.path }
  const v = await runCli(['validate', '-C', p.path], o)
  assert.equal(v.code, 1)
  assert.match(
    v.stdout + v.stderr,
    /mcp\.yml:5:\d+: error: servers\.s\.tools\.include\[0\]: this glob is 401 characters long/,
  )
  assert.match(
    v.stdout + v.stderr,
    /mcp\.yml:6:\d+: error: servers\.s\.tools\.exclude\[0\]: this glob expands to more than 64 alternatives/,
  )
  const list = await runCli(['list', '--json', '-C', p.path], o)
  const rows = JSON.parse(list.stdout) as { name: string; state: string }[]
  assert.deepEqual(
    rows.map((r) => [r.name, r.state]),
    [['s', 'invalid']],
  )
})

test('a real host mounts a server behind a hostile filter, with exactly the right tools', async (t) => {
  const marks = makeTempDir('dsh-mcp-marks-')
  const pids = marks.mkdir('pids')
  t.after(() => reapAll(pids))
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const mark = marks.join('g.log')
  const tools = [`${'a'.repeat(40)}b`, 'a'.repeat(50), 'keep_me', 'drop_me']
  const filter = { include: [`${'*a'.repeat(30)}b`, '*_me', '+(a|aa)+'], exclude: ['*d*r*o*p*_*m*e*'] }
  const p = makeProject({
    '.dsh/mcp.yml': friendly({
      g: stdioEntry('g', { tools, marker: mark, pidfileDir: pids, extra: { tools: filter } }),
    }),
  })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  const agentTools = mcpToolNames(w.host.ctx, agent)
  assert.equal(readMarker(mark).length, 1)
  assert.deepEqual(agentTools, [`mcp__g__${'a'.repeat(40)}b`, 'mcp__g__keep_me'].sort())
})
