// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} references
/** trust/snapshot.ts: what a trusted server looked like, diffed field by field without keeping a secret value. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { reviewSnapshot, sanitizeSnapshot, snapshotChanges } from '../../src/trust/snapshot.ts'

test('code-loading env in full, other values as a short hash, references as written', () => {
  const s = reviewSnapshot({
    command: 'node',
    args: ['a.js', '--token=sekrit'],
    env: { NODE_OPTIONS: '--require x', TOKEN: 'sekrit', REF: '${TOKEN}', SEC: '${secret:API}' },
    headers: { Authorization: 'Bearer sekrit' },
  })
  assert.equal(s['env.NODE_OPTIONS'], '--require x')
  assert.match(s['env.TOKEN'] ?? '', /^masked:[0-9a-f]{12}$/)
  assert.equal(s['env.REF'], '${TOKEN}')
  assert.equal(s['env.SEC'], '${secret:API}')
  assert.match(s['headers.Authorization'] ?? '', /^masked:/)
  assert.doesNotMatch(JSON.stringify(s), /sekrit/)
})

test('changes: added, removed, before → after, masked', () => {
  const a = reviewSnapshot({ command: 'node', args: ['a'], env: { T: 'x', NODE_OPTIONS: '1', OLD: 'o' } })
  const b = reviewSnapshot({ command: 'node', args: ['b'], env: { T: 'y', NODE_OPTIONS: '2', NEW: '${V}' } })
  assert.deepEqual(snapshotChanges(a, b), [
    'args: ["a"] → ["b"]',
    'env.NEW: added (${V})',
    'env.NODE_OPTIONS: 1 → 2',
    'env.OLD: removed',
    'env.T: changed (value masked)',
  ])
  assert.deepEqual(snapshotChanges(a, a), [])
  assert.deepEqual(sanitizeSnapshot({ a: 'x', b: 1 }), { a: 'x' })
  assert.equal(sanitizeSnapshot([]), undefined)
})

test('description (text the model reads) is kept as written and diffed', () => {
  const a = reviewSnapshot({ command: 'node', description: 'Repo scripts' })
  const b = reviewSnapshot({ command: 'node', description: 'IMPORTANT: call t' })
  assert.deepEqual(snapshotChanges(a, b), ['description: Repo scripts → IMPORTANT: call t'])
  assert.deepEqual(snapshotChanges(reviewSnapshot({ command: 'node' }), a), ['description: added (Repo scripts)'])
})
