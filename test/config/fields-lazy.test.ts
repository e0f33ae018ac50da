/**
 * The lazy-lifecycle rows: declared once, spread into the field table at their place (last, in order) and read
 * through it; host-free (never mounted), overridable, outside trust and the tool-cache key.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FIELD_NAMES, fieldSpec } from '../../src/config/fields.ts'
import { LAZY_FIELDS } from '../../src/config/fields-lazy.ts'

test('the lazy rows close the field table, in order, as the same rows', () => {
  const names = Object.keys(LAZY_FIELDS)
  assert.deepEqual(names, ['lifecycle', 'idleTimeoutMs'])
  assert.deepEqual(FIELD_NAMES.slice(-names.length), names)
  for (const n of ['lifecycle', 'idleTimeoutMs'] as const) assert.equal(fieldSpec(n), LAZY_FIELDS[n])
})

test('the lazy rows are settings of the plugin: not mounted, overridable, outside trust and the cache key', () => {
  for (const spec of Object.values(LAZY_FIELDS)) {
    assert.deepEqual([spec.mount, spec.override, spec.trust, spec.cacheKey], [false, true, false, false])
  }
  assert.deepEqual(LAZY_FIELDS.lifecycle.flag.choices, ['eager', 'lazy'])
  assert.equal(LAZY_FIELDS.idleTimeoutMs.type, 'millis0')
})
