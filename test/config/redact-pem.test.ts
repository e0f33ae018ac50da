/** PEM bodies masked whole, also line by line and when cut before END; headers, stamps and other text stay. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { maskPem, maskPemLine, type PemState } from '../../src/config/redact-pem.ts'

const KEY = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQ',
  'c2VjcmV0IGJvZHkgbGluZQ==',
  '-----END PRIVATE KEY-----',
]

test('a block is masked between its header and footer; the header and footer stay visible', () => {
  const out = maskPem(['before', ...KEY, 'after'].join('\n'))
  assert.ok(!out.includes('MIIEvQ') && !out.includes('c2VjcmV0'))
  for (const keep of ['before', 'after', '-----BEGIN PRIVATE KEY-----', '-----END PRIVATE KEY-----']) {
    assert.ok(out.includes(keep), keep)
  }
})

test('line by line (a log stream): the state carries, the stamp of each line stays', () => {
  const state: PemState = { inside: false }
  const stamped = KEY.map((l) => `2026-12-03T12:00:00.000Z ${l}`)
  const out = stamped.map((l) => maskPemLine(l, state))
  assert.equal(out[1], '2026-12-03T12:00:00.000Z ***')
  assert.ok(out.every((l) => l.startsWith('2026-12-03T12:00:00.000Z ')))
  assert.equal(state.inside, false, 'the END line closes the block')
})

test('a block cut before its END hides everything after the header; a one-line block too', () => {
  const cut = maskPem([KEY[0], KEY[1], KEY[2]].join('\n'))
  assert.ok(!cut.includes('MIIEvQ') && !cut.includes('c2VjcmV0'))
  const one = maskPem(`key=${KEY[0]}MIIEvQIBADANBg${KEY[3]} tail`)
  assert.ok(!one.includes('MIIEvQ'))
  assert.ok(one.startsWith('key=-----BEGIN PRIVATE KEY-----') && one.endsWith('-----END PRIVATE KEY----- tail'))
})

test('text without PEM is unchanged', () => {
  const text = 'dashes ----- and BEGIN words stay\nnothing to hide'
  assert.equal(maskPem(text), text)
})
