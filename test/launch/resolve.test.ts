/** Which file a command runs: a path as written, a bare name from the absolute PATH entries only; the spawn errno otherwise. */
import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { resolveCommand } from '../../src/launch/resolve.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

function exe(file: string, mode = 0o755): string {
  writeFileSync(file, '#!/bin/sh\n')
  chmodSync(file, mode)
  return file
}

test('a bare name: the first executable in the absolute entries, in order', () => {
  const d = makeTempDir()
  const a = d.mkdir('a')
  const b = d.mkdir('b')
  exe(join(b, 'tool'))
  exe(join(a, 'other'))
  assert.deepEqual(resolveCommand('tool', { PATH: `${a}:${b}` }, d.path), { path: join(b, 'tool') })
  exe(join(a, 'tool'))
  assert.deepEqual(resolveCommand('tool', { PATH: `${a}:${b}` }, d.path), { path: join(a, 'tool') })
})

test('relative, empty and "." entries are skipped: they would resolve inside the checkout', () => {
  const d = makeTempDir()
  mkdirSync(d.join('node_modules/.bin'), { recursive: true })
  exe(d.join('node_modules/.bin/tool'))
  exe(d.join('tool'))
  for (const PATH of ['node_modules/.bin', '.', ':', 'node_modules/.bin::.']) {
    assert.deepEqual(resolveCommand('tool', { PATH }, d.path), { code: 'ENOENT' }, PATH)
  }
})

test('a path is taken relative to cwd as written; not executable is EACCES, nothing is ENOENT', () => {
  const d = makeTempDir()
  exe(d.join('srv.sh'))
  exe(d.join('plain.txt'), 0o644)
  assert.deepEqual(resolveCommand('./srv.sh', {}, d.path), { path: './srv.sh' }, 'the path as written')
  assert.deepEqual(resolveCommand('./plain.txt', {}, d.path), { code: 'EACCES' })
  assert.deepEqual(resolveCommand('./missing', {}, d.path), { code: 'ENOENT' })
  const bin = d.mkdir('bin')
  mkdirSync(join(bin, 'dir-named-tool'))
  assert.deepEqual(resolveCommand('dir-named-tool', { PATH: bin }, d.path), { code: 'EACCES' })
})
