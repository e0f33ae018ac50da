// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * Layer precedence and shadowing (docs/guide/layers.md): local > .dsh/mcp.yml >
 * .dsh/mcp.json > .mcp.json > user; partial local overrides; orphans.
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import {
  dshHome,
  type LayerFile,
  type LayerInput,
  mergeLayers,
  mergeOverride,
  projectLayerFiles,
  type Row,
  USER_RANK,
  userLayerFile,
  winners,
} from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'

const ROOT = '/proj'
const HOME = '/home/u/.dsh'
const files = projectLayerFiles(ROOT)
const [LOCAL, YML, JSON_, LEGACY] = files as [LayerFile, LayerFile, LayerFile, LayerFile]
const USER = userLayerFile(HOME)

function input(layer: LayerFile, servers: Record<string, unknown>): LayerInput {
  const text = layer.format === 'friendly' ? JSON.stringify({ servers }) : JSON.stringify({ mcpServers: servers })
  return {
    layer,
    parsed: parseConfigText(text, { file: layer.file, format: layer.format, allowPartial: layer.scope === 'local' }),
  }
}

const byName = (rows: Row[], name: string) => rows.filter((r) => r.name === name)
const summary = (rows: Row[]) => rows.map((r) => `${r.name}@${r.scope}:${path.basename(r.file)}=${r.state}`)

describe('layer files', () => {
  it('lists the project files strongest first, legacy optional', () => {
    assert.deepEqual(
      files.map((f) => [f.scope, f.format, path.relative(ROOT, f.file), f.rank]),
      [
        ['local', 'friendly', '.dsh/mcp.local.yml', 0],
        ['project', 'friendly', '.dsh/mcp.yml', 1],
        ['project', 'mcpServers', '.dsh/mcp.json', 2],
        ['legacy', 'mcpServers', '.mcp.json', 3],
      ],
    )
    assert.equal(projectLayerFiles(ROOT, { legacyMcpJson: false }).length, 3)
    assert.deepEqual(USER, { scope: 'user', format: 'friendly', file: path.join(HOME, 'mcp.yml'), rank: USER_RANK })
  })
  it('DSH_HOME defaults to ~/.dsh', () => {
    assert.equal(dshHome({}, '/home/u'), '/home/u/.dsh')
    assert.equal(dshHome({ DSH_HOME: '/opt/dsh' }, '/home/u'), '/opt/dsh')
    assert.equal(dshHome({ DSH_HOME: '' }, '/home/u'), '/home/u/.dsh')
  })
})

describe('precedence', () => {
  const all = [
    input(USER, { s: { command: 'user' } }),
    input(LEGACY, { s: { command: 'legacy' } }),
    input(JSON_, { s: { command: 'json' } }),
    input(YML, { s: { command: 'yml' } }),
    input(LOCAL, { s: { command: 'local' } }),
  ]
  it('local > .dsh/mcp.yml > .dsh/mcp.json > .mcp.json > user, whatever the input order', () => {
    const rows = mergeLayers(all)
    assert.deepEqual(summary(rows), [
      's@local:mcp.local.yml=active',
      's@project:mcp.yml=shadowed',
      's@project:mcp.json=shadowed',
      's@legacy:.mcp.json=shadowed',
      's@user:mcp.yml=shadowed',
    ])
    assert.equal(rows[0]!.entry?.command, 'local')
    assert.deepEqual(summary(mergeLayers([...all].reverse())), summary(rows))
  })
  it('each next layer wins once the stronger ones are gone', () => {
    for (let i = 1; i < all.length; i++) {
      const rows = mergeLayers(all.slice(0, all.length - i))
      const w = winners(rows)
      assert.equal(w.length, 1)
      assert.equal(w[0]!.entry?.command, ['yml', 'json', 'legacy', 'user'][i - 1])
    }
  })
  it('shadowed rows carry shadowedBy and keep their own entry', () => {
    const rows = mergeLayers([input(YML, { s: { command: 'yml' } }), input(USER, { s: { url: 'https://u' } })])
    assert.deepEqual(rows[1]!.shadowedBy, { scope: 'project', file: YML.file })
    assert.equal(rows[1]!.entry?.url, 'https://u')
    assert.equal(rows[0]!.shadowedBy, undefined)
  })
  it('names that do not collide are all active', () => {
    const rows = mergeLayers([
      input(YML, { a: { command: 'a' } }),
      input(USER, { b: { command: 'b' } }),
      input(LEGACY, { c: { type: 'http', url: 'https://c' } }),
    ])
    assert.deepEqual(summary(rows), ['a@project:mcp.yml=active', 'c@legacy:.mcp.json=active', 'b@user:mcp.yml=active'])
  })
})

