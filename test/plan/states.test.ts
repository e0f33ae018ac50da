// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * One state vocabulary (src/plan/states.ts): one fixture situation per
 * verdict — runs, each needs-trust kind (new, changed, a repository file
 * overriding a user server, a trust store that cannot be used), skipped for
 * a missing variable and for one withheld from the checkout's `.env`,
 * refused, disabled, shadowed — rendered through every edge: `list`, `list
 * --json`, `get --json`, `status --json` (a status file written by the
 * host's real writer from the real plan), the web panel's data
 * (`webProject`), the agent's prompt lines (`promptText`) and `doctor
 * --json`. Each edge must read what the table says, and they must agree.
 */
import assert from 'node:assert/strict'
import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { explainProject } from '../../src/host/explain.ts'
import type { Mount } from '../../src/host/mounts.ts'
import { createStatusWriter, serverSnapshots } from '../../src/host/status.ts'
import { promptText } from '../../src/host/tell.ts'
import { webProject } from '../../src/host/web.ts'
import { defaultLocations } from '../../src/files/locations.ts'
import { loadProject } from '../../src/files/project.ts'
import { judgeView } from '../../src/plan/desired.ts'
import { listState, SIGNATURE_STATES, SIGNATURE_TONE, settledState, signatureWords } from '../../src/plan/states.ts'
import { canonicalRoot, loadTrustStore } from '../../src/trust/store.ts'
import { trustAnswerOf } from '../../src/trust/state.ts'
import { runCli } from '../support/cli.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { friendly } from '../support/runtime.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'

const fixture = (name: string, extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: stdioFixtureArgs({ name, tools: ['t'] }),
  ...extra,
})

/** name → [list state, verdict tag (and why), status state, panel/prompt kind or null, doctor state]. */
type Expect = [string, string, string, string | null, string | null]
const TABLE: Record<string, Expect> = {
  run: ['active', 'runs', 'mounted', null, 'ok'],
  fresh: ['untrusted', 'needs-trust:new', 'untrusted', 'untrusted', 'untrusted'],
  changed: ['untrusted', 'needs-trust:changed', 'untrusted', 'changed', 'untrusted'],
  mine: ['untrusted', 'needs-trust:repository-contribution', 'untrusted', 'untrusted', 'untrusted'],
  novar: ['skipped', 'skipped', 'skipped', 'needs-variable', 'skipped'],
  withheld: ['skipped', 'skipped', 'skipped', 'env-withheld', 'skipped'],
  bad: ['invalid', 'refused:invalid', 'invalid', 'invalid', 'invalid'],
  off: ['disabled', 'disabled', 'disabled', null, 'disabled'],
  sh: ['shadowed', 'shadowed', 'shadowed', null, null],
}

const silent = { info() {}, warn() {}, error() {}, debug() {}, once() {}, forget() {} }

async function setup() {
  const tmp = makeTempDir('dsh-mcp-states-')
  const dshHome = tmp.join('.dsh')
  const o = { dshHome, home: tmp.path }
  const servers = (changedTools: string[]) =>
    friendly({
      run: fixture('run'),
      fresh: fixture('fresh'),
      changed: fixture('changed', { env: { TOOLS: changedTools.join(',') } }),
      novar: fixture('novar', { env: { T: '${DSH_STATES_UNSET}' } }),
      withheld: fixture('withheld', { env: { T: '${DSH_STATES_WITHHELD}' } }),
      bad: { command: 'node', url: 'http://127.0.0.1:9/' },
      off: fixture('off', { enabled: false }),
      sh: fixture('sh'),
    })
  const project = makeProject({ '.dsh/mcp.yml': servers(['t']) })
  const run = (args: string[]) => runCli([...args, '-C', project.path], { cwd: project.path, ...o })
  const trusted = await run(['trust', 'run', 'changed', 'novar', 'withheld', 'off', '--yes'])
  assert.equal(trusted.code, 0, trusted.stderr)
  // Changed after it was trusted; a local file shadows `sh` and overrides the user's own `mine`.
  project.write('.dsh/mcp.yml', servers(['t', 'u']))
  project.write(
    '.dsh/mcp.local.yml',
    friendly({ sh: fixture('sh', { enabled: false }), mine: { env: { X: 'local' } } }),
  )
  tmp.write('.dsh/mcp.yml', friendly({ mine: fixture('mine') }))
  return { project, dshHome, home: tmp.path, run }
}

/** The host's side, through its own pure parts: the plan, the snapshots (the run row mounted), the written status, the panel and the prompt. */
async function hostSide(root: string, dshHome: string, home: string) {
  const loc = defaultLocations({ HOME: home, DSH_HOME: dshHome }, { dshHome })
  const view = loadProject(root, loc)
  const { store, refused } = loadTrustStore(dshHome, root)
  const canonical = canonicalRoot(root)
  const { placements } = judgeView(view.rows, root, {
    env: { ...process.env, DSH_STATES_WITHHELD: 'from-dotenv' },
    withheld: new Set(['DSH_STATES_WITHHELD']),
    dshHome,
    platform: process.platform,
    trust: (_r, row) => trustAnswerOf(store, refused, canonical, row),
    storeProblem: () => refused,
  })
  const run = placements.find((p) => p.name === 'run')
  const mounts = new Map<string, Mount>()
  if (run?.key) mounts.set(run.key, { state: 'mounted', error: null, effectiveName: 'run' } as unknown as Mount)
  const counts = new Map(run?.key ? [[run.key, 1]] : [])
  const rows = serverSnapshots(placements, mounts, counts)
  const writer = createStatusWriter(dshHome, silent)
  writer.write(root, rows)
  await writer.settled()
  const panel = webProject(root, 1, placements, rows, [])
  const reasons = explainProject(root, placements, rows, [])
  return { placements, panel, prompt: promptText({ root, active: placements.length, reasons }) }
}

test('one situation per verdict reads the same in list, list --json, get, status, the panel, the prompt and doctor', async () => {
  const { project, dshHome, home, run } = await setup()
  const root = project.path
  const host = await hostSide(root, dshHome, home)
  const list = JSON.parse((await run(['list', '--json'])).stdout) as {
    name: string
    scope: string
    state: string
    verdict: { tag: string; why: string | null }
  }[]
  const text = (await run(['list'])).stdout.split('\n')
  const status = JSON.parse((await run(['status', '--json'])).stdout) as {
    projects: { servers: { name: string; layer: string; state: string; verdict: { tag: string } | null }[] }[]
  }
  const doctor = JSON.parse((await run(['doctor', '--json'])).stdout) as {
    name: string
    scope: string
    state: string
  }[]
  for (const [name, [state, tag, live, kind, doc]] of Object.entries(TABLE)) {
    const scope = name === 'sh' ? 'project' : undefined
    const l = list.find((r) => r.name === name && (!scope || r.scope === scope))
    assert.ok(l, `list --json has ${name}`)
    assert.equal(l.state, state, `list --json ${name}`)
    assert.equal(
      `${l.verdict.tag}${l.verdict.why && !['runs', 'skipped'].includes(l.verdict.tag) ? `:${l.verdict.why}` : ''}`,
      tag,
      `verdict ${name}`,
    )
    assert.equal(listState(l.verdict.tag as never), l.state, `list state is the verdict's word (${name})`)
    const line = text.find((x) => x.startsWith(`${name} `) && (!scope || x.includes(` ${scope} `)))
    assert.match(line ?? '', new RegExp(`^${name}\\s+\\S+\\s+${state}\\s`), `list ${name}`)
    if (name !== 'sh') {
      const get = JSON.parse((await run(['get', name, '--json'])).stdout) as { state: string }
      assert.equal(get.state, state, `get ${name}`)
    }
    const s = status.projects[0]?.servers.find((x) => x.name === name && (!scope || x.layer === scope))
    assert.equal(s?.state, live, `status ${name}`)
    assert.equal(s?.verdict?.tag, l.verdict.tag, `status verdict ${name}`)
    // A row that does not run reads one word in list and status.
    const settled = settledState(l.verdict.tag as never)
    if (settled) assert.equal(s?.state, settled, `status agrees with list (${name})`)
    const p = host.panel.servers.find((x) => x.name === name && (!scope || x.layer === scope))
    assert.equal(p?.state, live, `panel state ${name}`)
    assert.equal(p?.kind ?? null, kind, `panel kind ${name}`)
    assert.equal(host.prompt.includes(`- ${name}: `), kind !== null, `prompt line ${name}`)
    const d = doctor.find((x) => x.name === name && (!scope || x.scope === scope))
    assert.equal(d?.state ?? null, doc, `doctor ${name}`)
    if (settled && doc !== null) assert.equal(doc, settled, `doctor agrees with list (${name})`)
  }
  // Withheld from the checkout's .env: named as such, no literal ${VAR}, no `export` hint in the prompt.
  const line = host.prompt.split('\n').find((x) => x.startsWith('- withheld: ')) ?? ''
  assert.match(line, /\$DSH_STATES_WITHHELD, set only in the checkout's \.env/)
  assert.doesNotMatch(line, /\$\{DSH_STATES_WITHHELD\}|export DSH_STATES_WITHHELD/)
  assert.match(host.prompt, /- novar: .*Fix: `export DSH_STATES_UNSET=…`/)
})

