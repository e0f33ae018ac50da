/**
 * lock/pin.ts and its use by the trust fingerprint (config/fingerprint.ts) and the plan (plan/desired.ts,
 * plan/memo.ts): a covered row carries its lock entry's pin; a changed version, integrity or dependency
 * integrity changes its trust fingerprint; a user row, a `lock: false` row, a plain command and an unlocked
 * runner row carry none (their fingerprints stay what they were); the memo re-judges on a new lock.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { rowFingerprint } from '../../src/config/fingerprint.ts'
import { type LayerInput, mergeLayers, projectLayerFiles, type Row } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import type { LockEntry, LockFile } from '../../src/lock/format.ts'
import { attachLockPins, lockCovers, lockPinOf } from '../../src/lock/pin.ts'
import { desiredState, type PlanInput } from '../../src/plan/desired.ts'
import { createPlanMemo } from '../../src/plan/memo.ts'
import { reviewSnapshot, snapshotChanges } from '../../src/trust/snapshot.ts'
import { readTrustedSigners } from '../../src/config/signers.ts'
import { isVerifyRequest, judgeSigned } from '../../src/trust/signed.ts'

const I1 = `sha512-${'A'.repeat(86)}==`
const I2 = `sha512-${'B'.repeat(86)}==`
const ROOT = '/p'
const entry = (version = '1.0.0', integrity = I1, dep = I1): LockEntry => ({
  runner: 'npx',
  spec: 'pkg',
  package: 'pkg',
  version,
  integrity,
  bin: 'pkg',
  packages: {
    'node_modules/pkg': { version, integrity },
    'node_modules/dep': { version: '1.0.0', integrity: dep },
  },
})
const lockOf = (e: LockEntry): LockFile => ({ lockfileVersion: 1, servers: { fix: e } })

function layer(servers: Record<string, unknown>): LayerInput {
  const file = projectLayerFiles(ROOT)[1]!
  return { layer: file, parsed: parseConfigText(JSON.stringify({ servers }), { file: file.file, format: file.format }) }
}
const rowsOf = (servers: Record<string, unknown>, lock?: LockFile) =>
  attachLockPins(mergeLayers([layer(servers)]), ROOT, () => lock)
const npx = { command: 'npx', args: ['-y', 'pkg'] }

test('a covered row carries its entry pin; the fingerprint moves with version, integrity and a dependency', () => {
  const [plain] = rowsOf({ fix: npx })
  const [locked] = rowsOf({ fix: npx }, lockOf(entry()))
  assert.equal(plain!.lock, undefined)
  assert.deepEqual(locked!.lock, lockPinOf(entry()))
  const fp = (e: LockEntry) => rowFingerprint(rowsOf({ fix: npx }, lockOf(e))[0]!)
  const base = fp(entry())
  assert.notEqual(base, rowFingerprint(plain!), 'locking changes the fingerprint')
  assert.equal(fp(entry()), base, 'the same entry, the same fingerprint')
  assert.notEqual(fp(entry('1.0.1')), base, 'a changed version')
  assert.notEqual(fp(entry('1.0.0', I2)), base, 'a changed integrity')
  assert.notEqual(fp(entry('1.0.0', I1, I2)), base, 'a changed dependency integrity')
})

test('not covered: a user row, lock: false, a plain command, an unsupported runner; covered rows of a parent read its lock', () => {
  assert.equal(lockCovers({ scope: 'user', entry: npx }), false)
  assert.equal(lockCovers({ scope: 'project', entry: { ...npx, lock: false } }), false)
  assert.equal(lockCovers({ scope: 'project', entry: { command: 'node', args: ['s.js'] } }), false)
  assert.equal(lockCovers({ scope: 'project', entry: { command: 'bunx', args: ['pkg'] } }), false)
  assert.equal(lockCovers({ scope: 'project', entry: npx }), true)
  const asked: string[] = []
  const rows = attachLockPins(mergeLayers([layer({ fix: npx, off: { ...npx, lock: false } })]), ROOT, (d) => {
    asked.push(d)
    return { lockfileVersion: 1, servers: { fix: entry(), off: entry() } }
  })
  assert.deepEqual(asked, [ROOT])
  assert.ok(rows.find((r) => r.name === 'fix')?.lock)
  assert.equal(rows.find((r) => r.name === 'off')?.lock, undefined)
})

test('the review snapshot shows old → new package, version and integrity; a record from before reads added', () => {
  const [a] = rowsOf({ fix: npx }, lockOf(entry()))
  const [b] = rowsOf({ fix: npx }, lockOf(entry('1.0.1', I2)))
  const changes = snapshotChanges(reviewSnapshot(a!.entry!, a!.lock), reviewSnapshot(b!.entry!, b!.lock))
  assert.ok(changes.includes('lock.version: 1.0.0 → 1.0.1'), changes.join('\n'))
  assert.ok(changes.includes(`lock.integrity: ${I1} → ${I2}`), changes.join('\n'))
  assert.ok(changes.includes(`lock.node_modules/pkg: 1.0.0 ${I1} → 1.0.1 ${I2}`), changes.join('\n'))
  const before = snapshotChanges(reviewSnapshot(a!.entry!), reviewSnapshot(a!.entry!, a!.lock))
  assert.ok(before.includes('lock.version: added (1.0.0)'), before.join('\n'))
})

test('the plan: a trust verdict is asked with the pinned row; the memo re-judges when the locks change', () => {
  const seen: (string | undefined)[] = []
  const trusted = rowFingerprint(rowsOf({ fix: npx }, lockOf(entry()))[0]!)
  const base = (locks?: ReadonlyMap<string, LockFile>): PlanInput => ({
    projects: [{ root: ROOT, layers: [layer({ fix: npx })], ...(locks ? { locks } : {}) }],
    user: [],
    env: {},
    dshHome: '/h',
    platform: 'linux',
    trust: (_r, row: Row) => {
      seen.push(row.lock?.version)
      return rowFingerprint(row) === trusted ? 'trusted' : 'changed'
    },
  })
  const tagOf = (p: ReturnType<typeof desiredState>) => p.projects.get(ROOT)![0]!.verdict.tag
  assert.equal(tagOf(desiredState(base(new Map([[ROOT, lockOf(entry())]])))), 'runs')
  assert.equal(tagOf(desiredState(base(new Map([[ROOT, lockOf(entry('1.0.1'))]])))), 'needs-trust')
  const memo = createPlanMemo()
  const layers = base().projects[0]!.layers
  const withLocks = (locks: ReadonlyMap<string, LockFile>): PlanInput => ({
    ...base(),
    projects: [{ root: ROOT, layers, locks }],
  })
  assert.equal(tagOf(memo.plan(withLocks(new Map([[ROOT, lockOf(entry())]])))), 'runs')
  assert.equal(tagOf(memo.plan(withLocks(new Map([[ROOT, lockOf(entry('1.0.1'))]])))), 'needs-trust')
  assert.deepEqual(seen.slice(-1), ['1.0.1'])
})

test('a signed team approval (.dsh/mcp.trust) signs the fingerprint: a lock edit makes it stale', () => {
  const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEn9XqkvQ+jCz/as30WAXLijD6Wi9HpDIzqTVgGv3KUl'
  const { signers } = readTrustedSigners({ alice: KEY })
  const signedFor = rowFingerprint(rowsOf({ fix: npx }, lockOf(entry()))[0]!)
  const record = {
    fingerprint: signedFor,
    signer: { label: 'alice', key: { type: 'ssh-ed25519', body: KEY.split(' ')[1]! } },
    signedAt: '2026-01-01T00:00:00.000Z',
    signature: '-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n',
  }
  const judge = (e: LockEntry) =>
    judgeSigned({
      record,
      project: '.',
      name: 'fix',
      fingerprint: rowFingerprint(rowsOf({ fix: npx }, lockOf(e))[0]!),
      signers,
      revoked: false,
      verifier: true,
    })
  assert.ok(isVerifyRequest(judge(entry())), 'the same lock: the signature is checked')
  assert.deepEqual(judge(entry('1.0.1', I2)), { state: 'stale' })
})