describe('partial local overrides', () => {
  it('{enabled: false} disables the row it shadows, which stays the winner', () => {
    const rows = mergeLayers([
      input(LOCAL, { gh: { enabled: false } }),
      input(YML, { gh: { command: 'npx', args: ['gh'] } }),
    ])
    assert.deepEqual(summary(rows), ['gh@project:mcp.yml=disabled'])
    assert.equal(rows[0]!.overriddenBy, LOCAL.file)
    assert.deepEqual(rows[0]!.entry, { command: 'npx', args: ['gh'], enabled: false })
  })
  it('env merges key by key onto the row it shadows', () => {
    const rows = mergeLayers([
      input(LOCAL, { gh: { env: { TOKEN: '${MY_TOKEN}' } } }),
      input(JSON_, { gh: { command: 'npx', env: { TOKEN: '${GITHUB_TOKEN}', MODE: 'ro' } } }),
    ])
    assert.equal(rows[0]!.state, 'active')
    assert.deepEqual(rows[0]!.entry?.env, { TOKEN: '${MY_TOKEN}', MODE: 'ro' })
  })
  it('headers merge onto an http row of a lower layer', () => {
    const rows = mergeLayers([
      input(LOCAL, { d: { headers: { Authorization: 'x' } } }),
      input(USER, { d: { url: 'https://d', headers: { A: '1' } } }),
    ])
    assert.deepEqual(rows[0]!.entry, { url: 'https://d', headers: { A: '1', Authorization: 'x' } })
    assert.equal(rows[0]!.scope, 'user')
  })
  it('env onto an http row (or headers onto a stdio row) makes the row invalid, saying why', () => {
    const rows = mergeLayers([
      input(LOCAL, { d: { env: { A: '1' } }, g: { headers: { H: 'v' } } }),
      input(YML, { d: { url: 'https://d' }, g: { command: 'x' } }),
    ])
    assert.deepEqual(summary(rows), ['d@project:mcp.yml=invalid', 'g@project:mcp.yml=invalid'])
    assert.match(rows[0]!.diagnostics[0]!.message, /sets "env".*http server \(use "headers"\)/)
    assert.equal(rows[0]!.diagnostics[0]!.file, LOCAL.file)
    assert.match(rows[1]!.diagnostics[0]!.message, /sets "headers".*stdio server/)
  })
  it('a partial override with nothing to override is an error row', () => {
    const rows = mergeLayers([input(LOCAL, { ghost: { enabled: false } }), input(YML, { other: { command: 'x' } })])
    const ghost = byName(rows, 'ghost')
    assert.equal(ghost.length, 1)
    assert.equal(ghost[0]!.state, 'invalid')
    const d = ghost[0]!.diagnostics.find((x) => x.code === 'override-orphan')
    assert.ok(d)
    assert.equal(d.file, LOCAL.file)
    assert.equal(d.path, 'servers.ghost')
    assert.equal(d.line, 1)
    assert.ok(d.col > 1)
  })
  it('a partial row outside the local layer is never an override', () => {
    const rows = mergeLayers([input(YML, { a: { enabled: false } }), input(USER, { a: { command: 'x' } })])
    assert.equal(rows[0]!.state, 'invalid')
    assert.equal(rows[1]!.state, 'shadowed')
  })
})

describe('winners that cannot mount still shadow', () => {
  it('a disabled winner shadows the user row', () => {
    const rows = mergeLayers([
      input(YML, { s: { command: 'x', enabled: false } }),
      input(USER, { s: { command: 'u' } }),
    ])
    assert.deepEqual(summary(rows), ['s@project:mcp.yml=disabled', 's@user:mcp.yml=shadowed'])
  })
  it('an invalid winner shadows the rows below it and has no entry', () => {
    const rows = mergeLayers([
      input(YML, { s: { command: 'x', url: 'https://both' } }),
      input(USER, { s: { command: 'u' } }),
    ])
    assert.deepEqual(summary(rows), ['s@project:mcp.yml=invalid', 's@user:mcp.yml=shadowed'])
    assert.equal(rows[0]!.entry, undefined)
    assert.ok(rows[0]!.diagnostics.some((d) => d.code === 'conflict'))
  })
})

