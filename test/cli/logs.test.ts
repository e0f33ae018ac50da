/**
 * `dsh-mcp logs` against logs written by the real log
 * writer: the last N lines across the backup and the live file, a secret
 * redacted again on display (a log written before the value was known),
 * `-f` across rotation, and the errors: unknown name (did you mean), an
 * HTTP server, no log yet (naming the file), a link planted at the log path
 * (refused, its target not shown), a bad `-n`.
 */
import assert from 'node:assert/strict'
import { appendFileSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { after, test } from 'node:test'
import { openServerLog } from '../../src/launch/log-writer.ts'
import { serverLogFile } from '../../src/launch/spec.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { sandbox } from '../support/sandbox.ts'
import { waitFor } from '../support/wait.ts'
import { cleanupAll } from '../support/tmp.ts'
import { runCli, startCli } from '../support/cli.ts'
after(() => cleanupAll())

const SECRET = 'sk-live-0a1b2c3d4e5f6789'
const s = sandbox(
  {
    git: { command: 'git-mcp', env: { GIT_TOKEN: SECRET } },
    quiet: { command: 'quiet-mcp' },
    linked: { command: 'linked-mcp' },
    web: { url: 'http://127.0.0.1:1/mcp' },
  },
  { userServers: { mine: { command: 'mine-mcp' } } },
)
after(() => s.cleanup())
const root = canonicalRoot(s.project.path)
const logOf = (name: string, origin = root) => serverLogFile(s.dshHome, origin, name)
const where = { cwd: s.project.path, dshHome: s.dshHome, home: s.home }
const logs = (args: string[]) => runCli(['logs', ...args], where)

test('prints the last lines of the backup and the live log, redacted again on display', async () => {
  const w = openServerLog(logOf('git'), { secrets: [], maxBytes: 400 })
  for (let i = 0; i < 12; i++) w.write(`line ${i} token=${SECRET}\n`)
  w.end()
  const all = await logs(['git', '-n', '100'])
  assert.equal(all.code, 0, all.stderr)
  const lines = all.stdout.trim().split('\n')
  assert.match(lines[lines.length - 1] ?? '', /line 11 token=\*\*\*$/)
  assert.ok(lines.some((l) => / line \d+ /.test(l)) && lines.length > 3, 'the backup is shown too')
  assert.doesNotMatch(all.stdout + all.stderr, /sk-live/)
  const two = await logs(['git', '-n', '2'])
  assert.deepEqual(
    two.stdout
      .trim()
      .split('\n')
      .map((l) => l.replace(/^\S+ /, '')),
    ['server| line 10 token=***', 'server| line 11 token=***'],
  )
  const mine = openServerLog(logOf('mine', s.dshHome), { secrets: [] })
  mine.write('from the user layer\n')
  mine.end()
  const user = await logs(['mine'])
  assert.equal(user.code, 0, user.stderr)
  assert.match(user.stdout, /from the user layer/)
})

test('errors say why: unknown name, an HTTP server, no log yet, a planted link, a bad -n', async () => {
  const unknown = await logs(['gti'])
  assert.equal(unknown.code, 1)
  assert.match(unknown.stderr, /no server named "gti".*did you mean "git"/)
  const web = await logs(['web'])
  assert.equal(web.code, 1)
  assert.match(web.stderr, /"web" is an HTTP server: it has no stderr/)
  const none = await logs(['quiet'])
  assert.equal(none.code, 1)
  assert.match(none.stderr, /no log for "quiet" yet: .*mcp-logs\/quiet-[0-9a-f]{12}\.log does not exist/)
  assert.match(none.stderr, /a host writes it once this stdio server prints to stderr/)
  const target = `${s.home}/private.txt`
  writeFileSync(target, 'root:hash-of-the-victim\n')
  mkdirSync(dirname(logOf('linked')), { recursive: true })
  symlinkSync(target, logOf('linked'))
  const linked = await logs(['linked'])
  assert.equal(linked.code, 1)
  assert.match(linked.stderr, /is a symbolic link; not read/)
  assert.doesNotMatch(linked.stdout + linked.stderr, /hash-of-the-victim/)
  const bad = await logs(['git', '-n', 'lots'])
  assert.equal(bad.code, 1)
  assert.match(bad.stderr, /-n wants a whole number/)
})

test('-f follows what is appended, across rotation, until interrupted', async () => {
  const file = logOf('git')
  appendFileSync(file, 'T first\n')
  const run = startCli(['logs', 'git', '-f'], where)
  const out = () => run.stdout()
  await waitFor(() => out().includes('T first'), { timeoutMs: 30_000, message: 'the existing line is printed' })
  appendFileSync(file, `T appended ${SECRET}\n`)
  await waitFor(() => out().includes('T appended ***'), {
    timeoutMs: 30_000,
    message: 'an appended line is printed, redacted',
  })
  appendFileSync(file, 'T last of the old file\n')
  renameSync(file, `${file}.1`)
  writeFileSync(file, 'T new file\n')
  await waitFor(() => out().includes('T new file'), {
    timeoutMs: 30_000,
    message: 'the new file after rotation is followed',
  })
  assert.ok(
    out().indexOf('T last of the old file') >= 0 &&
      out().indexOf('T last of the old file') < out().indexOf('T new file'),
    `the old file is finished first:\n${out()}`,
  )
  run.interrupt('SIGINT')
  const r = await run.done
  assert.equal(r.code, 0, r.stderr)
  assert.doesNotMatch(r.stdout, /sk-live/)
})
