/** The flag helpers of a field row: commander's attribute and the long flag alone, for every flag the table declares. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { flagAttribute, flagName } from '../../src/config/field-spec.ts'
import { FIELD_NAMES, fieldSpec } from '../../src/config/fields.ts'

test('attribute and long flag of a flag spelling', () => {
  assert.equal(flagAttribute('--idle-timeout <ms>'), 'idleTimeout')
  assert.equal(flagAttribute('--cwd <dir>'), 'cwd')
  assert.equal(flagName('--idle-timeout <ms>'), '--idle-timeout')
  assert.equal(flagName('-d, --disabled'), '--disabled')
})

test('every flag in the table has a long form that yields a distinct attribute', () => {
  const seen = new Set<string>()
  for (const name of FIELD_NAMES) {
    const flag = fieldSpec(name).flag
    if (!flag) continue
    const attr = flagAttribute(flag.flags)
    assert.match(flagName(flag.flags), /^--[a-z][a-z-]*$/, name)
    assert.ok(attr.length > 0 && !seen.has(attr), `${name}: ${attr}`)
    seen.add(attr)
  }
  assert.ok(seen.size > 3)
})
