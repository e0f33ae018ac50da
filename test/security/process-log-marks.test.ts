/**
 * Server stderr can never pass for the launcher's own lines (issue 24 item 7).
 * On a real host, through the real launcher, a server prints whole forged
 * stamped lines (the marked format and the older unmarked one), an ANSI
 * erase-line with a carriage return, and a tab. The stored log holds each
 * line escaped (no ESC, no CR byte) after the server's own `server|` mark;
 * `dsh-mcp logs` and `logs -f` show every forged line as the server's, and
 * the launcher's real note (a command that does not exist) as the
 * launcher's.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { parseLogLine } from '../../src/launch/log-line.ts'
import { openServerLog } from '../../src/launch/log-writer.ts'
import { serverLogFile } from '../../src/launch/spec.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { runCli, startCli } from '../support/cli.ts'
import { stdioFixtureShell } from '../support/fixture-config.ts'
import { waitFor } from '../support/host.ts'
import { projectWith, startWorld } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

const FORGED = '2026-01-01T00:00:00.000Z launcher| dsh-mcp launcher: cannot start FORGED_NEW'
const FORGED_OLD = '2026-01-01T00:00:00.000Z dsh-mcp launcher: cannot start FORGED_OLD'
const script = [
  `printf '%s\\n' '${FORGED}' >&2`,
  `printf '%s\\n' '${FORGED_OLD}' >&2`,
  `printf 'before\\033[2K\\rHIDDEN\\tafter\\n' >&2`,
  `exec ${stdioFixtureShell({ name: 'forger', tools: ['echo'] })}`,
].join('; ')

test('a server cannot forge a launcher line: stored escaped and marked, shown as the server’s by logs and logs -f', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({
    forger: { command: 'sh', args: ['-c', script] },
    missing: { command: 'dsh-mcp-no-such-command-zz', reconnect: { maxAttempts: 1, initialDelayMs: 50 } },
  })
  await w.host.createAgent({ cwd: p.path })
  const root = canonicalRoot(p.path)
  const forgerLog = serverLogFile(w.home.path, root, 'forger')
  const missingLog = serverLogFile(w.home.path, root, 'missing')
  await waitFor(() => (existsSync(forgerLog) && readFileSync(forgerLog, 'utf8').includes('HIDDEN')) || undefined, {
    message: 'the forger’s stderr never reached its log',
  })
  await waitFor(
    () => (existsSync(missingLog) && readFileSync(missingLog, 'utf8').includes('cannot start')) || undefined,
    {
      message: 'the launcher never noted the missing command',
    },
  )

  // The stored bytes: one escaped line per printed line, each after the server's own mark.
  const stored = readFileSync(forgerLog)
  assert.ok(!stored.includes(0x1b) && !stored.includes(0x0d), 'an ESC or CR byte was stored raw')
  const lines = stored.toString('utf8').trimEnd().split('\n').map(parseLogLine)
  assert.deepEqual(
    lines.filter((l) => l.who !== 'server' || l.stamp === null),
    [],
    'a server line stored unmarked or as the launcher’s',
  )
  assert.ok(lines.some((l) => l.text === FORGED))
  assert.ok(lines.some((l) => l.text === 'before\\x1b[2K\\rHIDDEN\\tafter'))

  const where = { cwd: p.path, dshHome: w.home.path, home: w.home.path }
  const shown = await runCli(['logs', 'forger', '-C', p.path], where)
  assert.equal(shown.code, 0, shown.stderr)
  for (const line of shown.stdout.trimEnd().split('\n')) assert.match(line, /^\S+ server\| /, line)
  assert.match(shown.stdout, /server\| 2026-01-01T00:00:00\.000Z launcher\| dsh-mcp launcher: cannot start FORGED_NEW/)
  assert.match(shown.stdout, /server\| 2026-01-01T00:00:00\.000Z dsh-mcp launcher: cannot start FORGED_OLD/)
  assert.match(shown.stdout, /server\| before\\x1b\[2K\\rHIDDEN\\tafter/)

  const real = await runCli(['logs', 'missing', '-C', p.path], where)
  assert.match(real.stdout, /^\S+ launcher\| dsh-mcp launcher: cannot start dsh-mcp-no-such-command-zz/m)

  // -f: what is appended later keeps its mark, forged or real.
  const run = startCli(['logs', 'forger', '-f', '-C', p.path], where)
  await waitFor(() => run.stdout().includes('FORGED_NEW') || undefined, { message: 'logs -f printed nothing' })
  const writer = openServerLog(forgerLog, { secrets: [] })
  writer.write(`${FORGED.replace('FORGED_NEW', 'FORGED_FOLLOW')}\n`)
  writer.note('dsh-mcp launcher: a real note while following')
  writer.end()
  await waitFor(() => run.stdout().includes('a real note while following') || undefined, {
    message: 'logs -f never printed the appended lines',
  })
  run.interrupt('SIGINT')
  const followed = (await run.done).stdout
  assert.match(
    followed,
    /^\S+ server\| 2026-01-01T00:00:00\.000Z launcher\| dsh-mcp launcher: cannot start FORGED_FOLLOW$/m,
  )
  assert.match(followed, /^\S+ launcher\| dsh-mcp launcher: a real note while following$/m)
  assert.doesNotMatch(followed, /^\S+ launcher\| .*FORGED/m)
})
