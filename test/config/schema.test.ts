/**
 * The friendly entry schema, as a unit: exactly what a user may write, no defaults added, unquoted scalars
 * read as strings where a string is meant, whole-number bounds, strict nested objects, hostile globs refused.
 * Which fields exist and how they derive elsewhere is test/config/fields.test.ts.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { EntrySchema, MAX_TIMER_DELAY_MS, ReconnectSchema, ToolFilterSchema } from '../../src/config/schema.ts'

test('no defaults: a field the user did not write stays absent', () => {
  assert.deepEqual(EntrySchema.parse({ command: 'node' }), { command: 'node' })
  assert.deepEqual(EntrySchema.parse({}), {})
})

test('unquoted YAML scalars in args and env are read as the strings they stand for', () => {
  const e = EntrySchema.parse({ command: 'srv', args: ['--port', 8080, true], env: { PORT: 3000, DEBUG: false } })
  assert.deepEqual(e.args, ['--port', '8080', 'true'])
  assert.deepEqual(e.env, { PORT: '3000', DEBUG: 'false' })
})

test('timers are whole milliseconds within what a timer can hold; counts are at least 1', () => {
  assert.equal(EntrySchema.safeParse({ toolCallTimeoutMs: 1000 }).success, true)
  for (const bad of [0, 1.5, -1, MAX_TIMER_DELAY_MS + 1, '1000'])
    assert.equal(EntrySchema.safeParse({ toolCallTimeoutMs: bad }).success, false, String(bad))
  assert.equal(ReconnectSchema.safeParse({ maxAttempts: 0 }).success, false)
  assert.equal(ReconnectSchema.safeParse({ maxAttempts: 3, initialDelayMs: 100 }).success, true)
})

test('nested objects are strict: an unknown key inside reconnect, tools or oauth is an error', () => {
  assert.equal(ReconnectSchema.safeParse({ retries: 3 }).success, false)
  assert.equal(ToolFilterSchema.safeParse({ include: ['a'], only: ['b'] }).success, false)
  assert.equal(EntrySchema.safeParse({ oauth: { clientName: 'x', secret: 'y' } }).success, false)
})

test('tool globs: empty or hostile globs are refused with the reason', () => {
  assert.equal(ToolFilterSchema.safeParse({ include: ['read_*'] }).success, true)
  assert.equal(ToolFilterSchema.safeParse({ include: [''] }).success, false)
  const r = ToolFilterSchema.safeParse({ exclude: ['{a,b}'.repeat(8)] })
  assert.equal(r.success, false)
  assert.match(JSON.stringify(r.error?.issues), /this glob expands to more than 64 alternatives/)
})
