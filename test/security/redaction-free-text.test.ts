// biome-ignore-all lint/suspicious/noTemplateCurlyInString: texts hold literal ${VAR} references
/**
 * The free-text shapes of `redactShapesIn` (config/redact-text.ts) and the
 * PEM pass (config/redact-pem.ts): secrets that are no configured value —
 * `Authorization: …` and other secret-named headers, `token=…`, `"password":
 * "…"`, `api_key: …`, PEM bodies (at once and line by line) — masked; words
 * that only look alike kept. Hostile texts of 400 kB (a name run without a
 * separator, thousands of pairs, unclosed quotes, BEGIN lines without END)
 * are handled in one pass each (measured: well under 0.1 s).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { maskPemLine, type PemState } from '../../src/config/redact-pem.ts'
import { redactShapesIn } from '../../src/config/redact-text.ts'

const MASKED: [string, string][] = [
  ['Authorization: Bearer abcdefghijk123', 'Authorization: ***'],
  ['authorization: Token abcdef123', 'authorization: ***'],
  ['X-Api-Key: sk-live-123456', 'X-Api-Key: ***'],
  ['Cookie: session=abc123', 'Cookie: ***'],
  ['sending token=abc123def to server', 'sending token=*** to server'],
  ['{"password": "hunter2", "user": "bob"}', '{"password": "***", "user": "bob"}'],
  ['{"authorization":"Bearer xyz.abc-123"}', '{"authorization":"***"}'],
  ["config: {api_key: 'xyz987'}", "config: {api_key: '***'}"],
  ['api_key: xyz987', 'api_key: ***'],
  ['client_secret=s3cr3t&x=1', 'client_secret=***&x=1'],
  ['GITHUB_TOKEN=ghp_abcdef', 'GITHUB_TOKEN=***'],
  ['see https://user:pa55@example.com/x?token=abc&page=2', 'see https://***@example.com/x?token=***&page=2'],
  ['argv: srv.js --env=GITHUB_TOKEN=ghp_abcdef -v', 'argv: srv.js --env=GITHUB_TOKEN=*** -v'],
  ['argv: --header=X-Api-Key: sk-live-123456', 'argv: --header=X-Api-Key: ***'],
  ['docker run -e=API_KEY=xyz987 img', 'docker run -e=API_KEY=*** img'],
]
const KEPT = [
  'monkey: banana',
  'argv: --env=NODE_ENV=production --define=monkey=1',
  'argv: --header=Accept: application/json',
  'at https://example.com:8080/mcp',
  'token: ${GITHUB_TOKEN}',
  'x==y token==z',
  'Basic authentication failed',
  'keyboard: us',
  'no-token: yes',
  'ratio 3:2 and a=b',
]

test('secret-named pairs in free text are masked, whatever their quoting', () => {
  for (const [raw, want] of MASKED) assert.equal(redactShapesIn(raw), want, raw)
})

test('look-alikes are kept', () => {
  for (const raw of KEPT) assert.equal(redactShapesIn(raw), raw, raw)
})

test('masking is idempotent', () => {
  for (const [raw] of MASKED) {
    const once = redactShapesIn(raw)
    assert.equal(redactShapesIn(once), once, raw)
  }
})

test('PEM: every body line masked at once, a block cut before its END to the end of the text', () => {
  const pem = '-----BEGIN PRIVATE KEY-----\nMIIEabc\nQQQQ\n-----END PRIVATE KEY-----\nafter'
  assert.equal(redactShapesIn(pem), '-----BEGIN PRIVATE KEY-----\n***\n***\n-----END PRIVATE KEY-----\nafter')
  assert.equal(
    redactShapesIn('x -----BEGIN RSA PRIVATE KEY-----\nMIIE cut\nmore'),
    'x -----BEGIN RSA PRIVATE KEY-----\n***\n***',
  )
  assert.equal(
    redactShapesIn('k=-----BEGIN X-----abc-----END X----- tail'),
    'k=-----BEGIN X-----***-----END X----- tail',
  )
})

test('PEM line by line: the state carries the block across lines; time stamps are kept', () => {
  const st: PemState = { inside: false }
  const stamp = '2025-01-01T00:00:00.000Z '
  const out = [
    `${stamp}key: -----BEGIN PRIVATE KEY-----`,
    `${stamp}MIIEsecret`,
    `${stamp}second`,
    `${stamp}-----END PRIVATE KEY-----`,
    `${stamp}plain`,
  ].map((l) => maskPemLine(l, st))
  assert.deepEqual(out, [
    `${stamp}key: -----BEGIN PRIVATE KEY-----`,
    `${stamp}***`,
    `${stamp}***`,
    `${stamp}-----END PRIVATE KEY-----`,
    `${stamp}plain`,
  ])
  assert.equal(st.inside, false)
})

test('hostile 400 kB texts are handled in one pass each', () => {
  const n = 400_000
  const texts = [
    'a'.repeat(n) + ':',
    'token=x '.repeat(n / 8),
    'password: "'.repeat(n / 11),
    '-----BEGIN X-----'.repeat(n / 17),
    `${'k'.repeat(63)}:`.repeat(n / 64),
  ]
  for (const t of texts) assert.equal(typeof redactShapesIn(t), 'string')
})
