// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * Desired state (pure): rows judged per project and for the global view,
 * mount keys by resolved config, reasons that never carry values.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type LayerFile, type LayerInput, projectLayerFiles, userLayerFile } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { desiredState, type PlanInput, redact, type TrustFn } from '../../src/plan/desired.ts'

const HOME = '/home/u/.dsh'
const USER = userLayerFile(HOME)
const files = (root: string) => projectLayerFiles(root) as [LayerFile, LayerFile, LayerFile, LayerFile]

function input(layer: LayerFile, servers: Record<string, unknown>): LayerInput {
  const text = layer.format === 'friendly' ? JSON.stringify({ servers }) : JSON.stringify({ mcpServers: servers })
  return {
    layer,
    parsed: parseConfigText(text, { file: layer.file, format: layer.format, allowPartial: layer.scope === 'local' }),
  }
}

const trusted: TrustFn = () => 'trusted'
const plan = (over: Partial<PlanInput>) =>
  desiredState({ projects: [], user: [], env: {}, dshHome: HOME, platform: 'linux', trust: trusted, ...over })
const node = (args: string[], extra: Record<string, unknown> = {}) => ({ command: 'node', args, ...extra })

describe('desired state', () => {
  it('mounts active rows; stdio cwd resolves against the project root (user layer: $DSH_HOME)', () => {
    const p = plan({
      projects: [{ root: '/a', layers: [input(files('/a')[1], { s: node(['s.js'], { cwd: 'tools' }) })] }],
      user: [input(USER, { u: node(['u.js']) })],
    })
    const a = p.projects.get('/a')!
    assert.deepEqual(
      a.map((x) => [x.name, x.layer, x.verdict.tag]),
      [
        ['s', 'project', 'runs'],
        ['u', 'user', 'runs'],
      ],
    )
    const s = p.mounts.get(a[0]!.key!)!
    assert.equal(s.config.transport, 'stdio')
    assert.equal((s.config as { cwd: string }).cwd, '/a/tools')
    assert.equal(s.origin, '/a')
    const u = p.mounts.get(p.global[0]!.key!)!
    assert.equal((u.config as { cwd: string }).cwd, HOME)
    assert.equal(a[1]!.key, p.global[0]!.key, 'the user row in a project is the same mount as the global one')
    assert.equal(p.mounts.size, 2)
  })
  it('a project row shadows the user row of the same name; only the winner is mounted in that project', () => {
    const p = plan({
      projects: [{ root: '/a', layers: [input(files('/a')[1], { gh: node(['mine.js']) })] }],
      user: [input(USER, { gh: node(['global.js']) })],
    })
    const a = p.projects.get('/a')!
    assert.deepEqual(
      a.map((x) => [x.layer, x.verdict.tag]),
      [
        ['project', 'runs'],
        ['user', 'shadowed'],
      ],
    )
    assert.notEqual(a[0]!.key, p.global[0]!.key)
    assert.equal(p.mounts.size, 2, 'the global one is still mounted for other projects')
  })
  it('a partial local override of a user row makes a project-specific mount', () => {
    const p = plan({
      projects: [{ root: '/a', layers: [input(files('/a')[0], { gh: { env: { MODE: 'local' } } })] }],
      user: [input(USER, { gh: node(['global.js']) })],
    })
    const row = p.projects.get('/a')!.find((x) => x.verdict.tag === 'runs')!
    assert.notEqual(row.key, p.global[0]!.key)
  })
  it('tuning keys never change a mount key; identity keys do', () => {
    const key = (entry: Record<string, unknown>) =>
      plan({ projects: [{ root: '/a', layers: [input(files('/a')[1], { s: entry })] }] }).projects.get('/a')![0]!.key
    const base = key(node(['s.js']))
    assert.equal(key(node(['s.js'], { tools: { exclude: ['x*'] }, description: 'd' })), base)
    assert.notEqual(key(node(['s.js', '--v'])), base)
    assert.notEqual(key(node(['s.js'], { env: { A: '1' } })), base)
  })
  it('identical resolved configs in two projects share one key; the same name with another config does not', () => {
    const web = { url: 'http://127.0.0.1:9/mcp' }
    const p = plan({
      projects: [
        { root: '/a', layers: [input(files('/a')[1], { web })] },
        { root: '/b', layers: [input(files('/b')[1], { web })] },
        { root: '/c', layers: [input(files('/c')[1], { web: { url: 'http://127.0.0.1:9/other' } })] },
      ],
    })
    assert.equal(p.projects.get('/a')![0]!.key, p.projects.get('/b')![0]!.key)
    assert.notEqual(p.projects.get('/a')![0]!.key, p.projects.get('/c')![0]!.key)
    assert.equal(p.mounts.size, 2)
  })
  it('a missing variable skips the row, naming server, field and variable, never a value', () => {
    const p = plan({
      projects: [
        {
          root: '/a',
          layers: [input(files('/a')[1], { s: node(['s.js'], { env: { TOKEN: '${NOPE}', OTHER: '${SECRET}' } }) })],
        },
      ],
      env: { SECRET: 'hunter2-value' },
    })
    const row = p.projects.get('/a')![0]!
    assert.equal(row.verdict.tag, 'skipped')
    assert.deepEqual(row.verdict.variables, ['NOPE'])
    assert.match(row.verdict.reason!, /"s"/)
    assert.match(row.verdict.reason!, /env\.TOKEN/)
    assert.match(row.verdict.reason!, /\$\{NOPE\}/)
    assert.ok(!row.verdict.reason!.includes('hunter2'))
    assert.equal(p.mounts.size, 0)
  })
  it('records expanded secrets for redaction', () => {
    const p = plan({
      projects: [
        {
          root: '/a',
          layers: [
            input(files('/a')[1], {
              h: { url: 'http://127.0.0.1:9/mcp?k=${KEY}', headers: { Authorization: 'Bearer ${TOK}' } },
            }),
          ],
        },
      ],
      env: { KEY: 'key-123', TOK: 'tok-456' },
    })
    const spec = [...p.mounts.values()][0]!
    assert.equal(
      redact('GET http://127.0.0.1:9/mcp?k=key-123 failed (Bearer tok-456)', spec.secrets),
      'GET http://127.0.0.1:9/mcp?k=*** failed (***)',
    )
  })
  it('untrusted and changed project rows are not mounted; user rows are never asked', () => {
    const asked: string[] = []
    const trust: TrustFn = (root, row) => {
      asked.push(`${root}:${row.name}`)
      return row.name === 'c' ? 'changed' : 'untrusted'
    }
    const p = plan({
      projects: [{ root: '/a', layers: [input(files('/a')[1], { n: node(['n.js']), c: node(['c.js']) })] }],
      user: [input(USER, { u: node(['u.js']) })],
      trust,
    })
    const a = p.projects.get('/a')!
    assert.deepEqual(
      a.map((x) => [x.name, x.verdict.tag, x.verdict.why]),
      [
        ['n', 'needs-trust', 'new'],
        ['c', 'needs-trust', 'changed'],
        ['u', 'runs', null],
      ],
    )
    assert.deepEqual(asked.sort(), ['/a:c', '/a:n'])
    assert.match(a[1]!.verdict.reason!, /changed/)
  })
  it('disabled and invalid rows carry their state; an invalid entry skips only itself', () => {
    const p = plan({
      projects: [
        {
          root: '/a',
          layers: [
            input(files('/a')[1], {
              off: node(['x.js'], { enabled: false }),
              bad: { command: 'x', url: 'http://h/' },
              ok: node(['ok.js']),
            }),
          ],
        },
      ],
    })
    const a = p.projects.get('/a')!
    assert.deepEqual(
      a.map((x) => [x.name, x.verdict.tag]),
      [
        ['off', 'disabled'],
        ['bad', 'refused'],
        ['ok', 'runs'],
      ],
    )
    assert.match(a[1]!.verdict.reason!, /mcp\.yml:\d+:\d+/)
  })
  it('the global view is the user layer alone', () => {
    const p = plan({ user: [input(USER, { u: node(['u.js']), d: node(['d.js'], { enabled: false }) })] })
    assert.deepEqual(
      p.global.map((x) => [x.name, x.verdict.tag]),
      [
        ['u', 'runs'],
        ['d', 'disabled'],
      ],
    )
  })
})
