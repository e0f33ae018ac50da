/** files/lock-file.ts: absent, parsed, a parse error; the write is atomic canonical text and creates .dsh/. */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { after, test } from 'node:test'
import { lockPathOf, readLockFile, writeLockFile } from '../../src/files/lock-file.ts'
import { emptyLock, lockText } from '../../src/lock/format.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('absent, written (creating .dsh/, 0644, no temp file left), read back; a bad file is an error line', () => {
  const d = makeTempDir()
  assert.deepEqual(readLockFile(d.path), { absent: true })
  writeLockFile(d.path, emptyLock())
  assert.equal(readFileSync(lockPathOf(d.path), 'utf8'), lockText(emptyLock()))
  assert.equal(statSync(lockPathOf(d.path)).mode & 0o777, 0o644)
  assert.deepEqual(readdirSync(d.join('.dsh')), ['mcp.lock'])
  assert.deepEqual(readLockFile(d.path), { lock: emptyLock() })
  d.write('.dsh/mcp.lock', '{"lockfileVersion":1}')
  assert.match((readLockFile(d.path) as { error: string }).error, /^servers/)
  d.mkdir('dir/.dsh/mcp.lock')
  assert.ok('error' in readLockFile(d.join('dir')))
})