describe('mergeOverride', () => {
  it('replaces scalars and merges maps without touching the base', () => {
    const base = { command: 'x', env: { A: '1' }, description: 'old' }
    const out = mergeOverride(base, { env: { B: '2' }, description: 'new', enabled: false })
    assert.deepEqual(out, { command: 'x', env: { A: '1', B: '2' }, description: 'new', enabled: false })
    assert.deepEqual(base, { command: 'x', env: { A: '1' }, description: 'old' })
  })
})

describe('monorepo levels and disable:', () => {
  const PARENT = '/repo'
  const CHILD = '/repo/packages/a'
  const [cLocal, cYml] = projectLayerFiles(CHILD) as [LayerFile, LayerFile]
  const [pLocal, pYml] = projectLayerFiles(PARENT, {}, 1) as [LayerFile, LayerFile]
  const withKeys = (layer: LayerFile, doc: Record<string, unknown>): LayerInput => ({
    layer,
    parsed: parseConfigText(JSON.stringify(doc), {
      file: layer.file,
      format: layer.format,
      allowPartial: layer.scope === 'local',
    }),
  })
  it('ranks a parent directory below every file of the project, and the user file below both', () => {
    assert.ok(pLocal.rank > projectLayerFiles(CHILD).at(-1)!.rank)
    assert.equal(pLocal.level, 1)
    assert.ok(USER_RANK > pYml.rank)
  })
  it('the nearest file wins per name; the parent row is shadowed by it', () => {
    const rows = mergeLayers([
      input(pYml, { s: { command: 'parent' }, only: { command: 'p' } }),
      input(cYml, { s: { command: 'child' } }),
    ])
    assert.deepEqual(summary(rows), [
      's@project:mcp.yml=active',
      's@project:mcp.yml=shadowed',
      'only@project:mcp.yml=active',
    ])
    assert.equal(byName(rows, 's')[0]!.file, cYml.file)
    assert.equal(byName(rows, 's')[1]!.shadowedBy?.file, cYml.file)
  })
  it('a local partial override in the project merges onto a parent row', () => {
    const rows = mergeLayers([
      input(pYml, { s: { command: 'p', env: { A: '1' } } }),
      input(cLocal, { s: { env: { B: '2' } } }),
    ])
    const w = winners(rows)[0]!
    assert.equal(w.file, pYml.file)
    assert.deepEqual(w.entry?.env, { A: '1', B: '2' })
    assert.equal(w.overriddenBy, cLocal.file)
  })
  it('disable: turns off a parent row and a user row without redefining them', () => {
    const rows = mergeLayers([
      input(pYml, { s: { command: 'p' } }),
      input(USER, { u: { command: 'u' } }),
      withKeys(cYml, { servers: {}, disable: ['s', 'u'] }),
    ])
    for (const name of ['s', 'u']) {
      const w = winners(rows).find((r) => r.name === name)!
      assert.equal(w.state, 'disabled')
      assert.deepEqual(w.disabledBy, { scope: 'project', file: cYml.file })
      assert.ok(w.entry, 'the row keeps its entry (explain shows it)')
    }
  })
  it('disable: never touches a row from the disabling file or a stronger one', () => {
    const rows = mergeLayers([
      withKeys(cYml, { servers: { s: { command: 'own' } }, disable: ['s', 't'] }),
      input(cLocal, { t: { command: 'local' } }),
      input(pYml, { s: { command: 'p' } }),
    ])
    assert.equal(winners(rows).find((r) => r.name === 's')!.state, 'active')
    assert.equal(winners(rows).find((r) => r.name === 't')!.state, 'active')
  })
  it("a parent's own disable: applies below it, and the user file cannot disable", () => {
    const rows = mergeLayers([
      withKeys(pYml, { servers: {}, disable: ['u'] }),
      withKeys(USER, { servers: { u: { command: 'u' } }, disable: ['u'] }),
    ])
    assert.equal(winners(rows)[0]!.disabledBy?.file, pYml.file)
    const own = mergeLayers([withKeys(USER, { servers: { u: { command: 'u' } }, disable: ['u'] })])
    assert.equal(winners(own)[0]!.state, 'active')
  })
})
