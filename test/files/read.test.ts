/**
 * readConfigFile / readLayers on real files: absent files, the layer set of
 * a project, partial overrides allowed only in the local file.
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { mergeLayers } from '../../src/config/layers.ts'
import { readConfigFile, readLayers } from '../../src/files/read.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

describe('readConfigFile', () => {
  it('a missing file (or a missing directory) is absent, with no diagnostics', () => {
    const t = makeTempDir()
    assert.deepEqual(readConfigFile({ file: t.join('nope.yml'), format: 'friendly' }), { absent: true })
    assert.deepEqual(readConfigFile({ file: t.join('no/dir/mcp.yml'), format: 'friendly' }), { absent: true })
    t.write('file', 'x')
    assert.deepEqual(readConfigFile({ file: t.join('file/mcp.yml'), format: 'friendly' }), { absent: true })
  })
  it('returns the text it parsed', () => {
    const t = makeTempDir()
    const file = t.write('mcp.yml', 'servers:\n  a: { command: x }\n')
    const r = readConfigFile({ file, format: 'friendly' })
    assert.ok(!r.absent)
    assert.equal(r.text, 'servers:\n  a: { command: x }\n')
    assert.equal(r.parsed.entries[0]?.entry?.command, 'x')
  })
  it('a file of exactly the size cap is read; one byte more is refused', () => {
    const t = makeTempDir()
    const body = 'servers: {}\n#'
    const at = t.write('at.yml', body + 'x'.repeat(1024 * 1024 - body.length))
    const over = t.write('over.yml', body + 'x'.repeat(1024 * 1024 - body.length + 1))
    const a = readConfigFile({ file: at, format: 'friendly' })
    const b = readConfigFile({ file: over, format: 'friendly' })
    assert.ok(!a.absent && !b.absent)
    assert.equal(a.parsed.ok, true)
    assert.deepEqual(
      b.parsed.diagnostics.map((d) => [d.code, d.line]),
      [['too-large', 0]],
    )
  })
})

describe('readLayers', () => {
  it('reads the present files of a project and the user file, allowing partial rows only locally', () => {
    const p = makeProject({
      '.dsh/mcp.local.yml': 'servers:\n  gh: { enabled: false }\n',
      '.dsh/mcp.yml': 'servers:\n  gh: { command: npx }\n  half: { enabled: false }\n',
      '.mcp.json': '{"mcpServers": {"legacy": {"command": "x"}}}',
    })
    const home = makeTempDir()
    home.write('mcp.yml', 'servers:\n  global: { url: "https://g.example/mcp" }\n')
    const layers = readLayers(p.path, { home: home.path, dshHome: home.path })
    assert.deepEqual(
      layers.map((l) => [l.layer.scope, l.layer.file]),
      [
        ['local', p.join('.dsh/mcp.local.yml')],
        ['project', p.join('.dsh/mcp.yml')],
        ['legacy', p.join('.mcp.json')],
        ['user', home.join('mcp.yml')],
      ],
    )
    const rows = mergeLayers(layers)
    assert.deepEqual(
      rows.map((r) => `${r.name}:${r.scope}:${r.state}`),
      ['gh:project:disabled', 'half:project:invalid', 'legacy:legacy:active', 'global:user:active'],
    )
  })
  it('honours legacyMcpJson: false and userLayer: false', () => {
    const p = makeProject({ '.mcp.json': '{"mcpServers": {}}' })
    const home = makeTempDir()
    home.write('mcp.yml', 'servers: {}\n')
    const layers = readLayers(
      p.path,
      { home: home.path, dshHome: home.path },
      { legacyMcpJson: false, userLayer: false },
    )
    assert.deepEqual(layers, [])
    assert.equal(readLayers(undefined, { home: home.path, dshHome: home.path }).length, 1)
  })
})
