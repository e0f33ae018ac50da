/**
 * checkJsonSyntax: the strict JSON gate of the `mcpServers` files agrees
 * with JSON.parse (property-based), reports positions and says what to fix
 * without quoting the file.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { checkJsonSyntax } from '../../src/config/json-check.ts'

const DEPTH = 64
const accepts = (t: string) => checkJsonSyntax(t, DEPTH) === undefined
const parses = (t: string) => {
  try {
    JSON.parse(t)
    return true
  } catch {
    return false
  }
}

describe('checkJsonSyntax agrees with JSON.parse', () => {
  it('accepts every stringified JSON value, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(undefined, 2, '\t'), (v, indent) => {
        const text = JSON.stringify(v, null, indent)
        assert.equal(accepts(text), true, text)
      }),
      { numRuns: 400 },
    )
  })
  it('accepts exactly what JSON.parse accepts on mutated JSON text', () => {
    const mutated = fc
      .tuple(
        fc.jsonValue({ maxDepth: 4 }),
        fc.nat(),
        fc.constantFrom(',', '}', ']', '"', "'", '/', ':', ' ', '\\', 'x', '1', '-', '.', 'e', '\n', '{', '['),
      )
      .map(([v, at, ch]) => {
        const text = JSON.stringify({ mcpServers: v })
        const i = at % (text.length + 1)
        return text.slice(0, i) + ch + text.slice(i)
      })
    fc.assert(
      fc.property(mutated, (text) => {
        assert.equal(accepts(text), parses(text), text)
      }),
      { numRuns: 2000 },
    )
  })
  for (const text of ['0', '-0.5e+3', '"\\u00e9\\n"', 'true', 'null', ' {"a":[1,{"b":null}]} ', '[]', '{}', '""']) {
    it(`accepts ${text}`, () => assert.equal(accepts(text), true))
  }
  for (const text of [
    '',
    ' ',
    '01',
    '1.',
    '.5',
    '+1',
    '1e',
    'NaN',
    'Infinity',
    'tru',
    'nul',
    '"\\x"',
    '"a\tb"',
    '{"a" 1}',
    '{1: 2}',
    '[1 2]',
    '{"a":1}x',
    '[',
    '{"a":}',
    '"\\u12"',
    'truex',
    '1a',
  ]) {
    it(`refuses ${JSON.stringify(text)} like JSON.parse`, () => {
      assert.equal(parses(text), false)
      assert.equal(accepts(text), false)
    })
  }
})

describe('messages and positions', () => {
  const err = (t: string) => {
    const e = checkJsonSyntax(t, DEPTH)
    assert.ok(e, t)
    return e
  }
  it('names trailing commas at the comma', () => {
    assert.deepEqual(err('{"a": 1,\n}'), { offset: 7, message: 'trailing comma before "}" (JSON allows none)' })
    assert.deepEqual(err('[1, ]'), { offset: 2, message: 'trailing comma before "]" (JSON allows none)' })
  })
  it('names comments, single quotes and unquoted words', () => {
    assert.match(err('{ // x\n}').message, /comment/)
    assert.match(err("{'a': 1}").message, /single quote/)
    assert.match(err('{a: 1}').message, /unquoted word/)
    assert.match(err('{"a": secret}').message, /unquoted word/)
  })
  it('names raw line breaks and bad escapes inside strings', () => {
    assert.match(err('{"a": "x\ny"}').message, /line break inside a string/)
    assert.match(err('"\\q"').message, /bad escape/)
  })
  it('names unterminated strings at their start and truncated files', () => {
    assert.deepEqual(err('{"a": "xyz'), { offset: 6, message: 'unterminated string' })
    assert.match(err('{"a": [1').message, /end of the file: missing "]"/)
    assert.match(err('{"a": 1').message, /end of the file: missing "}"/)
  })
  it('names content after the document', () => {
    assert.match(err('{} {}').message, /after the end of the JSON document/)
  })
  it('never quotes more than one character of the file', () => {
    const secret = 'sk-live-secret'
    for (const t of [
      `{"a": ${secret}}`,
      `{"a": "${secret}\\q"}`,
      `{"a": "${secret}`,
      `{"a": 1} ${secret}`,
      `{${secret}: 1}`,
      `["${secret}" "x"]`,
    ]) {
      assert.ok(!err(t).message.includes('sk-'), err(t).message)
    }
  })
  it('refuses nesting deeper than the limit without recursion', () => {
    const deep = `${'['.repeat(100000)}${']'.repeat(100000)}`
    const e = err(deep)
    assert.equal(e.tooDeep, true)
    assert.equal(e.offset, DEPTH)
    assert.equal(accepts(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`), true)
  })
})
