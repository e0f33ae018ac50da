/**
 * src/files/pinned-read.ts: a private file read exactly as it was checked —
 * a symbolic link refused at the open (O_NOFOLLOW), another file than the
 * checked one (dev+ino) refused, a hard-linked file refused, a missing file
 * absent, an oversized one refused; what passes is read whole.
 */
import assert from 'node:assert/strict'
import { linkSync, lstatSync, renameSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { readPinned, sameFile } from '../../src/files/pinned-read.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('the pinned reader: read as checked; a link, a swap, a second name, a missing or oversized file are not', () => {
  const dir = makeTempDir('dsh-mcp-pinned-')
  const a = dir.write('a.json', '{"a":1}\n')
  const b = dir.write('b.json', '{"b":1}\n')
  const checked = lstatSync(a)
  assert.deepEqual(readPinned(a, { max: 100, checked }), { text: '{"a":1}\n' })
  assert.ok(sameFile(checked, lstatSync(a)) && !sameFile(checked, lstatSync(b)))
  assert.deepEqual(readPinned(path.join(dir.path, 'none.json'), { max: 100 }), { absent: true })
  assert.match(String((readPinned(a, { max: 3 }) as { problem: string }).problem), /too large/)
  const link = path.join(dir.path, 'link.json')
  symlinkSync(a, link)
  assert.match(String((readPinned(link, { max: 100 }) as { problem: string }).problem), /symbolic link/)
  renameSync(b, a)
  assert.match(String((readPinned(a, { max: 100, checked }) as { problem: string }).problem), /replaced/)
  linkSync(a, path.join(dir.path, 'second-name.json'))
  assert.match(String((readPinned(a, { max: 100 }) as { problem: string }).problem), /2 hard links/)
  assert.match(String((readPinned(dir.path, { max: 100 }) as { problem: string }).problem), /not a regular file/)
})
