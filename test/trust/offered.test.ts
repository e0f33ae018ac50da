/**
 * Offered tool lists on disk: a 0600 file in a 0700 `$DSH_HOME/mcp-tool-review`, read back only for its
 * own root and name; a link, a hard link, corrupt text or another record's file reads as none; removal
 * is idempotent.
 */
import assert from 'node:assert/strict'
import { linkSync, statSync, symlinkSync, writeFileSync, renameSync, copyFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { after, test } from 'node:test'
import { offeredPath, type OfferedRecord, readOffered, removeOffered, writeOffered } from '../../src/trust/offered.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

const record = (root: string, server: string): OfferedRecord => ({
  version: 1,
  root,
  server,
  fingerprint: 'sha256:f',
  offeredAt: new Date(0).toISOString(),
  tools: [{ name: 'echo', description: 'Echo', schema: { type: 'object' } }],
})

test('written 0600 in a 0700 directory; read back for its root and name only; removed', () => {
  const home = makeTempDir('dsh-mcp-offered-')
  writeOffered(home.path, record('/p', 'a'))
  const file = offeredPath(home.path, '/p', 'a')
  assert.equal(statSync(file).mode & 0o777, 0o600)
  assert.equal(statSync(dirname(file)).mode & 0o777, 0o700)
  assert.deepEqual(readOffered(home.path, '/p', 'a'), record('/p', 'a'))
  assert.equal(readOffered(home.path, '/p', 'b'), undefined)
  assert.equal(readOffered(home.path, '/q', 'a'), undefined)
  removeOffered(home.path, '/p', 'a')
  removeOffered(home.path, '/p', 'a')
  assert.equal(readOffered(home.path, '/p', 'a'), undefined)
})

test('a link, a hard link, corrupt text or another record copied in reads as none', () => {
  const home = makeTempDir('dsh-mcp-offered-')
  writeOffered(home.path, record('/p', 'a'))
  writeOffered(home.path, record('/p', 'b'))
  const a = offeredPath(home.path, '/p', 'a')
  const b = offeredPath(home.path, '/p', 'b')
  // b's record under a's file name: written for another name.
  copyFileSync(b, a)
  assert.equal(readOffered(home.path, '/p', 'a'), undefined)
  writeFileSync(a, '{not json')
  assert.equal(readOffered(home.path, '/p', 'a'), undefined)
  const elsewhere = home.write('elsewhere.json', `${JSON.stringify(record('/p', 'a'))}\n`)
  renameSync(a, `${a}.old`)
  symlinkSync(elsewhere, a)
  assert.equal(readOffered(home.path, '/p', 'a'), undefined)
  renameSync(a, `${a}.link`)
  linkSync(elsewhere, a)
  assert.equal(readOffered(home.path, '/p', 'a'), undefined)
})
