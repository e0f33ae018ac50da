// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config entries hold literal ${VAR} templates
/**
 * Issue 12 class 8: one judgement. `verdictOf` (plan/verdict.ts) is the
 * only decision; the host, `doctor`, `list`, `get` and `status` map it.
 * Tried as an attacker: doctor must never start what the host would not —
 * trust is judged before any `${VAR}` is read, and the host's
 * post-expansion checks hold in doctor too. Unit tests pin the order of
 * cause; real-host and real-CLI tests prove with marker files that nothing
 * the verdict refuses is spawned, and that every surface reports the same tag.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type LayerInput, mergeLayers, type Row } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { fileVerdictOf, verdictOf, type VerdictInput } from '../../src/plan/verdict.ts'
import { waitFor } from '../support/host.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cli, serverOf, trustAll } from '../support/trust.ts'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'

const { pids, marker } = markerRig('verdict')

const ROOT = '/p'
function rows(files: { scope: 'local' | 'project' | 'user'; file: string; text: string }[]): Row[] {
  const inputs: LayerInput[] = files.map((f, i) => ({
    layer: {
      scope: f.scope,
      format: 'friendly',
      file: f.file,
      rank: f.scope === 'local' ? 0 : f.scope === 'project' ? 1 : 4 + i,
    },
    parsed: parseConfigText(f.text, { file: f.file, format: 'friendly', allowPartial: f.scope === 'local' }),
  }))
  return mergeLayers(inputs)
}
const rowNamed = (rs: Row[], name: string, state?: string) =>
  rs.find((r) => r.name === name && (state === undefined || r.state === state))!

function input(
  o: Partial<VerdictInput> & { answer?: ReturnType<VerdictInput['trust']> } = {},
): VerdictInput & { asked: string[] } {
  const asked: string[] = []
  return {
    root: ROOT,
    env: {},
    dshHome: '/h',
    platform: 'linux',
    trust: (r) => {
      asked.push(r.name)
      return o.answer ?? 'trusted'
    },
    asked,
    ...o,
  }
}

test('verdictOf: the order of cause, one tag per row', () => {
  const rs = rows([
    { scope: 'local', file: '/p/.dsh/mcp.local.yml', text: 'servers:\n  u:\n    env: {NODE_OPTIONS: "--require x"}\n' },
    {
      scope: 'project',
      file: '/p/.dsh/mcp.yml',
      text: 'servers:\n  a:\n    command: node\n  off:\n    command: node\n    enabled: false\n  bad:\n    command: node\n    url: http://x\n  v:\n    command: ${CMD}\n  s:\n    command: shadowed-by-local\n',
    },
    {
      scope: 'user',
      file: '/h/mcp.yml',
      text: 'servers:\n  u:\n    command: node\n  mine:\n    command: node\n  a:\n    command: user-a\n',
    },
  ])
  const tag = (r: Row, i = input()) => {
    const v = verdictOf(r, i)
    return v.tag === 'needs-trust' || v.tag === 'refused'
      ? `${v.tag}:${v.why}`
      : v.tag === 'skipped'
        ? `skipped:${v.variables.join(',')}`
        : v.tag
  }
  assert.equal(tag(rowNamed(rs, 'a', 'active')), 'runs')
  assert.equal(tag(rowNamed(rs, 'a', 'shadowed')), 'shadowed')
  assert.equal(tag(rowNamed(rs, 'off')), 'disabled')
  assert.equal(tag(rowNamed(rs, 'bad')), 'refused:invalid')
  assert.equal(tag(rowNamed(rs, 'v')), 'skipped:CMD')
  assert.equal(tag(rowNamed(rs, 'mine')), 'runs', 'a user-only row needs no trust')
  // Trust answers map to their reasons; a user row with a repository override reads as a repository contribution.
  assert.equal(tag(rowNamed(rs, 'a', 'active'), input({ answer: 'untrusted' })), 'needs-trust:new')
  assert.equal(tag(rowNamed(rs, 'a', 'active'), input({ answer: 'changed' })), 'needs-trust:changed')
  assert.equal(
    tag(rowNamed(rs, 'a', 'active'), input({ answer: 'store-problem', storeProblem: 'x is a symbolic link' })),
    'needs-trust:store-problem',
  )
  assert.equal(tag(rowNamed(rs, 'u'), input({ answer: 'untrusted' })), 'needs-trust:repository-contribution')
  const noTrustAsked = input({ answer: 'untrusted' })
  verdictOf(rowNamed(rs, 'mine'), noTrustAsked)
  assert.deepEqual(noTrustAsked.asked, [], 'the gate is never asked about a user-only row')
  // A file the reading edge refused has no rows: it is judged as a whole (refused, with its kind), never row by row.
  const refusedFile = {
    file: '/p/.dsh/mcp.local.yml',
    ok: false,
    diagnostics: [],
    refused: { reason: 'ownership' as const, message: 'owned by uid 7' },
  }
  assert.deepEqual(fileVerdictOf(refusedFile), {
    tag: 'refused',
    why: 'ownership',
    file: '/p/.dsh/mcp.local.yml',
    reason: 'owned by uid 7',
  })
  assert.equal(fileVerdictOf({ file: '/p/.dsh/mcp.yml', ok: true, diagnostics: [] }), undefined)
  // Gate off: no trust asked, the row runs.
  const off = input({ answer: 'untrusted', gateOff: true })
  assert.equal(tag(rowNamed(rs, 'u'), off), 'runs')
  assert.deepEqual(off.asked, [])
})

test('verdictOf judges trust before reading any variable: an untrusted row reads no env at all', () => {
  const rs = rows([
    {
      scope: 'project',
      file: '/p/.dsh/mcp.yml',
      text: 'servers:\n  v:\n    command: ${CMD}\n    env: {T: "${TOKEN}"}\n',
    },
  ])
  const read: string[] = []
  const env = new Proxy({} as Record<string, string>, {
    get: (_t, k) => {
      if (typeof k === 'string') read.push(k)
      return undefined
    },
  })
  const v = verdictOf(rowNamed(rs, 'v'), input({ env, answer: 'untrusted' }))
  assert.equal(v.tag, 'needs-trust')
  assert.deepEqual(read, [])
  assert.equal(verdictOf(rowNamed(rs, 'v'), input({ env })).tag, 'skipped')
})

test('verdictOf keeps the host post-expansion checks: a variable that brings a line break into a header is skipped, never run', () => {
  const rs = rows([
    {
      scope: 'project',
      file: '/p/.dsh/mcp.yml',
      text: 'servers:\n  h:\n    url: http://127.0.0.1:1/mcp\n    headers: {X-A: "${H}"}\n',
    },
  ])
  const v = verdictOf(rowNamed(rs, 'h'), input({ env: { H: 'a\r\nInjected: 1' } }))
  assert.equal(v.tag, 'skipped')
  assert.match(v.reason, /headers\.X-A .*once its variables are expanded/)
  assert.doesNotMatch(v.reason, /Injected/)
})

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
