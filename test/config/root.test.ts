/**
 * Project root discovery (docs/guide/layers.md), on real directories: config
 * markers, the .git boundary (inclusive), never above home, the user file is
 * not a marker, no .git ⇒ the directory itself.
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { findProjectRoot, ROOT_MARKERS } from '../../src/config/root.ts'
import { projectRootOf } from '../../src/files/read.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

/** A fake home with a layout `{ 'rel/path': '' }`; a path ending in `/` is a directory. */
function layout(entries: string[]) {
  const t = makeTempDir('dsh-root-')
  for (const e of entries) {
    if (e.endsWith('/')) t.mkdir(e)
    else t.write(e, 'servers: {}\n')
  }
  const loc = { home: t.path, dshHome: t.join('.dsh') }
  return { t, root: (dir: string) => projectRootOf(t.join(dir), loc) }
}

describe('findProjectRoot on disk', () => {
  for (const marker of ROOT_MARKERS) {
    it(`${marker} marks a root below the .git root`, () => {
      const { t, root } = layout(['repo/.git/', `repo/pkg/${marker}`, 'repo/pkg/src/deep/'])
      assert.deepEqual(root('repo/pkg/src/deep'), { root: t.join('repo/pkg'), reason: 'config' })
    })
  }
  it('the nearest marker wins', () => {
    const { t, root } = layout(['repo/.git/', 'repo/.mcp.json', 'repo/a/.dsh/mcp.yml', 'repo/a/b/'])
    assert.equal(root('repo/a/b').root, t.join('repo/a'))
    assert.equal(root('repo').root, t.join('repo'))
  })
  it('a marker in the .git root itself counts (the boundary is inclusive)', () => {
    const { t, root } = layout(['repo/.git/', 'repo/.dsh/mcp.json', 'repo/x/y/'])
    assert.deepEqual(root('repo/x/y'), { root: t.join('repo'), reason: 'config' })
  })
  it('stops at the nearest .git root: markers above it are not seen', () => {
    const { t, root } = layout(['outer/.mcp.json', 'outer/inner/.git/', 'outer/inner/src/'])
    assert.deepEqual(root('outer/inner/src'), { root: t.join('outer/inner'), reason: 'git' })
  })
  it('a .git file (worktree, submodule) is a boundary too', () => {
    const { t, root } = layout(['outer/.git/', 'outer/.mcp.json', 'outer/sub/.git', 'outer/sub/lib/'])
    assert.deepEqual(root('outer/sub/lib'), { root: t.join('outer/sub'), reason: 'git' })
  })
  it('a .dsh directory without a config file is not a marker', () => {
    const { t, root } = layout(['repo/.git/', 'repo/pkg/.dsh/', 'repo/pkg/.dsh/other.yml', 'repo/pkg/src/'])
    assert.deepEqual(root('repo/pkg/src'), { root: t.join('repo'), reason: 'git' })
  })
  it('with no .git and no marker: the directory itself', () => {
    const { t, root } = layout(['work/a/b/'])
    assert.deepEqual(root('work/a/b'), { root: t.join('work/a/b'), reason: 'cwd' })
  })
  it('never looks above home (a marker in its parent is ignored)', () => {
    const parent = makeTempDir('dsh-root-parent-')
    parent.write('.mcp.json', '{}')
    parent.mkdir('home/u/proj')
    const loc = { home: parent.join('home/u'), dshHome: parent.join('home/u/.dsh') }
    assert.deepEqual(projectRootOf(parent.join('home/u/proj'), loc), {
      root: parent.join('home/u/proj'),
      reason: 'cwd',
    })
  })
  it('the user file $DSH_HOME/mcp.yml is not a marker (home is not a project)', () => {
    const { t, root } = layout(['.dsh/mcp.yml', 'notes/'])
    assert.deepEqual(root('notes'), { root: t.join('notes'), reason: 'cwd' })
    assert.deepEqual(root(''), { root: t.path, reason: 'cwd' })
  })
  it('a project config in home is still a marker when DSH_HOME is elsewhere', () => {
    const t = makeTempDir('dsh-root-')
    t.write('.dsh/mcp.yml', 'servers: {}\n')
    t.mkdir('notes')
    assert.equal(projectRootOf(t.join('notes'), { home: t.path, dshHome: t.join('elsewhere') }).root, t.path)
  })
})

describe('findProjectRoot (pure)', () => {
  const probe = (present: string[], home = '/home/u') => ({ exists: (p: string) => present.includes(p), home })
  it('works outside home and resolves relative input', () => {
    assert.deepEqual(findProjectRoot('/srv/app/src', probe(['/srv/app/.git'])), { root: '/srv/app', reason: 'git' })
    assert.equal(findProjectRoot('/srv/x', probe([])).root, '/srv/x')
    assert.equal(findProjectRoot('/srv/app/src/../src', probe(['/srv/app/.mcp.json'])).root, '/srv/app')
  })
  it('does not stop at a directory merely named like home outside it', () => {
    assert.equal(findProjectRoot('/home/user2/p', probe(['/home/.mcp.json'], '/home/u')).root, '/home')
  })
  it('the walk reaches a marker in home itself', () => {
    assert.equal(findProjectRoot('/home/u/p/q', probe([path.join('/home/u', '.mcp.json')])).root, '/home/u')
  })
})
