/**
 * Secret shapes in free text, as a unit: credentials masked — and what stays visible (the sentence around them,
 * ordinary words, ports, hosts): over-redaction fails. The attacks on the rule are in
 * test/security/redaction-free-text.test.ts.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { redactShapesIn } from '../../src/config/redact-text.ts'

test('free text: credentials masked, the sentence around them and ordinary words kept', () => {
  const text =
    'connect https://bob:hunter22@db.test/x failed --api-key=zz-9999 --port=8080\nAuthorization: Bearer abc.def-123456'
  const out = redactShapesIn(text)
  for (const gone of ['hunter22', 'abc.def-123456', 'zz-9999']) assert.ok(!out.includes(gone), gone)
  for (const kept of ['connect https://', '@db.test/x failed', '--port=8080', 'Authorization'])
    assert.ok(out.includes(kept), kept)
  assert.ok(out.endsWith('Authorization: ***'), 'a header value runs to the end of its line')
  const words = 'Basic authentication is not supported; token: present in the header list'
  assert.ok(redactShapesIn(words).startsWith('Basic authentication is not supported'))
})

test('free text: PEM bodies and secret-named pairs masked, references and plain pairs kept', () => {
  const ref = `$${'{'}TOKEN}`
  assert.equal(redactShapesIn(`mode=fast token: ${ref}`), `mode=fast token: ${ref}`)
  assert.equal(redactShapesIn('"password": "s3cr3t", "user": "ann"'), '"password": "***", "user": "ann"')
  assert.equal(
    redactShapesIn('-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----'),
    '-----BEGIN PRIVATE KEY-----\n***\n-----END PRIVATE KEY-----',
  )
})
