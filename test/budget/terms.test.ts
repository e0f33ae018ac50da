/** src/budget/terms.ts: identifier splitting, term folding, one-line summaries. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { normalizeTerm, splitWords, summaryOf } from '../../src/budget/terms.ts'

test('identifiers split on _ - / . : and camelCase', () => {
  assert.deepEqual(splitWords('read_text_file'), ['read', 'text', 'file'])
  assert.deepEqual(splitWords('get-resource-links'), ['get', 'resource', 'links'])
  assert.deepEqual(splitWords('readFile'), ['read', 'File'])
  assert.deepEqual(splitWords('parseHTTPResponse'), ['parse', 'HTTP', 'Response'])
  assert.deepEqual(splitWords('a/b.c:d'), ['a', 'b', 'c', 'd'])
  assert.deepEqual(splitWords("what's up?"), ['what', 's', 'up'])
})

test('terms fold case and inflections alike for documents and queries; stop words drop', () => {
  assert.equal(normalizeTerm('Files'), normalizeTerm('file'))
  assert.equal(normalizeTerm('created'), normalizeTerm('create'))
  assert.equal(normalizeTerm('creating'), normalizeTerm('creates'))
  assert.equal(normalizeTerm('entities'), normalizeTerm('entity'))
  assert.equal(normalizeTerm('searches'), normalizeTerm('search'))
  assert.equal(normalizeTerm('the'), null)
  assert.equal(normalizeTerm('Please'), null)
  assert.equal(normalizeTerm('sql'), 'sql')
})

test('a summary is the first sentence of the first line, at most 160 characters', () => {
  assert.equal(summaryOf('Read a file. Handles encodings.'), 'Read a file.')
  assert.equal(summaryOf('List things\nmore text'), 'List things')
  assert.equal(summaryOf('  '), '')
  const long = summaryOf('x'.repeat(400))
  assert.equal(long.length, 160)
  assert.ok(long.endsWith('...'))
})
