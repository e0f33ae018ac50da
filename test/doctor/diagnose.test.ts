// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config entries hold literal ${VAR} templates
/**
 * The doctor engine against real MCP servers (the shared fixtures over stdio
 * and streamable HTTP) and real misbehaving processes: states in order of
 * cause, hints, stderr tails, redaction, the official env scrub, parallelism,
 * and that no child outlives a check.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { diagnoseProject, DOCTOR_RESULT_KEYS, type DoctorResult } from '../../src/doctor/index.ts'
import { loadProject } from '../../src/files/project.ts'
import { trustFingerprint } from '../../src/config/fingerprint.ts'
import { trustServers } from '../../src/trust/store.ts'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { isAlive, livePids, pidfilePids, readMarker } from '../support/procs.ts'
import { cleanupAll } from '../support/tmp.ts'
import { PATIENCE_MS, settles, waitFor } from '../support/wait.ts'
import { cleanEnv, closedPort, doctorFixture, fixtureServer, type Sandbox, sandbox } from '../support/sandbox.ts'

after(() => cleanupAll())

function view(s: Sandbox) {
  return loadProject(s.project.path, { dshHome: s.dshHome, home: s.home })
}

async function diagnose(
  s: Sandbox,
  opts: {
    env?: NodeJS.ProcessEnv
    timeoutMs?: number
    trustAll?: boolean
    names?: string[]
    signal?: AbortSignal
    onResult?: (r: DoctorResult) => void
  } = {},
) {
  return diagnoseProject(view(s), {
    env: opts.env ?? cleanEnv(s),
    dshHome: s.dshHome,
    timeoutMs: opts.timeoutMs ?? 30_000,
    trustAll: opts.trustAll ?? true,
    ...(opts.names ? { names: opts.names } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onResult ? { onResult: opts.onResult } : {}),
  })
}

const byName = (results: DoctorResult[], name: string): DoctorResult => {
  const r = results.find((x) => x.name === name)
  assert.ok(r, `no result for ${name}`)
  return r
}

describe('connections', () => {
  test('a good stdio server: ok, tools, server info, latency; every key present', async () => {
    const s = sandbox({ good: fixtureServer('good', ['--tools', 'echo,add,pid']) })
    const [r] = await diagnose(s)
    assert.ok(r)
    assert.deepEqual(Object.keys(r), [...DOCTOR_RESULT_KEYS])
    assert.equal(r.state, 'ok')
    assert.deepEqual(r.tools, ['echo', 'add', 'pid'])
    assert.equal(r.toolCount, 3)
    assert.deepEqual(r.server, { name: 'good', version: '0.0.0-fixture' })
    assert.equal(typeof r.latencyMs, 'number')
    assert.equal(r.error, null)
    assert.equal(r.scope, 'project')
    assert.equal(r.file, s.project.join('.dsh', 'mcp.yml'))
  })

  test('a server that exits at once: failed, exit code, its stderr tail', async () => {
    const s = sandbox({ crash: fixtureServer('crash', ['--crash']) })
    const [r] = await diagnose(s)
    assert.equal(r?.state, 'failed')
    assert.match(r?.error ?? '', /exited with code 1 during initialize/)
    assert.ok(
      r?.stderrTail.some((l) => l.includes('fixture crash requested')),
      JSON.stringify(r?.stderrTail),
    )
    assert.ok(r?.hint)
  })

  test('a server that never answers: timeout within the bound, child reaped', async () => {
    const s = sandbox({ hang: fixtureServer('hang', ['--hang', '--pidfile-dir', join(sandboxPids(), 'hang')]) })
    const [r] = await diagnose(s, { timeoutMs: 700 })
    assert.equal(r?.state, 'timeout')
    assert.match(r?.error ?? '', /no answer to initialize within 700 ms/)
    assert.deepEqual(livePids(join(sandboxPids(), 'hang')), [])
  })

  test('a server that ignores stdin close and SIGTERM is SIGKILLed', async () => {
    const dir = join(sandboxPids(), 'stubborn')
    const s = sandbox({ stubborn: doctorFixture('stubborn.ts', [dir]) })
    // Long enough for the fixture to start (and write its pidfile) on a busy machine.
    const [r] = await diagnose(s, { timeoutMs: 3000 })
    assert.equal(r?.state, 'timeout')
    const pids = pidfilePids(dir)
    assert.equal(pids.length, 1)
    assert.equal(isAlive(pids[0] as number), false)
  })

  test('text on stdout that is not JSON-RPC: the hint says so', async () => {
    const s = sandbox({ garbage: doctorFixture('garbage.ts') })
    const [r] = await diagnose(s, { timeoutMs: 6000 })
    assert.equal(r?.state, 'timeout')
    assert.match(r?.hint ?? '', /not JSON-RPC on stdout/)
  })

  test('a missing command: failed, "command not found", never a timeout', async () => {
    const s = sandbox({ missing: { command: 'dsh-mcp-no-such-command-xyz', args: ['x'] } })
    const [r] = await diagnose(s)
    assert.equal(r?.state, 'failed')
    assert.equal(r?.error, 'command not found: dsh-mcp-no-such-command-xyz')
    assert.match(r?.hint ?? '', /PATH/)
  })

  test('a cwd that does not exist: failed before spawning', async () => {
    const s = sandbox({ nocwd: fixtureServer('nocwd', [], { cwd: 'no/such/dir' }) })
    const [r] = await diagnose(s)
    assert.equal(r?.state, 'failed')
    assert.match(r?.error ?? '', /working directory does not exist: .*no\/such\/dir/)
  })

  test('HTTP: ok with the right bearer, 401 with a wrong one (the token never shows), 404, refused', async () => {
    const srv = await startHttpServer({ name: 'docs', tools: ['search', 'fetch'], requireBearer: 'right-token-1234' })
    const port = await closedPort()
    try {
      const base = new URL(srv.url)
      const s = sandbox({
        docs: { url: srv.url, headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } },
        wrong: { url: srv.url, headers: { Authorization: 'Bearer ${WRONG_TOKEN}' } },
        nopath: { url: `http://127.0.0.1:${base.port}/nope` },
        refused: { url: `http://127.0.0.1:${port}/mcp` },
      })
      const results = await diagnose(s, {
        env: cleanEnv(s, { DOCS_TOKEN: 'right-token-1234', WRONG_TOKEN: 'canary-wrong-5678' }),
      })
      assert.equal(byName(results, 'docs').state, 'ok')
      assert.deepEqual(byName(results, 'docs').tools, ['search', 'fetch'])
      const wrong = byName(results, 'wrong')
      assert.equal(wrong.state, 'failed')
      assert.match(wrong.error ?? '', /^HTTP 401 Unauthorized/)
      assert.match(wrong.hint ?? '', /authentication/)
      const nopath = byName(results, 'nopath')
      assert.match(nopath.error ?? '', /^HTTP 404/)
      assert.match(nopath.hint ?? '', /wrong path/)
      const refused = byName(results, 'refused')
      assert.match(refused.error ?? '', /^connection refused/)
      const text = JSON.stringify(results)
      assert.ok(!text.includes('canary-wrong-5678') && !text.includes('right-token-1234'))
    } finally {
      await srv.close()
    }
  })
})

describe('order of cause', () => {
  test('invalid (file:line:col), disabled, untrusted before a missing variable: none of them is started', async () => {
    const marker = join(sandboxPids(), 'marker-causes')
    const s = sandbox({
      broken: { command: 'node', url: 'http://127.0.0.1:1/mcp' },
      off: fixtureServer('off', ['--marker', marker], { enabled: false }),
      novar: fixtureServer('novar', ['--marker', marker], {
        env: { API_TOKEN: '${DSH_TEST_UNSET_VAR}', OTHER: '${DSH_TEST_UNSET_OTHER}' },
      }),
      stranger: fixtureServer('stranger', ['--marker', marker]),
    })
    const results = await diagnose(s, { trustAll: false })
    const broken = byName(results, 'broken')
    assert.equal(broken.state, 'invalid')
    assert.match(broken.error ?? '', /mcp\.yml:\d+:\d+: error: /)
    assert.equal(byName(results, 'off').state, 'disabled')
    assert.equal(byName(results, 'novar').state, 'untrusted', 'trust is judged before any variable is read')
    const novar = byName(await diagnose(s, { trustAll: true, names: ['novar'] }), 'novar')
    assert.equal(novar.state, 'skipped')
    assert.equal(
      novar.error,
      'not started: env.API_TOKEN uses ${DSH_TEST_UNSET_VAR}, which is not set; env.OTHER uses ${DSH_TEST_UNSET_OTHER}, which is not set',
    )
    const stranger = byName(results, 'stranger')
    assert.equal(stranger.state, 'untrusted')
    assert.match(stranger.error ?? '', /not started/)
    assert.ok(stranger.hint?.endsWith(`dsh-mcp trust -C ${s.project.path} stranger`), stranger.hint ?? '')
    assert.deepEqual(readMarker(marker), [])
    assert.deepEqual(
      results.map((r) => r.name),
      ['broken', 'off', 'novar', 'stranger'],
    )
  })

  test('trusted servers run; a server edited since it was trusted is "changed" and not started', async () => {
    const marker = join(sandboxPids(), 'marker-trust')
    const s = sandbox({ a: fixtureServer('a', ['--marker', marker]), b: fixtureServer('b', ['--marker', marker]) })
    const v = view(s)
    const rowA = v.rows.find((r) => r.name === 'a')
    assert.ok(rowA?.entry)
    await trustServers(s.dshHome, s.project.path, [
      { name: 'a', fingerprint: trustFingerprint(rowA.entry) },
      { name: 'b', fingerprint: 'sha256:something-else' },
    ])
    const results = await diagnose(s, { trustAll: false })
    assert.equal(byName(results, 'a').state, 'ok')
    assert.equal(byName(results, 'b').state, 'untrusted')
    assert.match(byName(results, 'b').error ?? '', /changed since it was trusted/)
    assert.equal(readMarker(marker).length, 1)
  })

  test('DSH_MCP_TRUST_ALL=1 in the environment turns the gate off', async () => {
    const s = sandbox({ a: fixtureServer('a') })
    const results = await diagnoseProject(view(s), {
      env: cleanEnv(s, { DSH_MCP_TRUST_ALL: '1' }),
      dshHome: s.dshHome,
      timeoutMs: 30_000,
    })
    assert.equal(results[0]?.state, 'ok')
  })

  test('user-layer servers need no trust and start in $DSH_HOME; project servers start in the root', async () => {
    const s = sandbox(
      { proj: doctorFixture('env-report.ts') },
      { userServers: { mine: doctorFixture('env-report.ts') } },
    )
    const results = await diagnose(s, { trustAll: false })
    assert.equal(byName(results, 'proj').state, 'untrusted')
    const mine = byName(results, 'mine')
    assert.equal(mine.scope, 'user')
    assert.equal(mine.state, 'failed')
    assert.ok(mine.stderrTail.includes(`cwd: ${s.dshHome}`), JSON.stringify(mine.stderrTail))
    const all = await diagnose(s)
    assert.ok(byName(all, 'proj').stderrTail.includes(`cwd: ${s.project.path}`))
  })
})

describe('launch like the host', () => {
  test('the inherited env is scrubbed like the official client; entry env on top; values redacted', async () => {
    const s = sandbox({
      report: doctorFixture('env-report.ts', ['FROM_ENTRY', 'GITHUB_TOKEN'], {
        env: { FROM_ENTRY: 'entry-canary-value', GITHUB_TOKEN: '${GH_SECRET}' },
      }),
    })
    const env = cleanEnv(s, {
      PLAIN_SETTING: 'x',
      MY_API_KEY: 'k',
      SOME_PASSWORD: 'p',
      DB_SECRET: 's',
      DSH_SOMETHING: 'd',
      dsh_lower: 'l',
      GH_SECRET: 'gh-canary-secret',
    })
    const [r] = await diagnose(s, { env })
    assert.equal(r?.state, 'failed')
    assert.match(r?.error ?? '', /exited with code 3/)
    const keys = (r?.stderrTail.find((l) => l.startsWith('keys: ')) ?? '').slice(6).split(' ')
    for (const k of ['PLAIN_SETTING', 'PATH', 'FROM_ENTRY', 'GITHUB_TOKEN'])
      assert.ok(keys.includes(k), `${k} missing from ${keys}`)
    for (const k of ['MY_API_KEY', 'SOME_PASSWORD', 'DB_SECRET', 'DSH_SOMETHING', 'dsh_lower', 'GH_SECRET', 'DSH_HOME'])
      assert.ok(!keys.includes(k), `${k} leaked`)
    assert.ok(r?.stderrTail.includes('value FROM_ENTRY: ***'))
    assert.ok(r?.stderrTail.includes('value GITHUB_TOKEN: ***'))
    const text = JSON.stringify(r)
    assert.ok(!text.includes('entry-canary-value') && !text.includes('gh-canary-secret'))
  })
})

describe('parallel, bounded, reaped', () => {
  test('six slow servers are checked at once, not one after another', async () => {
    // Parallel means all six are alive together: servers that never answer (60 s bound), checked
    // until all six run at once, then aborted. One after another, only one would ever run. How much
    // faster parallel is than the serial sum is bench row 6(b).
    const dir = join(sandboxPids(), 'six')
    const servers = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`slow${i}`, fixtureServer(`slow${i}`, ['--hang', '--pidfile-dir', dir])]),
    )
    const s = sandbox(servers)
    const ac = new AbortController()
    const running = diagnose(s, { timeoutMs: 60_000, signal: ac.signal })
    await waitFor(() => livePids(dir).length === 6, { message: 'the six servers were never all running at once' })
    ac.abort()
    const results = await settles(running, 'diagnose after abort()')
    assert.deepEqual(
      results.map((r) => r.state),
      Array(6).fill('skipped'),
    )
    assert.deepEqual(livePids(dir), [])
  })

  test('onResult fires once per server; results come back in config order', async () => {
    const s = sandbox({
      z: fixtureServer('z', ['--init-delay-ms', '300']),
      off: fixtureServer('off', [], { enabled: false }),
      a: fixtureServer('a'),
    })
    const seen: string[] = []
    const results = await diagnose(s, { onResult: (r) => seen.push(r.name) })
    assert.deepEqual(
      results.map((r) => r.name),
      ['z', 'off', 'a'],
    )
    assert.deepEqual([...seen].sort(), ['a', 'off', 'z'])
    assert.equal(seen[0], 'off')
  })

  test('names narrow the check', async () => {
    const s = sandbox({ a: fixtureServer('a'), b: fixtureServer('b', ['--crash']) })
    const results = await diagnose(s, { names: ['a'] })
    assert.deepEqual(
      results.map((r) => r.name),
      ['a'],
    )
  })

  test('abort mid-run: probes stop as skipped ("interrupted") and every child is reaped', async () => {
    const dir = join(sandboxPids(), 'abort')
    const s = sandbox({
      h1: fixtureServer('h1', ['--hang', '--pidfile-dir', dir]),
      h2: fixtureServer('h2', ['--hang', '--pidfile-dir', dir]),
    })
    const ac = new AbortController()
    const running = diagnose(s, { timeoutMs: 60_000, signal: ac.signal })
    await until(() => livePids(dir).length === 2)
    ac.abort()
    // The probes' own bound is 60 s: ending well before it is ending on the abort.
    const results = await settles(running, 'diagnose after abort()')
    assert.deepEqual(
      results.map((r) => [r.state, r.error]),
      [
        ['skipped', 'interrupted'],
        ['skipped', 'interrupted'],
      ],
    )
    assert.deepEqual(livePids(dir), [])
  })
})

// --- helpers -----------------------------------------------------------------

let pidsRoot: Sandbox | undefined
function sandboxPids(): string {
  pidsRoot ??= sandbox({})
  return pidsRoot.pids
}

/** Poll a condition (no fixed sleep: returns as soon as it holds; fails after `PATIENCE_MS`). */
async function until(cond: () => boolean, ms = PATIENCE_MS): Promise<void> {
  const t0 = performance.now()
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}
