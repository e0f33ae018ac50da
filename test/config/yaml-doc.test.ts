/**
 * Reading a parsed YAML document: positions (LF and CRLF), problems scoped to their entry or to the file,
 * duplicate keys, tags, depth and alias limits — messages name keys and places, never values.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseDocument } from 'yaml'
import { inspectDocument, positionAt, positionOf, yamlMessage } from '../../src/config/yaml-doc.ts'

const limits = { maxDepth: 8, maxAliases: 3 }

function inspect(text: string) {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, logLevel: 'error', strict: true })
  return { doc, found: inspectDocument(doc, text, (o) => positionAt(text, o), 'servers', limits) }
}

test('positionAt: 1-based line and column, LF and CRLF', () => {
  assert.deepEqual(positionAt('ab\ncd', 4), { line: 2, col: 2 })
  assert.deepEqual(positionAt('ab\r\ncd', 5), { line: 2, col: 2 })
  assert.deepEqual(positionAt('abc', 0), { line: 1, col: 1 })
})

test('a duplicate key inside an entry belongs to that entry; the other entries are untouched', () => {
  const text = 'servers:\n  a:\n    command: first-value\n    command: second-value\n  b:\n    command: z\n'
  const { found } = inspect(text)
  assert.equal(found.file, undefined)
  const a = found.entries.get('a')
  assert.equal(a?.code, 'duplicate-key')
  assert.equal(a?.line, 4)
  assert.ok(!found.entries.has('b'))
  assert.ok(!/first-value|second-value/.test(a!.message), 'the value is not echoed')
})

test('a problem outside servers belongs to the file; custom tags and depth are refused', () => {
  assert.equal(inspect('servers: {}\nservers: {}\n').found.file?.code, 'duplicate-key')
  const tagged = inspect('servers:\n  a:\n    command: !secret x\n').found
  assert.equal(tagged.entries.get('a')?.code, 'forbidden-tag')
  let deep = 'servers:\n  a:\n    env:\n'
  for (let i = 0; i < 10; i++) deep += `${'  '.repeat(i + 3)}k${i}:\n`
  assert.equal(inspect(deep).found.entries.get('a')?.code, 'too-deep')
})

test('aliases are counted and bounded; one to no earlier anchor is refused', () => {
  const many = 'x: &a [1]\nservers:\n  a: {args: *a}\n  b: {args: *a}\n  c: {args: *a}\n  d: {args: *a}\n'
  const found = inspect(many).found
  assert.ok(found.aliases > limits.maxAliases)
  assert.equal(found.file?.code, 'alias-limit')
})

test('positionOf: the key or the value of a path, else its nearest ancestor', () => {
  const text = 'servers:\n  a:\n    command: x\n'
  const { doc } = inspect(text)
  const at = (o: number) => positionAt(text, o)
  assert.deepEqual(positionOf(doc, ['servers', 'a', 'command'], false, at), { line: 3, col: 14 })
  assert.deepEqual(positionOf(doc, ['servers', 'a', 'command'], true, at), { line: 3, col: 5 })
  assert.deepEqual(positionOf(doc, ['servers', 'a', 'missing'], false, at), { line: 2, col: 3 })
})

test('yamlMessage: the library quoting file content is never echoed', () => {
  assert.equal(yamlMessage('Maximum call stack size exceeded', 64), 'nested more than 64 levels deep')
  assert.match(yamlMessage('Source contains multiple documents; ...', 64), /more than one YAML document/)
  assert.equal(yamlMessage('Unexpected token: sk-secret-value at line 2, column 3', 64), 'Unexpected token')
})
