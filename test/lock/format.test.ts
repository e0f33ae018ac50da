/** lock/format.ts: the canonical text (sorted keys, final newline) and parse errors by field path. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { emptyLock, type LockFile, lockText, parseLock } from '../../src/lock/format.ts'

const I = `sha512-${'A'.repeat(86)}==`
const lock: LockFile = {
  lockfileVersion: 1,
  servers: {
    zeta: { runner: 'npx', spec: 'z', package: 'z', version: '1.0.0', integrity: I, bin: 'z', packages: {} },
    alpha: {
      spec: 'a@latest',
      runner: 'npm exec',
      version: '2.0.0',
      package: 'a',
      integrity: I,
      bin: 'a',
      packages: { 'node_modules/a': { version: '2.0.0', integrity: I, dependencies: { b: '^1' } } },
    },
  },
}

test('the text is canonical: sorted keys at every level, two-space indent, final newline; it round-trips', () => {
  const text = lockText(lock)
  assert.ok(text.endsWith('}\n'))
  assert.ok(text.indexOf('"alpha"') < text.indexOf('"zeta"'))
  assert.ok(text.indexOf('"bin"') < text.indexOf('"integrity"'))
  const back = parseLock(text)
  assert.ok('lock' in back)
  assert.equal(lockText(back.lock), text)
  assert.equal(lockText(emptyLock()), '{\n  "lockfileVersion": 1,\n  "servers": {}\n}\n')
})

test('bad input: not JSON, a wrong version, a field path for a bad entry, unknown keys', () => {
  assert.match((parseLock('{') as { error: string }).error, /^not JSON/)
  assert.match((parseLock('{"lockfileVersion":2,"servers":{}}') as { error: string }).error, /^lockfileVersion/)
  const bad = { ...lock, servers: { x: { ...lock.servers.zeta!, integrity: 'sha1-abc' } } }
  assert.match(
    (parseLock(JSON.stringify(bad)) as { error: string }).error,
    /^servers\.x\.integrity: a sha512 integrity/,
  )
  const extra = { ...lock, servers: { x: { ...lock.servers.zeta!, resolved: 'x' } } }
  assert.ok('error' in parseLock(JSON.stringify(extra)))
})
