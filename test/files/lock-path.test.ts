/** What may sit at a writer's lock path: nothing or an empty directory; a link, a file or a full directory is refused. */
import assert from 'node:assert/strict'
import { mkdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { lockPathFor, lockPathProblem } from '../../src/files/lock-path.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('absent or an empty directory (a lock someone holds or left): no problem', () => {
  const d = makeTempDir()
  const file = d.write('mcp.yml', '')
  assert.equal(lockPathFor(file), `${file}.lock`)
  assert.equal(lockPathProblem(file), undefined)
  mkdirSync(lockPathFor(file))
  assert.equal(lockPathProblem(file), undefined)
})

test('a link (never followed), a regular file and a directory holding files are refused, naming the lock', () => {
  const d = makeTempDir()
  const linked = d.write('a.yml', '')
  symlinkSync('/dev/null', lockPathFor(linked))
  assert.match(lockPathProblem(linked)!, /is a symbolic link to \/dev\/null/)
  assert.equal(readlinkSync(lockPathFor(linked)), '/dev/null', 'left as it was')
  const filed = d.write('b.yml', '')
  writeFileSync(lockPathFor(filed), '')
  assert.ok(lockPathProblem(filed)?.includes(lockPathFor(filed)))
  const full = d.write('c.yml', '')
  mkdirSync(lockPathFor(full))
  writeFileSync(`${lockPathFor(full)}/planted`, '')
  assert.ok(lockPathProblem(full)?.includes(lockPathFor(full)))
})
