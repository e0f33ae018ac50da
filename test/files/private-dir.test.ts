/**
 * Private directories and files under `$DSH_HOME`, the plain contract: named sub-directories made 0700 with
 * their parents, files written 0600 and appended 0600. Attacks (other users, planted links): test/security/files-private-dir.
 */
import assert from 'node:assert/strict'
import { closeSync, readFileSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { ensureHomeDir, openPrivateAppend, PRIVATE_DIRS, writePrivateFile } from '../../src/files/private-dir.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())
const mode = (p: string) => statSync(p).mode & 0o777

test('each named directory is made below $DSH_HOME, both 0700, and reused as it is', () => {
  const d = makeTempDir()
  const home = d.join('dsh')
  for (const which of Object.keys(PRIVATE_DIRS) as (keyof typeof PRIVATE_DIRS)[]) {
    const dir = ensureHomeDir(home, which)
    assert.equal(dir, join(home, PRIVATE_DIRS[which]))
    assert.equal(mode(dir), 0o700)
    assert.equal(ensureHomeDir(home, which), dir)
  }
  assert.equal(mode(home), 0o700)
})

test('files are written whole at 0600, and appended at 0600', () => {
  const dir = ensureHomeDir(makeTempDir().join('dsh'), 'logs')
  const file = join(dir, 'a.json')
  writePrivateFile(file, '{"a":1}\n')
  writePrivateFile(file, '{"a":2}\n')
  assert.equal(readFileSync(file, 'utf8'), '{"a":2}\n')
  assert.equal(mode(file), 0o600)
  const log = join(dir, 'x.log')
  for (const line of ['one\n', 'two\n']) {
    const fd = openPrivateAppend(log)
    writeSync(fd, line)
    closeSync(fd)
  }
  assert.equal(readFileSync(log, 'utf8'), 'one\ntwo\n')
  assert.equal(mode(log), 0o600)
})
