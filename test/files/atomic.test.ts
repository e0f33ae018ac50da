/** The one atomic writer: old or new content, never a truncated file; unpredictable temp names; links replaced, never followed. */
import assert from 'node:assert/strict'
import { lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { after, test } from 'node:test'
import { replaceFile, tempPathFor } from '../../src/files/atomic.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('replaces the content with the mode asked for, whatever the umask, leaving no temp file', () => {
  const d = makeTempDir()
  const file = d.write('a.yml', 'old\n')
  replaceFile(file, 'new\n', { mode: 0o600 })
  assert.equal(readFileSync(file, 'utf8'), 'new\n')
  assert.equal(statSync(file).mode & 0o777, 0o600)
  replaceFile(file, Buffer.from('bytes\n'), { mode: 0o644 })
  assert.equal(statSync(file).mode & 0o777, 0o644)
  assert.deepEqual(readdirSync(d.path), ['a.yml'])
})

test('temp names sit beside the file, hidden, with the pid and 12 random hex digits, never twice the same', () => {
  const a = tempPathFor('/p/.dsh/mcp.yml')
  assert.equal(dirname(a), '/p/.dsh')
  assert.match(basename(a), new RegExp(`^\\.mcp\\.yml\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`))
  assert.notEqual(a, tempPathFor('/p/.dsh/mcp.yml'))
})

test('a link at the file is replaced by a regular file; its target is untouched', () => {
  const d = makeTempDir()
  const target = d.write('elsewhere.txt', 'precious\n')
  const file = d.join('mcp.yml')
  symlinkSync(target, file)
  replaceFile(file, 'mine\n', { mode: 0o600 })
  assert.equal(readFileSync(target, 'utf8'), 'precious\n')
  assert.ok(lstatSync(file).isFile())
  assert.equal(readFileSync(file, 'utf8'), 'mine\n')
})

test('a failed write leaves the file as it was and no temp file behind', () => {
  const d = makeTempDir()
  const file = d.write('a.yml', 'old\n')
  writeFileSync(d.join('not-a-dir'), '')
  assert.throws(() => replaceFile(d.join('not-a-dir', 'x.yml'), 'new', { mode: 0o600 }))
  assert.equal(readFileSync(file, 'utf8'), 'old\n')
  assert.deepEqual(readdirSync(d.path).sort(), ['a.yml', 'not-a-dir'])
})
