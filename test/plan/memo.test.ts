// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * Plan memo (pure): the same plan as a full desired state after any sequence
 * of changes, and only the views whose inputs changed are judged again.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { type LayerFile, type LayerInput, projectLayerFiles, userLayerFile } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { desiredState, type PlanInput, type TrustFn } from '../../src/plan/desired.ts'
import type { TrustState } from '../../src/trust/state.ts'
import { createPlanMemo } from '../../src/plan/memo.ts'

const HOME = '/home/u/.dsh'
const USER = userLayerFile(HOME)
const ROOTS = ['/a', '/b', '/c']
const files = (root: string) => projectLayerFiles(root) as [LayerFile, LayerFile, LayerFile, LayerFile]

function input(layer: LayerFile, servers: Record<string, unknown>): LayerInput {
  const text = layer.format === 'friendly' ? JSON.stringify({ servers }) : JSON.stringify({ mcpServers: servers })
  return {
    layer,
    parsed: parseConfigText(text, { file: layer.file, format: layer.format, allowPartial: layer.scope === 'local' }),
  }
}

const node = (args: string[], extra: Record<string, unknown> = {}) => ({ command: 'node', args, ...extra })

/** Server sets a layer may hold: variables with and without defaults, http, disabled, invalid, shared configs. */
const SERVER_SETS: Record<string, unknown>[] = [
  {},
  { s: node(['s.js']), t: node(['t.js'], { env: { TOKEN: '${TOKEN}' } }) },
  { s: node(['s.js', '--v2']), w: { url: 'http://127.0.0.1:9/${PATHVAR:-mcp}', headers: { A: 'Bearer ${TOKEN}' } } },
  { t: node(['t.js'], { enabled: false }), bad: { command: 'x', url: 'http://h/' } },
  { shared: node(['/abs/shared.js'], { cwd: '/abs' }), u: node(['mine.js']) },
]
const LOCAL_SETS: Record<string, unknown>[] = [{}, { s: { env: { MODE: '${MODE:-x}' } } }, { u: { enabled: false } }]
const USER_SETS: Record<string, unknown>[] = [
  {},
  { u: node(['u.js']) },
  { u: node(['u.js'], { env: { K: '${TOKEN}' } }), shared: node(['/abs/shared.js'], { cwd: '/abs' }) },
]
const ENVS: Record<string, string>[] = [
  {},
  { TOKEN: 'tok-1' },
  { TOKEN: 'tok-2', PATHVAR: 'p' },
  { TOKEN: 'tok-2', MODE: 'm', UNUSED: 'z' },
]
const VERDICTS: TrustState[] = ['trusted', 'untrusted', 'changed']

interface World {
  /** Per root: [local set, project set] indexes; parsed once per change (a new LayerInput, as the runtime does). */
  layers: Map<string, LayerInput[]>
  user: LayerInput[]
  env: Record<string, string>
  trust: Map<string, TrustState>
  roots: string[]
  dshHome: string
}

function projectLayers(root: string, local: number, project: number): LayerInput[] {
  const [l, p] = files(root)
  return [input(l, LOCAL_SETS[local]!), input(p, SERVER_SETS[project]!)]
}

function planInput(w: World, asked: string[]): PlanInput {
  const trust: TrustFn = (root, row) => {
    asked.push(`${root}:${row.name}`)
    return w.trust.get(`${root}:${row.name}`) ?? 'trusted'
  }
  return {
    projects: w.roots.map((root) => ({ root, layers: w.layers.get(root)! })),
    user: w.user,
    env: w.env,
    dshHome: w.dshHome,
    platform: 'linux',
    trust,
  }
}

const op = fc.oneof(
  fc.record({
    kind: fc.constant('files' as const),
    root: fc.constantFrom(...ROOTS),
    local: fc.nat(LOCAL_SETS.length - 1),
    project: fc.nat(SERVER_SETS.length - 1),
  }),
  fc.record({ kind: fc.constant('user' as const), set: fc.nat(USER_SETS.length - 1) }),
  fc.record({ kind: fc.constant('env' as const), env: fc.nat(ENVS.length - 1) }),
  fc.record({
    kind: fc.constant('trust' as const),
    root: fc.constantFrom(...ROOTS),
    name: fc.constantFrom('s', 't', 'w', 'shared', 'u'),
    verdict: fc.constantFrom(...VERDICTS),
  }),
  fc.record({ kind: fc.constant('roots' as const), roots: fc.subarray(ROOTS) }),
  fc.record({ kind: fc.constant('home' as const), home: fc.constantFrom(HOME, '/other/.dsh') }),
)

