/** isRecord: the one plain-object guard for untrusted values. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isRecord } from '../../src/config/guards.ts'

test('a plain object is a record; null, arrays and scalars are not', () => {
  assert.equal(isRecord({}), true)
  assert.equal(isRecord({ a: 1 }), true)
  assert.equal(isRecord(Object.create(null)), true)
  for (const v of [null, undefined, [], [1], 'x', 1, true]) assert.equal(isRecord(v), false, String(v))
})