test('a trust store that cannot be used: every row needing trust reads untrusted everywhere, and the fix is repairing the store', async () => {
  const { project, dshHome, home, run } = await setup()
  chmodSync(join(dshHome, 'mcp-trust.json'), 0o666)
  const host = await hostSide(project.path, dshHome, home)
  const list = JSON.parse((await run(['list', '--json'])).stdout) as {
    name: string
    state: string
    verdict: { why: string | null }
  }[]
  const doctor = JSON.parse((await run(['doctor', '--json'])).stdout) as { name: string; state: string; hint: string }[]
  for (const name of ['run', 'fresh', 'changed', 'mine', 'novar']) {
    assert.equal(list.find((r) => r.name === name)?.state, 'untrusted', `list ${name}`)
    assert.equal(list.find((r) => r.name === name)?.verdict.why, 'store-problem', `list why ${name}`)
    const p = host.panel.servers.find((x) => x.name === name)
    assert.equal(p?.state, 'untrusted', `panel ${name}`)
    assert.equal(p?.kind, 'store-problem', `panel kind ${name}`)
    assert.doesNotMatch(p?.fix ?? '', /dsh-mcp trust/, `not "run dsh-mcp trust" (${name})`)
    const d = doctor.find((x) => x.name === name)
    assert.equal(d?.state, 'untrusted', `doctor ${name}`)
    assert.match(d?.hint ?? '', /repair the trust store/, `doctor hint ${name}`)
  }
  assert.doesNotMatch(host.prompt, /not trusted yet/)
})

