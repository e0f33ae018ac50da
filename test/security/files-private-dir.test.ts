/**
 * Item 5/6 (issue 13): `$DSH_HOME`, `mcp-status/`, `mcp-logs/`, `mcp-cache/`
 * are 0700 and their files 0600 whatever the umask; a directory swapped in by
 * another user, a symlinked sub-directory, and a link planted at a file's
 * path are refused or replaced, never followed.
 */
import assert from 'node:assert/strict'
import {
  chmodSync,
  chownSync,
  closeSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { ensurePrivateDir, openPrivateAppend, PrivateDirError, writePrivateFile } from '../../src/files/private-dir.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

const mode = (p: string) => statSync(p).mode & 0o777
const OTHER = 65534

function withUmask<T>(mask: number, fn: () => T): T {
  const old = process.umask(mask)
  try {
    return fn()
  } finally {
    process.umask(old)
  }
}

test('created with 0700 / 0600 under umask 000 and umask 077', () => {
  for (const mask of [0o000, 0o077, 0o022]) {
    const t = makeTempDir()
    const home = t.join('a', 'dsh')
    withUmask(mask, () => {
      ensurePrivateDir(join(home, 'mcp-status'), { base: home })
      writePrivateFile(join(home, 'mcp-status', 'x.json'), '{}\n')
      const fd = openPrivateAppend(join(home, 'mcp-status', 'y.log'))
      closeSync(fd)
    })
    assert.equal(mode(home), 0o700, `umask ${mask.toString(8)}: $DSH_HOME`)
    assert.equal(mode(join(home, 'mcp-status')), 0o700)
    assert.equal(mode(join(home, 'mcp-status', 'x.json')), 0o600)
    assert.equal(mode(join(home, 'mcp-status', 'y.log')), 0o600)
  }
})

test('a sub-directory we own with loose bits is tightened; $DSH_HOME group/world-writable is refused', () => {
  const t = makeTempDir()
  const home = t.mkdir('dsh')
  mkdirSync(join(home, 'mcp-logs'), { mode: 0o777 })
  chmodSync(join(home, 'mcp-logs'), 0o777)
  ensurePrivateDir(join(home, 'mcp-logs'), { base: home })
  assert.equal(mode(join(home, 'mcp-logs')), 0o700)
  chmodSync(home, 0o777)
  assert.throws(
    () => ensurePrivateDir(join(home, 'mcp-logs'), { base: home }),
    (e: Error) => e instanceof PrivateDirError && /writable by every user/.test(e.message),
  )
  // Group-writable by the user's own primary group (user-private groups, umask 002): accepted; by another group: refused.
  chmodSync(home, 0o775)
  ensurePrivateDir(home)
  if (process.getuid?.() === 0) {
    chownSync(home, 0, OTHER)
    assert.throws(() => ensurePrivateDir(home), /writable by its group \(gid 65534\)/)
  }
})

test('swapped in by another user: $DSH_HOME, mcp-status/ and a log file owned by uid 65534 are refused', {
  skip: process.getuid?.() !== 0,
}, () => {
  const t = makeTempDir()
  const home = t.mkdir('dsh')
  mkdirSync(join(home, 'mcp-status'))
  chownSync(join(home, 'mcp-status'), OTHER, OTHER)
  assert.throws(() => ensurePrivateDir(join(home, 'mcp-status'), { base: home }), /owned by another user \(uid 65534\)/)
  const home2 = t.mkdir('dsh2')
  chownSync(home2, OTHER, OTHER)
  assert.throws(() => ensurePrivateDir(join(home2, 'mcp-logs'), { base: home2 }), /owned by another user/)
  const home3 = t.mkdir('dsh3')
  const log = join(home3, 'a.log')
  writeFileSync(log, 'theirs\n')
  chownSync(log, OTHER, OTHER)
  assert.throws(() => openPrivateAppend(log), /owned by another user/)
  assert.equal(readFileSync(log, 'utf8'), 'theirs\n')
})

test('a link at a sub-directory or at a file path is never followed', () => {
  const t = makeTempDir()
  const home = t.mkdir('dsh')
  const elsewhere = t.mkdir('elsewhere')
  symlinkSync(elsewhere, join(home, 'mcp-status'))
  assert.throws(() => ensurePrivateDir(join(home, 'mcp-status'), { base: home }), /symbolic link/)
  // A link at the file: the rename replaces the link, the target keeps its bytes.
  const victim = t.write('victim.txt', 'precious\n')
  mkdirSync(join(home, 'mcp-logs'))
  symlinkSync(victim, join(home, 'mcp-logs', 's.json'))
  writePrivateFile(join(home, 'mcp-logs', 's.json'), 'new\n')
  assert.equal(readFileSync(victim, 'utf8'), 'precious\n')
  assert.ok(!lstatSync(join(home, 'mcp-logs', 's.json')).isSymbolicLink())
  // Append through a link: refused, target untouched.
  symlinkSync(victim, join(home, 'mcp-logs', 'x.log'))
  assert.throws(() => {
    const fd = openPrivateAppend(join(home, 'mcp-logs', 'x.log'))
    writeSync(fd, 'oops')
  }, /symbolic link/)
  assert.equal(readFileSync(victim, 'utf8'), 'precious\n')
})
