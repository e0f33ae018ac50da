/**
 * launch/locked.ts: which starts the lock decides. Not locked (no runner, no lock file, no entry): start as
 * written. Locked: a stale entry, a lock that does not parse, an install not prepared are refused with the
 * fixing command. (The prepared start and a changed store entry run on a real host against a real
 * registry: test/security/lock-prepared.test.ts.)
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { lockedStart } from '../../src/launch/locked.ts'
import { writeLockFile } from '../../src/files/lock-file.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())
const I = `sha512-${'A'.repeat(86)}==`

test('not locked: no runner, no lock file, no entry for the server → undefined', () => {
  const root = makeTempDir()
  const ref = { root: root.path, name: 'fix', dshHome: makeTempDir().path }
  assert.equal(lockedStart(ref, 'node', ['x.js'], '/node'), undefined)
  assert.equal(lockedStart(ref, 'npx', ['-y', 'pkg'], '/node'), undefined)
  assert.equal(lockedStart(ref, 'bunx', ['pkg'], '/node'), undefined)
  writeLockFile(root.path, { lockfileVersion: 1, servers: {} })
  assert.equal(lockedStart(ref, 'npx', ['-y', 'pkg'], '/node'), undefined)
})

test('locked: stale spec, unprepared install, unreadable lock are refused with the command', () => {
  const root = makeTempDir()
  const ref = { root: root.path, name: 'fix', dshHome: makeTempDir().path }
  const entry = {
    runner: 'npx' as const,
    spec: 'pkg',
    package: 'pkg',
    version: '1.0.0',
    integrity: I,
    bin: 'pkg',
    packages: { 'node_modules/pkg': { version: '1.0.0', integrity: I, bin: { pkg: 'b.js' } } },
  }
  writeLockFile(root.path, { lockfileVersion: 1, servers: { fix: entry } })
  assert.deepEqual(lockedStart(ref, 'npx', ['-y', 'pkg'], '/node'), {
    refuse: 'pkg@1.0.0 is locked but not prepared; run: dsh-mcp prepare fix',
  })
  const stale = lockedStart(ref, 'npx', ['-y', 'pkg@2'], '/node')
  assert.match((stale as { refuse: string }).refuse, /made for pkg, the config now runs pkg@2; run: dsh-mcp lock fix/)
  root.write('.dsh/mcp.lock', '{')
  assert.match((lockedStart(ref, 'npx', ['pkg'], '/node') as { refuse: string }).refuse, /does not read/)
})
