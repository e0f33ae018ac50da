/**
 * Monorepo inheritance (docs/guide/monorepos.md): the directories a project
 * inherits from (up to the repository root, nothing outside a repository),
 * the chain cut at `inherit: false`, and the directory a row belongs to.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { chainLayerFiles, inheritedDirs, readChain, rowHome } from '../../src/config/inherit.ts'
import type { LayerFile, LayerInput } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'

const probe = (present: string[], extra: { home?: string; foreign?: string[] } = {}) => ({
  exists: (p: string) => present.includes(p),
  home: extra.home ?? '/home/u',
  foreign: (d: string) => (extra.foreign ?? []).includes(d),
})

describe('inheritedDirs', () => {
  it('walks from the parent up to the repository root, nearest first, root included', () => {
    assert.deepEqual(inheritedDirs('/home/u/repo/packages/a/sub', probe(['/home/u/repo/.git'])), [
      '/home/u/repo/packages/a',
      '/home/u/repo/packages',
      '/home/u/repo',
    ])
  })
  it('a project that is itself a repository root inherits nothing (a nested repository stands alone)', () => {
    assert.deepEqual(
      inheritedDirs('/home/u/repo/vendor/x', probe(['/home/u/repo/.git', '/home/u/repo/vendor/x/.git'])),
      [],
    )
  })
  it('outside a repository nothing is inherited: never up to home or /', () => {
    assert.deepEqual(inheritedDirs('/home/u/work/a', probe([])), [])
    assert.deepEqual(inheritedDirs('/srv/a/b', probe([])), [])
  })
  it('never above home, never into a foreign directory', () => {
    assert.deepEqual(inheritedDirs('/home/u/a', probe(['/home/.git'])), [])
    assert.deepEqual(
      inheritedDirs('/home/u/a/b', probe(['/home/u/.git'])),
      [],
      'a dotfiles repository at ~ is no parent',
    )
    assert.deepEqual(inheritedDirs('/tmp/x/a', probe(['/tmp/.git'], { foreign: ['/tmp'] })), [])
  })
})

const layerInput = (layer: LayerFile, doc: Record<string, unknown>): LayerInput => ({
  layer,
  parsed: parseConfigText(JSON.stringify(doc), { file: layer.file, format: layer.format }),
})

describe('readChain', () => {
  const dirs = ['/r/packages/a', '/r/packages', '/r']
  it('reads every level, ranks rising with the distance', () => {
    const docs: Record<string, Record<string, unknown>> = {
      '/r/packages/a/.dsh/mcp.yml': { servers: { a: { command: 'a' } } },
      '/r/.dsh/mcp.yml': { servers: { r: { command: 'r' } } },
    }
    const got = readChain(dirs, {}, (l) => (docs[l.file] ? layerInput(l, docs[l.file]!) : undefined))
    assert.deepEqual(
      got.map((g) => [g.layer.file, g.layer.level ?? 0]),
      [
        ['/r/packages/a/.dsh/mcp.yml', 0],
        ['/r/.dsh/mcp.yml', 2],
      ],
    )
    assert.ok(got[0]!.layer.rank < got[1]!.layer.rank)
  })
  it('inherit: false keeps its own directory and stops above it', () => {
    const docs: Record<string, Record<string, unknown>> = {
      '/r/packages/a/.dsh/mcp.local.yml': { servers: {}, inherit: false },
      '/r/packages/a/.dsh/mcp.yml': { servers: { a: { command: 'a' } } },
      '/r/.dsh/mcp.yml': { servers: { r: { command: 'r' } } },
    }
    const got = readChain(dirs, {}, (l) => (docs[l.file] ? layerInput(l, docs[l.file]!) : undefined))
    assert.deepEqual(
      got.map((g) => g.layer.file),
      ['/r/packages/a/.dsh/mcp.local.yml', '/r/packages/a/.dsh/mcp.yml'],
    )
  })
  it('chainLayerFiles lists every file of every level (what the host watches)', () => {
    assert.equal(chainLayerFiles(dirs).length, 12)
    assert.equal(chainLayerFiles(dirs, { legacyMcpJson: false }).length, 9)
  })
})

describe('rowHome', () => {
  it('a parent row belongs to the parent; with an override from the project, to the project', () => {
    const parent = { scope: 'project' as const, file: '/r/.dsh/mcp.yml' }
    assert.equal(rowHome(parent, '/r/packages/a'), '/r')
    assert.equal(rowHome({ scope: 'legacy', file: '/r/.mcp.json' }, '/r/packages/a'), '/r')
    assert.equal(
      rowHome(
        { ...parent, sources: [parent, { scope: 'local', file: '/r/packages/a/.dsh/mcp.local.yml', keys: ['env'] }] },
        '/r/packages/a',
      ),
      '/r/packages/a',
    )
  })
  it('a user row belongs to the view root', () => {
    assert.equal(rowHome({ scope: 'user', file: '/home/u/.dsh/mcp.yml' }, '/r/packages/a'), '/r/packages/a')
  })
})
