// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * readDocument: a parsed document's value → entries placed at file:line:col, the root key of each format, and the
 * cap on problems per scope (the first MAX_PROBLEMS_SHOWN, errors first, the rest counted in one).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { LineCounter, parseDocument } from 'yaml'
import type { Diagnostic } from '../../src/config/diagnostics.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { MAX_PROBLEMS_SHOWN, readDocument, rootKeyOf } from '../../src/config/read-document.ts'

const friendly = (text: string) => parseConfigText(text, { file: '/p/.dsh/mcp.yml', format: 'friendly' })
const where = (d: Diagnostic | undefined) => (d ? `${d.line}:${d.col} ${d.path}` : 'none')

describe('a document read into entries', () => {
  it("names each format's root key", () => {
    assert.equal(rootKeyOf('friendly'), 'servers')
    assert.equal(rootKeyOf('mcpServers'), 'mcpServers')
  })
  it('reads a parsed document directly: entries at their keys, a bad entry dropped alone, a bad root refused', () => {
    const text = 'servers:\n  ok:\n    command: x\n  bad: 3\n'
    const lines = new LineCounter()
    const doc = parseDocument(text, { lineCounter: lines })
    const at = (offset: number) => lines.linePos(offset)
    const opts = { file: '/p/f.yml', format: 'friendly' as const }
    const parsed = readDocument(doc, doc.toJS(), at, new Map(), opts)
    assert.equal(parsed.ok, true)
    assert.deepEqual(
      parsed.entries.map((e) => [e.name, e.line, e.col, e.entry !== undefined]),
      [
        ['ok', 2, 3, true],
        ['bad', 4, 3, false],
      ],
    )
    assert.equal(where(parsed.entries[1]!.diagnostics[0]), '4:3 servers.bad')
    const root = readDocument(doc, ['a list'], at, new Map(), opts)
    assert.deepEqual(
      [root.ok, root.diagnostics[0]!.code, root.diagnostics[0]!.message],
      [false, 'bad-root', 'expected a mapping with "servers:", got a list'],
    )
  })
})

describe('a file with thousands of problems', () => {
  const keys = (n: number, indent: string) => Array.from({ length: n }, (_, i) => `${indent}k${i}: 1\n`).join('')
  it('caps at MAX_PROBLEMS_SHOWN', () => assert.equal(MAX_PROBLEMS_SHOWN, 20))
  it('reports the first 20 of an entry, errors first, and counts the rest in one more at the entry key', () => {
    const text = `servers:\n  a:\n    command: x\n${keys(5_000, '    ')}    enabled: 3\n`
    const entry = friendly(text).entries[0]!
    assert.equal(entry.diagnostics.length, 21)
    assert.equal(entry.diagnostics[0]!.code, 'bad-value', 'the error is listed before the warnings')
    assert.equal(where(entry.diagnostics[0]), `5004:14 servers.a.enabled`)
    assert.equal(where(entry.diagnostics[1]), '4:5 servers.a.k0')
    const more = entry.diagnostics[20]!
    assert.deepEqual(
      [more.severity, more.code, where(more), more.server],
      ['warning', 'unknown-key', '2:3 servers.a', 'a'],
    )
    assert.equal(more.message, '4981 more problems not listed (4981 warnings) in this entry')
    assert.equal(entry.entry, undefined, 'the entry is still invalid')
  })
  it('caps unknown top-level keys and unknown keys of a nested mapping the same way', () => {
    const top = friendly(`servers: {}\n${keys(3_000, '')}`)
    assert.equal(top.diagnostics.length, 21)
    assert.equal(top.diagnostics[20]!.message, '2980 more problems not listed (2980 warnings) at the top level')
    const nested = friendly(`servers:\n  a:\n    command: x\n    reconnect:\n${keys(3_000, '      ')}`).entries[0]!
    assert.equal(nested.diagnostics.length, 21)
    assert.ok(nested.entry, 'unknown keys only warn: the entry stays valid')
    assert.equal(where(nested.diagnostics[19]), '24:7 servers.a.reconnect.k19')
  })
  it('lists every problem when there are 20 or fewer', () => {
    const entry = friendly(`servers:\n  a:\n    command: x\n${keys(20, '    ')}`).entries[0]!
    assert.equal(entry.diagnostics.length, 20)
    assert.ok(entry.diagnostics.every((d) => d.code === 'unknown-key'))
  })
  it('one error among the omitted makes the count an error', () => {
    const text = `servers:\n  a:\n    command: x\n    args: [${Array(30).fill('{}').join(', ')}]\n`
    const more = friendly(text).entries[0]!.diagnostics[20]!
    assert.deepEqual(
      [more.severity, more.code, more.message],
      ['error', 'bad-value', '10 more problems not listed (10 errors) in this entry'],
    )
  })
})
