/**
 * Model-based property test on a real host, with the trust gate ON
 * (`trust: 'require'`): random sequences of edits to two projects' files,
 * their local overrides and the user file, agent creations and disposals,
 * and trust/untrust of project servers. After each step, once quiet
 * (`reload()` then `whenIdle()`), the plugin's snapshot (every row's layer
 * and state, per known project and for the global view) and every agent's
 * visible MCP tools equal what a small reference model computes from the
 * actions alone. The model is written from the user guide (docs/guide/layers.md: layers and
 * partial overrides; docs/guide/trust.md: trust, and a user row a local file
 * overrides needs trust), not from `src/plan`.
 *
 * Servers are streamable-HTTP fixtures on 127.0.0.1 (cheap to mount): a
 * server's variant picks which fixture (and so which tool, `t0` or `t1`) it
 * reaches. Effective names are compared without the collision suffix
 * (`_<6 hex>`), whose value is the planner's business.
 */
import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { rowFingerprint } from '../../src/config/fingerprint.ts'
import { mergeLayers } from '../../src/config/layers.ts'
import { readLayers } from '../../src/files/read.ts'
import { canonicalRoot, trustServers, untrustServers } from '../../src/trust/store.ts'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import type { Agent, AgentHandle } from '../support/host.ts'
import { mcpToolNames } from '../support/host.ts'
import { friendly, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { cleanupAll, makeProject, type TempDir } from '../support/tmp.ts'

type P = 'A' | 'B'
type Servers = Record<string, 0 | 1>
type Override = { enabled: false } | { headers: { 'X-Local': string } }
type Action =
  | { kind: 'project'; p: P; servers: Servers | null; trustAll: boolean }
  | { kind: 'local'; p: P; overrides: Record<string, Override> | null }
  | { kind: 'user'; servers: Servers | null }
  | { kind: 'agent'; where: P | 'out' }
  | { kind: 'dispose'; index: number }
  | { kind: 'trust' | 'untrust'; p: P; name: string }

const PROJECT_NAMES = ['s1', 's2', 'u1'] as const
const USER_NAMES = ['u1', 'u2', 's1'] as const

let fixtures: Awaited<ReturnType<typeof startHttpServer>>[] = []
before(async () => {
  fixtures = await Promise.all([0, 1].map((v) => startHttpServer({ name: `v${v}`, tools: [`t${v}`] })))
})
after(async () => {
  await Promise.all(fixtures.map((f) => f.close()))
  cleanupAll()
})

const entryOf = (name: string, variant: 0 | 1) => ({ url: `${fixtures[variant]!.url}?server=${name}` })
const serversText = (s: Servers) => friendly(Object.fromEntries(Object.entries(s).map(([n, v]) => [n, entryOf(n, v)])))

// ---------------------------------------------------------------------------
// The reference model

interface Model {
  project: Record<P, Servers | null>
  local: Record<P, Record<string, Override> | null>
  user: Servers | null
  /** `${p}:${name}` → identity trusted. */
  trusted: Map<string, string>
  agents: { where: P | 'out'; handle?: AgentHandle | undefined }[]
  known: Set<P>
}

interface ModelRow {
  name: string
  layer: 'local' | 'project' | 'user'
  state: 'mounted' | 'disabled' | 'shadowed' | 'untrusted' | 'invalid'
  variant?: 0 | 1
}

/** What a project row's trust fingerprint covers here: which fixture, whether a local override merges in (the contributing files), and any header it adds. */
function identity(m: Model, p: P, name: string): string | undefined {
  const v = m.project[p]?.[name]
  if (v === undefined) return undefined
  const o = m.local[p]?.[name]
  return `${v}|${o === undefined ? 'none' : 'headers' in o ? o.headers['X-Local'] : 'override'}`
}

function rowsOf(m: Model, p: P | null): ModelRow[] {
  if (p === null)
    return Object.entries(m.user ?? {}).map(([name, variant]) => ({ name, layer: 'user', state: 'mounted', variant }))
  const local = m.local[p] ?? {}
  const project = m.project[p] ?? {}
  const user = m.user ?? {}
  const rows: ModelRow[] = []
  for (const name of new Set([...Object.keys(local), ...Object.keys(project), ...Object.keys(user)])) {
    const o = local[name]
    const full: { layer: 'project' | 'user'; variant: 0 | 1 }[] = []
    if (project[name] !== undefined) full.push({ layer: 'project', variant: project[name] })
    if (user[name] !== undefined) full.push({ layer: 'user', variant: user[name] })
    const [winner, ...shadowed] = full
    if (!winner) {
      rows.push({ name, layer: 'local', state: 'invalid' })
      continue
    }
    let state: ModelRow['state'] = o && 'enabled' in o ? 'disabled' : 'mounted'
    if (state === 'mounted' && winner.layer === 'project' && m.trusted.get(`${p}:${name}`) !== identity(m, p, name))
      state = 'untrusted'
    // A user row that a local file overrides needs trust (issue 12 class 1); the model never trusts user names.
    if (state === 'mounted' && winner.layer === 'user' && o !== undefined) state = 'untrusted'
    rows.push({ name, layer: winner.layer, state, variant: winner.variant })
    for (const s of shadowed) rows.push({ name, layer: s.layer, state: 'shadowed' })
  }
  return rows
}

const rowKey = (r: { name: string; layer: string; state: string }) => `${r.name}:${r.layer}:${r.state}`
const toolsOf = (rows: ModelRow[]) => rows.filter((r) => r.state === 'mounted').map((r) => `${r.name}/t${r.variant}`)

/** `mcp__<effective>__<tool>` → `<written name>/<tool>` (the collision suffix dropped). */
const unsuffixed = (tool: string) => {
  const m = /^mcp__(.+?)__([^_].*)$/.exec(tool)
  return m ? `${m[1]!.replace(/_[0-9a-f]{6}$/, '')}/${m[2]}` : tool
}

// ---------------------------------------------------------------------------
// Actions on the real system

interface System {
  w: RuntimeWorld
  roots: Record<P, TempDir>
}

async function trustNow(sys: System, m: Model, p: P, name: string): Promise<void> {
  // What `dsh-mcp trust <name>` does: fingerprint the effective row as the files say now.
  const root = sys.roots[p].path
  const rows = mergeLayers(readLayers(root, { dshHome: sys.w.home.path, home: os.homedir() }, { userLayer: true }))
  const row = rows.find(
    (r) => r.name === name && r.scope !== 'user' && r.state !== 'shadowed' && r.entry && r.state !== 'invalid',
  )
  const id = identity(m, p, name)
  if (!row?.entry || id === undefined) return
  await trustServers(sys.w.home.path, canonicalRoot(root), [{ name, fingerprint: rowFingerprint(row) }])
  m.trusted.set(`${p}:${name}`, id)
}

async function apply(sys: System, m: Model, a: Action): Promise<void> {
  const file = (p: P, rel: string) => sys.roots[p].join('.dsh', rel)
  switch (a.kind) {
    case 'project':
      m.project[a.p] = a.servers
      if (a.servers) writeFileSync(file(a.p, 'mcp.yml'), serversText(a.servers))
      else rmSync(file(a.p, 'mcp.yml'), { force: true })
      if (a.trustAll) for (const name of Object.keys(a.servers ?? {})) await trustNow(sys, m, a.p, name)
      return
    case 'local':
      m.local[a.p] = a.overrides
      if (a.overrides) writeFileSync(file(a.p, 'mcp.local.yml'), friendly(a.overrides))
      else rmSync(file(a.p, 'mcp.local.yml'), { force: true })
      return
    case 'user':
      m.user = a.servers
      if (a.servers) writeFileSync(sys.w.home.join('mcp.yml'), serversText(a.servers))
      else rmSync(sys.w.home.join('mcp.yml'), { force: true })
      return
    case 'agent': {
      const cwd = a.where === 'out' ? sys.w.hostDir.path : sys.roots[a.where].path
      m.agents.push({ where: a.where, handle: await sys.w.host.createAgent({ cwd }) })
      if (a.where !== 'out') m.known.add(a.where)
      return
    }
    case 'dispose': {
      const live = m.agents.filter((x) => x.handle)
      const victim = live[a.index % Math.max(1, live.length)]
      if (!victim?.handle) return
      await victim.handle.dispose()
      victim.handle = undefined
      return
    }
    case 'trust':
      return trustNow(sys, m, a.p, a.name)
    case 'untrust':
      await untrustServers(sys.w.home.path, canonicalRoot(sys.roots[a.p].path), [a.name])
      m.trusted.delete(`${a.p}:${a.name}`)
  }
}

/** Compare; returns how many (agent, tool) pairs were visible, to show the run meant something. */
function check(sys: System, m: Model, step: string): number {
  let visible = 0
  const snap = sys.w.mcp.snapshot()
  for (const p of ['A', 'B'] as const) {
    const got = snap.projects.find((x) => x.root === sys.roots[p].path)
    assert.equal(got !== undefined, m.known.has(p), `${step}: project ${p} known`)
    if (!got) continue
    assert.deepEqual(got.servers.map(rowKey).sort(), rowsOf(m, p).map(rowKey).sort(), `${step}: rows of project ${p}`)
  }
  assert.deepEqual(snap.global.map(rowKey).sort(), rowsOf(m, null).map(rowKey).sort(), `${step}: the global view`)
  for (const [i, a] of m.agents.entries()) {
    if (!a.handle) continue
    const agent: Agent = a.handle.agent
    const got = mcpToolNames(sys.w.host.ctx, agent).map(unsuffixed).sort()
    assert.deepEqual(
      got,
      toolsOf(rowsOf(m, a.where === 'out' ? null : a.where)).sort(),
      `${step}: tools of agent ${i} (${a.where})`,
    )
    visible += got.length
  }
  return visible
}

// ---------------------------------------------------------------------------
// Generators and the property

const pSide = fc.constantFrom<P>('A', 'B')
const variant = fc.constantFrom<0 | 1>(0, 1)
const serversOf = (names: readonly string[]) =>
  fc.option(fc.dictionary(fc.constantFrom(...names), variant, { maxKeys: names.length }), { nil: null, freq: 5 })
const override = fc.oneof(
  fc.constant<Override>({ enabled: false }),
  fc.constantFrom('a', 'b').map((v): Override => ({ headers: { 'X-Local': v } })),
)
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('project' as const),
      p: pSide,
      servers: serversOf(PROJECT_NAMES),
      trustAll: fc.constantFrom(true, true, false),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('local' as const),
      p: pSide,
      overrides: fc.option(fc.dictionary(fc.constantFrom(...PROJECT_NAMES), override, { maxKeys: 2 }), {
        nil: null,
        freq: 4,
      }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('user' as const), servers: serversOf(USER_NAMES) }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('agent' as const), where: fc.constantFrom<P | 'out'>('A', 'B', 'out') }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('dispose' as const), index: fc.nat(5) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constantFrom('trust' as const, 'untrust' as const),
      p: pSide,
      name: fc.constantFrom(...PROJECT_NAMES),
    }),
    weight: 2,
  },
)

