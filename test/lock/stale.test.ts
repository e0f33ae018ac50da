/** lock/stale.ts: missing, changed and extra entries with the fixing command; old → new lines. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { LockEntry } from '../../src/lock/format.ts'
import { entryChanges, lockFindings } from '../../src/lock/stale.ts'

const I1 = `sha512-${'A'.repeat(86)}==`
const I2 = `sha512-${'B'.repeat(86)}==`
const entry = (spec: string, version = '1.0.0', integrity = I1): LockEntry => ({
  runner: 'npx',
  spec,
  package: 'p',
  version,
  integrity,
  bin: 'p',
  packages: {
    'node_modules/p': { version, integrity, bin: { p: 'cli.js' } },
    'node_modules/d': { version: '1.0.0', integrity: I1 },
  },
})

test('findings: none when every wanted server has an entry for its spec', () => {
  const lock = { lockfileVersion: 1 as const, servers: { a: entry('p') } }
  assert.deepEqual(lockFindings(new Map([['a', 'p']]), lock), { fresh: true, findings: [] })
})

test('findings: no lock, a missing entry, a changed spec, an extra entry — in name order', () => {
  assert.deepEqual(
    lockFindings(new Map([['a', 'p']]), undefined).findings.map((f) => f.kind),
    ['missing'],
  )
  const lock = { lockfileVersion: 1 as const, servers: { b: entry('p@1'), c: entry('p') } }
  const r = lockFindings(
    new Map([
      ['b', 'p@2'],
      ['a', 'p'],
    ]),
    lock,
  )
  assert.equal(r.fresh, false)
  assert.deepEqual(
    r.findings.map((f) => [f.name, f.kind]),
    [
      ['a', 'missing'],
      ['b', 'changed'],
      ['c', 'extra'],
    ],
  )
  assert.match(r.findings[0]!.message, /run: dsh-mcp lock a$/)
})

test('entryChanges: version, integrity and dependency moves, old → new', () => {
  const old = entry('p')
  const now = entry('p', '1.0.1', I2)
  now.packages['node_modules/e'] = { version: '2.0.0', integrity: I2 }
  delete now.packages['node_modules/d']
  assert.deepEqual(entryChanges(old, now), [
    'version: 1.0.0 → 1.0.1',
    `integrity: ${I1} → ${I2}`,
    'node_modules/d: 1.0.0 → removed',
    `node_modules/e: added 2.0.0 (${I2})`,
    `node_modules/p: 1.0.0 → 1.0.1 (${I2})`,
  ])
  assert.deepEqual(entryChanges(old, old), [])
  assert.match(entryChanges(undefined, old)[0]!, /^lock: none → p@1\.0\.0/)
})
