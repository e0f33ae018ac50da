// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config entries hold literal ${VAR} templates
/**
 * `dsh-mcp doctor` and `dsh-mcp list --check` end to end: the CLI against
 * real fixture servers — exit codes, the exact JSON shape, human output,
 * secrets never printed, no child left behind (also after Ctrl-C). The bin
 * on Node 20 and a real SIGINT: test/e2e/cli-binary.test.ts.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { DOCTOR_RESULT_KEYS } from '../../src/doctor/types.ts'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { doctorFixture, fixtureServer, type Sandbox, sandbox } from '../support/sandbox.ts'
import { livePids } from '../support/procs.ts'
import { cleanupAll } from '../support/tmp.ts'
import { settles, waitFor } from '../support/wait.ts'
import { runCli, startCli } from '../support/cli.ts'
after(() => cleanupAll())

const cli = (s: Sandbox, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: s.project.path, dshHome: s.dshHome, home: s.home, env: { DSH_MCP_TRUST_ALL: '1', ...env } })

describe('doctor', () => {
  test('--json: one object per server with exactly the documented keys; exit 1 when one is broken', async () => {
    const s = sandbox({
      good: fixtureServer('good', ['--tools', 'echo,add']),
      crash: fixtureServer('crash', ['--crash']),
    })
    const r = await cli(s, ['doctor', '--json'])
    assert.equal(r.code, 1, r.stderr)
    const results = JSON.parse(r.stdout) as Record<string, unknown>[]
    assert.equal(results.length, 2)
    for (const x of results) assert.deepEqual(Object.keys(x), [...DOCTOR_RESULT_KEYS])
    assert.deepEqual(
      results.map((x) => [x.name, x.state, x.toolCount]),
      [
        ['good', 'ok', 2],
        ['crash', 'failed', 0],
      ],
    )
    assert.deepEqual(results[0]?.tools, ['echo', 'add'])
    assert.ok(((results[1]?.stderrTail ?? []) as string[]).some((l) => l.includes('fixture crash requested')))
  })

  test('exit 0 when every checked server is ok; disabled servers are not failures', async () => {
    const s = sandbox({ good: fixtureServer('good'), off: fixtureServer('off', ['--crash'], { enabled: false }) })
    const r = await cli(s, ['doctor'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /^ok +good +1 tool \(echo\) · \d+ ms · good 0\.0\.0-fixture$/m)
    assert.match(r.stdout, /^disabled +off/m)
    assert.match(r.stdout, /^2 servers: 1 ok, 1 disabled · \d+\.\d s$/m)
  })

  test('human output: error, hint and stderr tail of a failure; a missing command; a timeout', async () => {
    const s = sandbox({
      crash: fixtureServer('crash', ['--crash']),
      missing: { command: 'dsh-mcp-no-such-command-xyz' },
      hang: fixtureServer('hang', ['--hang']),
    })
    const r = await cli(s, ['doctor', 'crash', 'missing'])
    assert.equal(r.code, 1)
    assert.match(r.stdout, /^failed +crash +exited with code 1 during initialize \(\d+ ms\)$/m)
    assert.match(r.stdout, /^ +hint: its stderr tail says why/m)
    assert.match(r.stdout, /^ +│ \[crash\] fixture crash requested$/m)
    assert.match(r.stdout, /^failed +missing +command not found: dsh-mcp-no-such-command-xyz/m)
    assert.match(r.stdout, /^2 servers: 2 failed · /m)
    const hang = await cli(s, ['doctor', 'hang', '--timeout', '600'])
    assert.equal(hang.code, 1)
    assert.match(hang.stdout, /^timeout +hang +no answer to initialize within 600 ms/m)
    assert.match(hang.stdout, /^ +hint: is it an MCP server on stdio\?/m)
  })

  test('untrusted servers are not started; the exact trust command is printed; exit 1', async () => {
    const s = sandbox({ stranger: fixtureServer('stranger') })
    const r = await runCli(['doctor'], { cwd: s.project.path, dshHome: s.dshHome, home: s.home })
    assert.equal(r.code, 1)
    assert.match(r.stdout, /^untrusted stranger +not trusted yet: not started$/m)
    assert.ok(r.stdout.includes(`dsh-mcp trust -C ${s.project.path} stranger`), r.stdout)
  })

  test('secrets never print: env values, header values and the server’s own stderr are redacted', async () => {
    const srv = await startHttpServer({ name: 'docs', tools: ['search'], requireBearer: 'the-right-bearer' })
    try {
      const s = sandbox({
        report: doctorFixture('env-report.ts', ['API_TOKEN', 'LITERAL'], {
          env: { API_TOKEN: '${CANARY_TOKEN}', LITERAL: 'literal-canary-3141' },
        }),
        docs: { url: srv.url, headers: { Authorization: 'Bearer ${CANARY_BEARER}' } },
      })
      const env = { CANARY_TOKEN: 'canary-token-2718', CANARY_BEARER: 'canary-bearer-1618' }
      for (const args of [['doctor'], ['doctor', '--json'], ['list', '--check'], ['list', '--check', '--json']]) {
        const r = await cli(s, args, env)
        assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`)
        const all = r.stdout + r.stderr
        assert.match(all, /HTTP 401/)
        for (const secret of ['canary-token-2718', 'canary-bearer-1618', 'literal-canary-3141'])
          assert.ok(!all.includes(secret), `${args.join(' ')} printed ${secret}`)
      }
    } finally {
      await srv.close()
    }
  })

  test('no child process is left behind after doctor exits (ok, failed, timed out and stubborn servers)', async () => {
    const s0 = sandbox({})
    const dir = join(s0.pids, 'reap')
    const s = sandbox({
      a: fixtureServer('a', ['--pidfile-dir', dir]),
      b: fixtureServer('b', ['--init-delay-ms', '100', '--pidfile-dir', dir]),
      hang: fixtureServer('hang', ['--hang', '--pidfile-dir', dir]),
      stubborn: doctorFixture('stubborn.ts', [dir]),
    })
    // Long enough for the healthy two to start on a busy machine; the other two reach it.
    const r = await cli(s, ['doctor', '--timeout', '15000', '--json'])
    assert.equal(r.code, 1, r.stderr)
    const states = (JSON.parse(r.stdout) as { state: string }[]).map((x) => x.state)
    assert.deepEqual(states, ['ok', 'ok', 'timeout', 'timeout'])
    assert.deepEqual(livePids(dir), [])
  })

  test('Ctrl-C mid-run: every child is reaped and the exit code is 130', async () => {
    const s0 = sandbox({})
    const dir = join(s0.pids, 'sigint')
    const s = sandbox({
      h1: fixtureServer('h1', ['--hang', '--pidfile-dir', dir]),
      h2: fixtureServer('h2', ['--hang', '--pidfile-dir', dir]),
      stubborn: doctorFixture('stubborn.ts', [dir]),
    })
    const run = startCli(['doctor', '--timeout', '60000'], {
      cwd: s.project.path,
      dshHome: s.dshHome,
      home: s.home,
      env: { DSH_MCP_TRUST_ALL: '1' },
    })
    await waitFor(() => livePids(dir).length === 3, { message: 'the three servers started' })
    run.interrupt('SIGINT')
    // `--timeout 60000`: ending well before it is ending on the signal.
    const r = await settles(run.done, 'doctor after SIGINT')
    assert.equal(r.code, 130, r.stderr)
    assert.match(r.stderr, /interrupted/)
    assert.deepEqual(livePids(dir), [])
  })

  test('usage and lookup errors: a bad --timeout is exit 2, an unknown name exit 1', async () => {
    const s = sandbox({ a: fixtureServer('a') })
    const bad = await cli(s, ['doctor', '--timeout', 'soon'])
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /--timeout: expected a whole number of milliseconds/)
    const unknown = await cli(s, ['doctor', 'nope'])
    assert.equal(unknown.code, 1)
    assert.match(unknown.stderr, /no server named "nope"/)
    assert.match(unknown.stderr, /servers: a/)
  })

  test('a config file that does not parse: its file:line:col on stderr, exit 1', async () => {
    const s = sandbox({ a: fixtureServer('a') })
    s.project.write('.mcp.json', '{ "mcpServers": { "x": { "command": "y" }, }')
    const r = await cli(s, ['doctor', '--json'])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /\.mcp\.json:\d+:\d+: error: /)
    assert.deepEqual(
      (JSON.parse(r.stdout) as { state: string }[]).map((x) => x.state),
      ['ok'],
    )
  })

  test('no servers at all: a one-line message, exit 0; --json prints []', async () => {
    const s = sandbox({})
    const r = await cli(s, ['doctor'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /no MCP servers configured/)
    const j = await cli(s, ['doctor', '--json'])
    assert.equal(j.stdout, '[]\n')
  })
})

describe('list --check', () => {
  test('the table gains a CHECK column; JSON rows a check object; exit 1 on a broken server', async () => {
    const s = sandbox({
      good: fixtureServer('good', ['--tools', 'echo,add']),
      crash: fixtureServer('crash', ['--crash']),
    })
    const table = await cli(s, ['list', '--check'])
    assert.equal(table.code, 1, table.stderr)
    assert.match(table.stdout, /^NAME +SCOPE +STATE +TRANSPORT +TARGET +EFFECTIVE +CHECK/m)
    assert.match(table.stdout, /^good +project +active .* ok/m)
    assert.match(table.stdout, /^failed crash: exited with code 1 during initialize/m)
    const j = await cli(s, ['list', '--check', '--json'])
    assert.equal(j.code, 1)
    const rows = JSON.parse(j.stdout) as { name: string; check: Record<string, unknown> }[]
    const good = rows.find((x) => x.name === 'good')
    assert.deepEqual(
      Object.keys(good?.check ?? {}),
      DOCTOR_RESULT_KEYS.filter((k) => k !== 'name' && k !== 'scope' && k !== 'file'),
    )
    assert.equal(good?.check.state, 'ok')
    assert.deepEqual(good?.check.tools, ['echo', 'add'])
    assert.equal(rows.find((x) => x.name === 'crash')?.check.state, 'failed')
  })

  test('all ok: exit 0; without --check no check object and no process is started', async () => {
    const s0 = sandbox({})
    const marker = join(s0.pids, 'marker-list')
    const s = sandbox({ good: fixtureServer('good', ['--marker', marker]) })
    const ok = await cli(s, ['list', '--check', '--json'])
    assert.equal(ok.code, 0, `${ok.stdout}\n${ok.stderr}`)
    const plain = await cli(s, ['list', '--json'])
    assert.equal(plain.code, 0)
    assert.equal((JSON.parse(plain.stdout) as Record<string, unknown>[])[0]?.check, undefined)
    const { readMarker } = await import('../support/procs.ts')
    assert.equal(readMarker(marker).length, 1)
  })
})