test('snapshot and every agent’s tools equal the reference model after each quiet point', async (t) => {
  const runs = Number(process.env.MODEL_RUNS ?? 25)
  let steps = 0
  let seen = 0
  const t0 = performance.now()
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), async (actions) => {
      const w = await startWorld({ trust: 'require', debounceMs: 20 })
      const sys: System = {
        w,
        roots: { A: makeProject({}, 'dsh-mcp-model-a-'), B: makeProject({}, 'dsh-mcp-model-b-') },
      }
      for (const r of Object.values(sys.roots)) r.mkdir('.dsh')
      const m: Model = {
        project: { A: null, B: null },
        local: { A: null, B: null },
        user: null,
        trusted: new Map(),
        agents: [],
        known: new Set(),
      }
      try {
        // Every run starts with an agent in each place, so most steps have tools to compare.
        const opening: Action[] = [
          { kind: 'agent', where: 'A' },
          { kind: 'agent', where: 'B' },
          { kind: 'agent', where: 'out' },
        ]
        for (const [i, a] of [...opening, ...actions].entries()) {
          await apply(sys, m, a)
          await w.mcp.reload()
          await w.mcp.whenIdle()
          seen += check(sys, m, `step ${i + 1} ${JSON.stringify(a)}`)
          steps++
        }
      } finally {
        await w.dispose()
        sys.roots.A.cleanup()
        sys.roots.B.cleanup()
      }
    }),
    {
      numRuns: runs,
      ...(process.env.MODEL_SEED ? { seed: Number(process.env.MODEL_SEED) } : {}),
      endOnFailure: true,
      includeErrorInReport: true,
    },
  )
  t.diagnostic(
    `${runs} runs, ${steps} checked steps, ${seen} visible (agent, tool) pairs checked, in ${Math.round(performance.now() - t0)} ms`,
  )
})
