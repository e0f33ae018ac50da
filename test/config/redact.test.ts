/**
 * The one redaction, as a unit: which values of an entry are secret (as written, expanded, per line,
 * JSON- and percent-encoded), replaced whole and longest first, redacted before a cut, edges masked — and
 * what must stay visible: names, plain arguments, hosts and paths, short values (over-redaction fails).
 * The attack framings (shapes an attacker picks) are test/security/redaction-*.test.ts.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  MIN_SECRET_LENGTH,
  percentForms,
  redact,
  redactCut,
  redactEdges,
  redactJson,
  secretValues,
} from '../../src/config/redact.ts'

test('env and header values, the credential after an auth scheme, and the variables a template uses', () => {
  const raw = {
    command: 'node',
    args: ['server.js', '--api-key', 'ak-123456'],
    env: { TOKEN: 'tok-abcdef', REF: '$' + '{FROM_ENV}' },
    headers: { Authorization: 'Bearer hdr-secret-1' },
  }
  const expanded = { ...raw, env: { TOKEN: 'tok-abcdef', REF: 'env-value-9' } }
  const s = secretValues(raw, expanded, { FROM_ENV: 'env-value-9' })
  for (const v of ['tok-abcdef', 'env-value-9', 'Bearer hdr-secret-1', 'hdr-secret-1', 'ak-123456']) {
    assert.ok(s.includes(v), v)
  }
  assert.ok(!s.includes('$' + '{FROM_ENV}'), 'a template is text, not a secret')
  assert.ok(!s.includes('server.js') && !s.includes('--api-key') && !s.includes('node'))
  for (let i = 1; i < s.length; i++) assert.ok(s[i - 1]!.length >= s[i]!.length, 'longest first')
})

test('URL userinfo and query values; encoded and per-line spellings', () => {
  const s = secretValues(
    {
      url: 'https://user:p%40ss-word@api.example.test/mcp?key=q-value-1&mode=fast',
      env: { PEM: 'line-one\nline-two' },
    },
    undefined,
    {},
  )
  for (const v of ['q-value-1', 'line-one', 'line-two', 'line-one\\nline-two']) assert.ok(s.includes(v), v)
  assert.ok(s.some((v) => v.includes('p@ss-word') || v.includes('p%40ss-word')))
  assert.ok(!s.includes('api.example.test'), 'the host is no secret')
})

test('redact replaces whole values and secret shapes; everything else stays as it was', () => {
  const secrets = secretValues({ command: 'x', env: { A: 'abc-secret', B: 'abc-secret-longer' } }, undefined, {})
  const text = 'server x failed: abc-secret-longer and abc-secret at /home/u/proj (exit 1) --verbose'
  const out = redact(text, secrets)
  assert.equal(out, 'server x failed: *** and *** at /home/u/proj (exit 1) --verbose')
  assert.equal(redact('GET https://u:pw-1234@h.test/x?token=zzz9 failed', []).includes('pw-1234'), false)
  assert.equal(redact('GET https://u:pw-1234@h.test/x?token=zzz9 failed', []).includes('h.test/x'), true)
})

test('short values are never redacted: "1" or "on" would garble every message', () => {
  const s = secretValues({ command: 'x', env: { DEBUG: '1', MODE: 'on' } }, undefined, {})
  assert.deepEqual(s, [])
  assert.equal(redact('exit 1, mode on', s), 'exit 1, mode on')
  assert.equal(MIN_SECRET_LENGTH, 3)
})

test('redactCut redacts before it cuts; redactEdges masks a fragment left at a cut edge', () => {
  const secrets = ['supersecretvalue']
  const cut = redactCut('token supersecretvalue trailing text', secrets, 12)
  assert.equal(cut, 'token *** t…')
  assert.equal(redactEdges('retvalue and more', secrets, { start: true }), '*** and more')
  assert.equal(redactEdges('and more super', secrets, { end: true }), 'and more ***')
  assert.equal(redactEdges('and more', secrets, { start: true, end: true }), 'and more', 'nothing at the edges')
})

test('redactJson masks every string and key of a JSON value, leaves the rest and its input as they are', () => {
  const value = { uri: 'file:///s3cr3t-v4l', text: ['ok s3cr3t-v4l', 42, null], 's3cr3t-v4l-key': true }
  const copy = structuredClone(value)
  assert.deepEqual(redactJson(value, ['s3cr3t-v4l']), {
    uri: 'file:///***',
    text: ['ok ***', 42, null],
    '***-key': true,
  })
  assert.deepEqual(value, copy)
})

test('credentialValues: what reaches the model keeps plain env values readable, credentials masked', async () => {
  const { credentialValues } = await import('../../src/config/redact.ts')
  const raw = {
    url: 'https://alice:pw-secret-9@h.test/mcp?key=q-secret-7',
    env: { TZ: 'UTC', LOG_LEVEL: 'info', API_TOKEN: 'tok-secret-5' },
    headers: { Authorization: 'Bearer hdr-secret-3' },
  }
  const c = credentialValues(raw, raw, {}, ['store-secret-1'])
  for (const v of ['pw-secret-9', 'q-secret-7', 'tok-secret-5', 'hdr-secret-3', 'store-secret-1'])
    assert.ok(c.includes(v), v)
  for (const v of ['UTC', 'info']) assert.ok(!c.includes(v), `${v} stays readable`)
  assert.equal(redact('time in UTC, level info', c), 'time in UTC, level info')
})

test('percentForms: upper- and lower-case hex, form encoding (Java and Python), the escaped text lower-cased', () => {
  const forms = percentForms('a/b c~(x)*')
  for (const f of [
    'a%2Fb%20c~(x)*',
    'a%2fb%20c~(x)*',
    'a%2Fb+c%7E%28x%29*',
    'a%2fb+c%7e%28x%29*',
    'a%2Fb+c~%28x%29%2A',
    'a%2fb+c~%28x%29%2a',
  ])
    assert.ok(forms.includes(f), `${f} in ${forms.join(' ')}`)
  assert.deepEqual(percentForms('plain'), ['plain'], 'nothing to escape: the value itself, never lower-cased')
  const values = secretValues({ env: { TOKEN: 'Sec/ret Value' } } as never, undefined, {})
  assert.equal(redact('echo sec%2fret+value and Sec%2fret+Value', values), 'echo *** and ***')
  assert.equal(redact('Sec/ret', values), 'Sec/ret', 'a part of the value stays')
})
