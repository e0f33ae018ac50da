/** lock/check.ts and the strict schema: an entry is what its spec names, and nothing but registry tarballs parses. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkLockEntry, npxBin } from '../../src/lock/check.ts'
import { type LockEntry, parseLock } from '../../src/lock/format.ts'

const I1 = `sha512-${'A'.repeat(86)}==`
const I2 = `sha512-${'B'.repeat(86)}==`
const entry = (over: Partial<LockEntry> = {}): LockEntry => ({
  runner: 'npx',
  spec: 'good@1.0.0',
  package: 'good',
  version: '1.0.0',
  integrity: I1,
  bin: 'good',
  packages: { 'node_modules/good': { version: '1.0.0', integrity: I1, bin: { good: 'cli.js' } } },
  ...over,
})

test('a matching entry is valid: pinned, range and tag specs', () => {
  assert.deepEqual(checkLockEntry(entry(), { spec: 'good@1.0.0' }), { ok: true })
  assert.deepEqual(checkLockEntry(entry({ spec: 'good@^1' }), { spec: 'good@^1' }), { ok: true })
  assert.deepEqual(checkLockEntry(entry({ spec: 'good' }), { spec: 'good' }), { ok: true })
  assert.deepEqual(checkLockEntry(entry({ spec: 'good@next' }), { spec: 'good@next' }), { ok: true })
})

test('a swapped package, version, root or bin is refused with the field named', () => {
  const evilTree = { 'node_modules/evil': { version: '6.6.6', integrity: I2, bin: { evil: 'x.js' } } }
  const swapped = entry({ package: 'evil', version: '6.6.6', integrity: I2, bin: 'evil', packages: evilTree })
  const r = checkLockEntry(swapped, { spec: 'good@1.0.0' })
  assert.equal(r.ok, false)
  assert.equal((r as { field: string }).field, 'package')
  const field = (e: LockEntry, spec = 'good@1.0.0', bins?: Record<string, string>, bin?: string) =>
    (checkLockEntry(e, { spec, bin }, bins) as { field?: string }).field
  assert.equal(field(entry({ version: '1.0.2' })), 'version')
  assert.equal(field(entry({ spec: 'good@^2', version: '1.0.0' }), 'good@^2'), 'version')
  assert.equal(field(entry({ integrity: I2 })), 'root')
  assert.equal(
    field(entry({ packages: { 'node_modules/good': { version: '1.0.0', integrity: I1, name: 'evil' } } })),
    'root',
  )
  assert.equal(field(entry({ packages: {} })), 'root')
  assert.equal(field(entry({ bin: 'other' })), 'bin')
  // The installed package's own bins decide, not the lock's record.
  assert.equal(field(entry(), 'good@1.0.0', { other: 'o.js' }), 'bin')
  assert.equal(field(entry({ bin: 'other' }), 'good@1.0.0', { good: 'g.js', other: 'o.js' }, 'other'), undefined)
  assert.equal(field(entry(), 'good@2.0.0'), 'spec')
})

test("npxBin: the asked bin, the package's own name, its only bin, else an error", () => {
  assert.deepEqual(npxBin('@s/p', { p: 'a', q: 'b' }), { bin: 'p' })
  assert.deepEqual(npxBin('p', { q: 'b' }), { bin: 'q' })
  assert.ok('error' in npxBin('p', { q: 'b', r: 'c' }))
  assert.ok('error' in npxBin('p', { q: 'b' }, 'z'))
})

test('the schema admits registry tarballs only: exact versions, sha512, package names, registry ranges', () => {
  const lockOf = (e: unknown) => JSON.stringify({ lockfileVersion: 1, servers: { s: e } })
  const err = (e: unknown) => (parseLock(lockOf(e)) as { error?: string }).error
  assert.equal(err(entry()), undefined)
  assert.match(err(entry({ version: 'git+file:///tmp/repo' }))!, /^servers\.s\.version: an exact semver/)
  assert.match(err(entry({ version: '^1.0.0' }))!, /version/)
  assert.match(err(entry({ package: '../evil' }))!, /servers\.s\.package/)
  assert.match(err(entry({ integrity: `sha512-${'A'.repeat(10)}==` }))!, /integrity/)
  const tree = (p: Record<string, unknown>) =>
    entry({ packages: { 'node_modules/good': p } as unknown as LockEntry['packages'] })
  const base = { version: '1.0.0', integrity: I1 }
  assert.match(err(tree({ ...base, version: 'file:../x' }))!, /packages/)
  assert.match(err(tree({ ...base, version: 'https://example.invalid/x.tgz' }))!, /packages/)
  for (const dep of [
    'git+file:///tmp/r',
    'file:../x',
    'github:u/r',
    'u/r',
    '../x',
    '.',
    'https://x/y.tgz',
    'npm:x@git+file:/r',
  ])
    assert.match(err(tree({ ...base, dependencies: { d: dep } }))!, /registry range/, dep)
  for (const dep of ['^1.0.0', '>=1 <2', '1.x || 2', '*', '', 'latest', 'npm:@s/x@^1'])
    assert.equal(err(tree({ ...base, dependencies: { d: dep } })), undefined, dep)
  assert.match(
    err(entry({ packages: { '../../etc': base } as unknown as LockEntry['packages'] }))!,
    /servers\.s\.packages/,
  )
  assert.match(
    err(entry({ packages: { 'node_modules/good': { ...base, resolved: 'git+file:///r' } } as never }))!,
    /servers\.s\.packages/,
  )
})
