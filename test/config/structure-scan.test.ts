/** The linear pre-scan: flow depth and structure marks counted outside strings and comments; walked values bounded. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { exceedsValues, scanStructure } from '../../src/config/structure-scan.ts'

const limits = { maxFlowDepth: 4, maxValues: 10 }

test('within both limits: nothing to say', () => {
  assert.equal(scanStructure('servers:\n  a:\n    command: node\n', limits), undefined)
  assert.equal(scanStructure('', limits), undefined)
})

test('flow brackets deeper than the limit: too-deep at the bracket that crossed it', () => {
  assert.deepEqual(scanStructure('a: [[[[[1]]]]]', limits), { code: 'too-deep', offset: 7 })
  assert.equal(scanStructure('a: [[[1]]]\nb: [[[1]]]', { maxFlowDepth: 3, maxValues: 100 }), undefined, 'depth resets')
})

test('marks past the limit: too-complex at the mark that crossed it', () => {
  const text = 'a: [1,2,3,4,5,6,7,8,9,10]'
  const p = scanStructure(text, limits)
  assert.equal(p?.code, 'too-complex')
  assert.equal(text[p!.offset], ',')
  const items = `${'- x\n'.repeat(11)}`
  assert.equal(scanStructure(items, limits)?.code, 'too-complex', 'block list items count')
})

test('quoted strings and comments hold no marks; a dash inside a word is no item', () => {
  const quoted = `a: "${'[,:'.repeat(50)}"\nb: '${'{,'.repeat(50)}'\n# ${'[[[[[[[,'.repeat(20)}\nc: well-known-name\n`
  assert.equal(scanStructure(quoted, limits), undefined)
  assert.equal(scanStructure(`a: "\\"[[[[[[" `, limits), undefined, 'an escaped quote does not end the string')
  assert.equal(scanStructure(`a: 'it''s [[[[[['`, limits), undefined, 'a doubled single quote does not end it')
})

test('exceedsValues counts a shared part once per reference and stops past the bound', () => {
  const shared = [1, 2, 3]
  assert.equal(exceedsValues({ a: shared, b: shared }, 9), false)
  assert.equal(exceedsValues({ a: shared, b: shared, c: shared }, 9), true)
  assert.equal(exceedsValues('x', 0), true)
  assert.equal(exceedsValues('x', 1), false)
})