test('a signed approval reads the same words everywhere: every signature state has words and a tone; the panel row carries them', () => {
  for (const state of SIGNATURE_STATES) {
    assert.ok(signatureWords({ state, signer: 'alice' }).length > 0)
    assert.ok(SIGNATURE_TONE[state])
  }
  assert.equal(signatureWords({ state: 'trusted', signer: 'alice' }), 'signed by alice (trusted)')
  assert.equal(signatureWords({ state: 'unknown-signer' }), 'signed by an unknown key')
  const placement = {
    name: 's',
    layer: 'project' as const,
    file: '/p/.dsh/mcp.yml',
    verdict: { tag: 'needs-trust' as const, why: 'new', reason: 'r', fix: 'f', signature: { state: 'stale' as const } },
  }
  const row = {
    name: 's',
    effectiveName: null,
    layer: 'project',
    file: '/p/.dsh/mcp.yml',
    state: 'untrusted',
    toolCount: 0,
    lastError: null,
    verdict: placement.verdict,
    lifecycle: 'eager',
    toolSource: null,
    lastUsedAt: null,
  }
  const panel = webProject('/p', 1, [placement as never], [row as never], [])
  assert.equal(panel.servers[0]?.signed, 'signed for an older version (changed since signed)')
  assert.match(panel.servers[0]?.words ?? '', /signed for an older version/)
})
