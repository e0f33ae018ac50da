/**
 * What kind of value was found, as a unit: each kind named, and a zod issue described by the kind found at its
 * path — never by the value itself.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { EntrySchema } from '../../src/config/schema.ts'
import { describeZodIssue, kindOf } from '../../src/config/value-kind.ts'

test('kindOf names the kind, never the value', () => {
  assert.equal(kindOf(null), 'null')
  assert.equal(kindOf(['secret']), 'a list')
  assert.equal(kindOf({ k: 'secret' }), 'a mapping')
  assert.equal(kindOf('secret'), 'a string')
  assert.equal(kindOf(3), 'a number')
})

test('a zod issue becomes a short message with the kind found, never the value', () => {
  const raw = { command: 'x', args: 'hunter2-secret', toolCallTimeoutMs: 1.5 }
  const parsed = EntrySchema.safeParse(raw)
  assert.ok(!parsed.success)
  const messages = parsed.error.issues.map((issue) => [issue.path.join('.'), describeZodIssue(issue, raw)])
  assert.deepEqual(Object.fromEntries(messages), {
    args: 'expected a list, got a string',
    toolCallTimeoutMs: 'must be a whole number',
  })
  for (const [, m] of messages) assert.ok(!m!.includes('hunter2'), m)
})