describe('plan memo', () => {
  it('gives the full desired state after any sequence of changes, asking trust about the same rows', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const w: World = {
          layers: new Map(ROOTS.map((r) => [r, projectLayers(r, 0, 1)])),
          user: [input(USER, USER_SETS[1]!)],
          env: {},
          trust: new Map(),
          roots: [...ROOTS],
          dshHome: HOME,
        }
        const memo = createPlanMemo()
        for (const o of [{ kind: 'none' as const }, ...ops]) {
          if (o.kind === 'files') w.layers.set(o.root, projectLayers(o.root, o.local, o.project))
          else if (o.kind === 'user') w.user = [input(USER, USER_SETS[o.set]!)]
          else if (o.kind === 'env') w.env = { ...ENVS[o.env]! }
          else if (o.kind === 'trust') w.trust.set(`${o.root}:${o.name}`, o.verdict)
          else if (o.kind === 'roots') w.roots = o.roots
          else if (o.kind === 'home') w.dshHome = o.home
          const fullAsked: string[] = []
          const memoAsked: string[] = []
          const full = desiredState(planInput(w, fullAsked))
          const got = memo.plan(planInput(w, memoAsked))
          assert.deepEqual(got, full)
          assert.deepEqual([...got.mounts.keys()], [...full.mounts.keys()])
          assert.deepEqual([...got.projects.keys()], [...full.projects.keys()])
          assert.deepEqual(new Set(memoAsked), new Set(fullAsked))
        }
      }),
      { numRuns: 150 },
    )
  })

  it('judges again only the project whose file changed', () => {
    const layers = new Map(ROOTS.map((r) => [r, projectLayers(r, 0, 1)]))
    const w: World = {
      layers,
      user: [input(USER, USER_SETS[1]!)],
      env: { TOKEN: 't' },
      trust: new Map(),
      roots: [...ROOTS],
      dshHome: HOME,
    }
    const memo = createPlanMemo()
    const first = memo.plan(planInput(w, []))
    w.layers.set('/b', projectLayers('/b', 0, 2))
    const second = memo.plan(planInput(w, []))
    assert.equal(second.projects.get('/a'), first.projects.get('/a'), 'an unchanged project keeps its judgement')
    assert.equal(second.projects.get('/c'), first.projects.get('/c'))
    assert.equal(second.global, first.global)
    assert.notEqual(second.projects.get('/b'), first.projects.get('/b'))
    assert.deepEqual(second, desiredState(planInput(w, [])))
  })

  it('judges again a view whose variable or trust verdict changed, and only that view', () => {
    const w: World = {
      layers: new Map([
        ['/a', [input(files('/a')[1], { t: node(['t.js'], { env: { TOKEN: '${TOKEN}' } }) })]],
        ['/b', [input(files('/b')[1], { s: node(['s.js']) })]],
      ]),
      user: [],
      env: { TOKEN: 'one', OTHER: 'x' },
      trust: new Map(),
      roots: ['/a', '/b'],
      dshHome: HOME,
    }
    const memo = createPlanMemo()
    const first = memo.plan(planInput(w, []))
    w.env = { TOKEN: 'one', OTHER: 'y' }
    const unread = memo.plan(planInput(w, []))
    assert.equal(unread.projects.get('/a'), first.projects.get('/a'), 'a variable no row reads changes nothing')
    w.env = { TOKEN: 'two', OTHER: 'y' }
    const read = memo.plan(planInput(w, []))
    assert.notEqual(read.projects.get('/a'), first.projects.get('/a'))
    assert.equal(read.projects.get('/b'), first.projects.get('/b'))
    assert.deepEqual([...read.mounts.values()].find((m) => m.name === 't')?.secrets, ['two'])
    w.trust.set('/b:s', 'untrusted')
    const untrusted = memo.plan(planInput(w, []))
    assert.equal(untrusted.projects.get('/b')![0]!.verdict.tag, 'needs-trust')
    assert.equal(untrusted.projects.get('/a'), read.projects.get('/a'))
    w.env = {}
    assert.equal(
      memo.plan(planInput(w, [])).projects.get('/a')![0]!.verdict.tag,
      'skipped',
      'a variable that went away is seen',
    )
  })

  it("a monorepo parent's row is asked about under the parent, shares one mount, and a parent's trust change re-judges every package", () => {
    const parent = (servers: Record<string, unknown>) => input(projectLayerFiles('/r', {}, 1)[1]!, servers)
    const root = parent({ shared: node(['shared.js']) })
    const w: World = {
      layers: new Map([
        ['/r/a', [input(files('/r/a')[1], { a: node(['a.js']) }), root]],
        ['/r/b', [input(files('/r/b')[1], { b: node(['b.js']) }), root]],
      ]),
      user: [],
      env: {},
      trust: new Map(),
      roots: ['/r/a', '/r/b'],
      dshHome: HOME,
    }
    const memo = createPlanMemo()
    const asked: string[] = []
    const first = memo.plan(planInput(w, asked))
    assert.ok(asked.includes('/r:shared') && !asked.some((a) => a.endsWith(':shared') && a !== '/r:shared'))
    const shared = [...first.mounts.values()].filter((m) => m.name === 'shared')
    assert.equal(shared.length, 1, 'one mount for both packages')
    assert.equal(shared[0]!.origin, '/r')
    assert.deepEqual(first, desiredState(planInput(w, [])))
    w.trust.set('/r:shared', 'untrusted')
    const next = memo.plan(planInput(w, []))
    for (const pkg of ['/r/a', '/r/b']) {
      const row = next.projects.get(pkg)!.find((p) => p.name === 'shared')!
      assert.equal(row.verdict.tag, 'needs-trust')
      assert.match(row.verdict.fix ?? '', /-C \/r shared/)
    }
  })
})
