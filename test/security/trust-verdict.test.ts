// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config entries hold literal ${VAR} templates
/**
 * Issue 12 class 8: one judgement. `verdictOf` (plan/verdict.ts) is the
 * only decision; the host, `doctor`, `list`, `get` and `status` map it.
 * Tried as an attacker: doctor must never start what the host would not —
 * trust is judged before any `${VAR}` is read, and the host's
 * post-expansion checks hold in doctor too. The order of cause is pinned by
 * test/plan/verdict.test.ts; here real-host and real-CLI tests prove with marker files that nothing
 * the verdict refuses is spawned, and that every surface reports the same tag.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { waitFor } from '../support/host.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cli, serverOf, trustAll } from '../support/trust.ts'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'

const { pids, marker } = markerRig('verdict')

test('doctor never starts an untrusted server, even when every variable it uses is set; trusted, the same launch runs', async (t) => {
  const m = marker('doc')
  const w = await startWorld({ trust: 'require' })
  t.after(() => w.dispose())
  const p = projectWith({
    evil: {
      command: '${EVIL_NODE}',
      args: stdioFixtureArgs({ name: 'evil', tools: ['t'], marker: m, pidfileDir: pids }),
    },
  })
  const env = { EVIL_NODE: process.execPath }
  const r = await runCli(['doctor', '--json', '-C', p.path], {
    cwd: p.path,
    dshHome: w.home.path,
    home: w.home.path,
    env,
  })
  const results = JSON.parse(r.stdout) as { name: string; state: string; hint: string }[]
  assert.equal(results[0]?.state, 'untrusted')
  assert.match(results[0]?.hint ?? '', /dsh-mcp trust -C /)
  assert.deepEqual(readMarker(m), [], 'doctor did not start it')
  await trustAll(w, p.path)
  const ok = await runCli(['doctor', '--json', '-C', p.path], {
    cwd: p.path,
    dshHome: w.home.path,
    home: w.home.path,
    env,
  })
  assert.equal((JSON.parse(ok.stdout) as { state: string }[])[0]?.state, 'ok', ok.stdout + ok.stderr)
  assert.equal(readMarker(m).length, 1, 'trusted, doctor ran it once')
})

test('doctor refuses a post-expansion header the host refuses: skipped, with the field named, no request', async (t) => {
  const w = await startWorld({ trust: 'require' })
  t.after(() => w.dispose())
  const p = projectWith({ h: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-A': '${H}' } } })
  await trustAll(w, p.path)
  const r = await runCli(['doctor', '--json', '-C', p.path], {
    cwd: p.path,
    dshHome: w.home.path,
    home: w.home.path,
    env: { H: 'a\nInjected: 1' },
  })
  const res = (JSON.parse(r.stdout) as { state: string; error: string }[])[0]!
  assert.equal(res.state, 'skipped')
  assert.match(res.error, /headers\.X-A/)
  assert.doesNotMatch(r.stdout + r.stderr, /Injected/)
})

test('host, list --json and doctor map one verdict: needs-trust / disabled / skipped / refused / runs agree for every row', async (t) => {
  const m = { run: marker('run'), fresh: marker('fresh'), off: marker('off'), novar: marker('novar') }
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const entry = (n: keyof typeof m, extra: Record<string, unknown> = {}) =>
    stdioEntry(n, { tools: ['t'], marker: m[n], pidfileDir: pids, extra })
  const p = projectWith({
    run: entry('run'),
    off: entry('off', { enabled: false }),
    novar: entry('novar', { env: { T: '${DSH_SEC_UNSET}' } }),
    bad: { command: 'node', url: 'http://x' },
  })
  await trustAll(w, p.path)
  p.write('.dsh/mcp.local.yml', friendly({ fresh: entry('fresh') }))
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  await waitFor(() => serverOf(w, p.path, 'run').state === 'mounted', {
    timeoutMs: 30_000,
    message: 'run never mounted',
  })
  const list = JSON.parse((await cli(w, p.path, ['list', '--json'])).stdout) as {
    name: string
    state: string
    verdict: { tag: string }
  }[]
  const doctor = JSON.parse((await cli(w, p.path, ['doctor', '--json'], { expectFail: true })).stdout) as {
    name: string
    state: string
  }[]
  const want: Record<string, [string, string, string]> = {
    // name: [host status state, list verdict tag, doctor state]; one word per verdict (plan/states.ts)
    run: ['mounted', 'runs', 'ok'],
    fresh: ['untrusted', 'needs-trust', 'untrusted'],
    off: ['disabled', 'disabled', 'disabled'],
    novar: ['skipped', 'skipped', 'skipped'],
    bad: ['invalid', 'refused', 'invalid'],
  }
  for (const [name, [host, tag, doc]] of Object.entries(want)) {
    const s = serverOf(w, p.path, name)
    assert.equal(s.state, host, `host ${name}`)
    if (name !== 'run') assert.equal(s.verdict?.tag, tag, `status verdict ${name}`)
    assert.equal(list.find((r) => r.name === name)?.verdict.tag, tag, `list ${name}`)
    assert.equal(doctor.find((r) => r.name === name)?.state, doc, `doctor ${name}`)
  }
  assert.equal(readMarker(m.run).length, 2, 'run: once by the host, once by doctor')
  for (const n of ['fresh', 'off', 'novar'] as const) assert.deepEqual(readMarker(m[n]), [], `${n} never started`)
})
