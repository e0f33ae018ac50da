/** trust/signed.ts: the team trust file, the signed payload and what a record means for a row (pure). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readTrustedSigners } from '../../src/config/signers.ts'
import {
  decodeTeamTrust,
  emptyTeamTrust,
  encodeTeamTrust,
  isVerifyRequest,
  judgeSigned,
  signedPayload,
  verifiedAnswer,
} from '../../src/trust/signed.ts'

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEn9XqkvQ+jCz/as30WAXLijD6Wi9HpDIzqTVgGv3KUl'
const OTHER = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPQ6dkJuy4z4dBg7pmwfG9JWkX8PULOtUT0oRlCqgN5a'
const SIG = '-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n'
const record = (key = KEY, fingerprint = 'sha256:a') => ({
  fingerprint,
  signer: { label: 'claimed-by-file', key: { type: key.split(' ')[0]!, body: key.split(' ')[1]! } },
  signedAt: '2026-01-01T00:00:00.000Z',
  signature: SIG,
})

test('the payload binds project path, server name, fingerprint and time, one per line', () => {
  const p = signedPayload({ project: 'packages/a', name: 's', fingerprint: 'sha256:a', signedAt: 'T' })
  assert.equal(p, 'dsh-mcp signed approval v1\nproject: packages/a\nserver: s\nfingerprint: sha256:a\nsigned-at: T\n')
  assert.notEqual(p, signedPayload({ project: 'packages/b', name: 's', fingerprint: 'sha256:a', signedAt: 'T' }))
  assert.notEqual(p, signedPayload({ project: 'packages/a', name: 't', fingerprint: 'sha256:a', signedAt: 'T' }))
})

test('encode is stable (sorted names, fixed key order) and decodes back; malformed records are dropped by name', () => {
  const f = emptyTeamTrust()
  f.servers.b = record()
  f.servers.a = record()
  const text = encodeTeamTrust(f)
  assert.ok(text.indexOf('"a"') < text.indexOf('"b"'))
  assert.equal(encodeTeamTrust(decodeTeamTrust(text).file), text)
  const bad = JSON.parse(text)
  bad.servers.a.signature = 'x'
  bad.servers.b.signedAt = 'T\nfingerprint: other'
  const d = decodeTeamTrust(JSON.stringify(bad))
  assert.deepEqual(Object.keys(d.file.servers), [])
  assert.equal(d.problems.length, 2)
  assert.deepEqual(decodeTeamTrust('[').problems, ['is not valid JSON'])
})

test('judgeSigned: revoked, stale, unknown signer, no verifier, then a request verified as the user labels it', () => {
  const { signers } = readTrustedSigners({ alice: KEY })
  const base = { project: '.', name: 's', fingerprint: 'sha256:a', signers, revoked: false, verifier: true }
  assert.equal(judgeSigned({ ...base, record: undefined }), undefined)
  assert.deepEqual(judgeSigned({ ...base, record: record(), revoked: true }), { state: 'revoked' })
  assert.deepEqual(judgeSigned({ ...base, record: record(KEY, 'sha256:old') }), { state: 'stale' })
  assert.deepEqual(judgeSigned({ ...base, record: record(OTHER) }), { state: 'unknown-signer' })
  assert.deepEqual(judgeSigned({ ...base, record: record(), verifier: false }), { state: 'no-verifier' })
  const req = judgeSigned({ ...base, record: record() })
  assert.ok(isVerifyRequest(req))
  assert.equal(
    req.payload,
    signedPayload({ project: '.', name: 's', fingerprint: 'sha256:a', signedAt: record().signedAt }),
  )
  assert.deepEqual(
    verifiedAnswer(req, true),
    { state: 'trusted', signer: 'alice' },
    "the user's label, never the file's",
  )
  assert.deepEqual(verifiedAnswer(req, false), { state: 'bad' })
})
