/**
 * Refusing files: a link out of the project, a user file inside a repository, the allow list read only from
 * the user's own file — and a plain project file read as it is. Attack framings: test/security/files-*.test.ts.
 */
import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import {
  fileRefusal,
  isInside,
  linkOutside,
  linkTarget,
  repositoryOf,
  SAFE_ROOTS_ENV,
  SAFE_ROOTS_FILE,
  safeRoots,
} from '../../src/files/guard.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('isInside: the directory itself and below it, never a sibling sharing a prefix', () => {
  assert.ok(isInside('/a/b', '/a/b'))
  assert.ok(isInside('/a/b/c', '/a/b'))
  assert.ok(!isInside('/a/bc', '/a/b'))
  assert.ok(isInside('/a/b', '/'))
})

test('links: inside the project allowed, out of it named with its target; a plain file is nothing', () => {
  const d = makeTempDir()
  const root = d.mkdir('proj')
  const outside = d.write('secret.yml', 'servers: {}\n')
  mkdirSync(join(root, '.dsh'))
  writeFileSync(join(root, 'real.yml'), '')
  symlinkSync(join(root, 'real.yml'), join(root, '.dsh', 'mcp.yml'))
  symlinkSync(outside, join(root, '.dsh', 'mcp.local.yml'))
  writeFileSync(join(root, '.dsh', 'mcp.json'), '{}')
  assert.equal(linkOutside(join(root, '.dsh', 'mcp.yml'), root), undefined)
  assert.deepEqual(linkOutside(join(root, '.dsh', 'mcp.local.yml'), root), {
    link: join(root, '.dsh', 'mcp.local.yml'),
    target: outside,
  })
  assert.equal(linkTarget(join(root, '.dsh', 'mcp.json')), undefined)
  assert.equal(linkTarget(join(root, '.dsh', 'mcp.local.yml')), outside)
  const home = d.mkdir('dsh-home')
  assert.equal(fileRefusal({ file: join(root, '.dsh', 'mcp.json') }, { root, dshHome: home }), undefined)
  assert.equal(
    fileRefusal({ file: join(root, '.dsh', 'mcp.local.yml') }, { root, dshHome: home })?.reason,
    'symlink-out',
  )
})

test('repositoryOf: the nearest repository above a file, never the home directory or above it', () => {
  const d = makeTempDir()
  const repo = d.mkdir('home/code/repo')
  mkdirSync(join(repo, '.git'))
  mkdirSync(join(repo, 'pkg'))
  assert.equal(repositoryOf(join(repo, 'pkg', 'x.yml'), d.join('home')), repo)
  assert.equal(repositoryOf(d.join('home', 'code', 'x.yml'), d.join('home')), undefined)
  mkdirSync(d.join('home', '.git'))
  assert.equal(repositoryOf(d.join('home', '.dsh', 'mcp.yml'), d.join('home')), undefined, 'a dotfiles home is yours')
})

test('safe roots: the environment and the user own allow file; a file others may write allows nothing', () => {
  const d = makeTempDir()
  const home = d.mkdir('dsh')
  assert.deepEqual(safeRoots(home, { [SAFE_ROOTS_ENV]: '/a:/b' }), ['/a', '/b'])
  writeFileSync(join(home, SAFE_ROOTS_FILE), '/c # mine\n\n# comment\n/d\n')
  chmodSync(join(home, SAFE_ROOTS_FILE), 0o600)
  assert.deepEqual(safeRoots(home, undefined), ['/c', '/d'])
  chmodSync(join(home, SAFE_ROOTS_FILE), 0o666)
  assert.deepEqual(safeRoots(home, undefined), [])
})
