/** One editor over both dialects: names, get/set/delete, untouched bytes kept; a file that does not parse is never edited. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createEditor, editProblem } from '../../src/files/editor.ts'

test('friendly YAML: a new file starts with the header; edits keep comments and order', () => {
  const fresh = createEditor(undefined, 'friendly', { header: '# schema line' })
  fresh.set('a', { command: 'node' })
  assert.ok(fresh.text().startsWith('# schema line\n'))
  const text = '# team servers\nservers:\n  b: {command: x} # keep me\n  a:\n    command: y\n'
  const e = createEditor(text, 'friendly')
  assert.deepEqual(e.names(), ['b', 'a'])
  e.setField('a', 'args', ['--flag'])
  e.set('c', { url: 'http://127.0.0.1:1/mcp' })
  assert.equal(e.delete('missing'), false)
  const out = e.text()
  assert.ok(out.includes('# team servers') && out.includes('# keep me'))
  assert.deepEqual(createEditor(out, 'friendly').names(), ['b', 'a', 'c'])
  assert.deepEqual(createEditor(out, 'friendly').get('a'), { command: 'y', args: ['--flag'] })
})

test('JSON: mcpServers edited in place; BOM and CRLF kept', () => {
  const text = '\uFEFF{\r\n  "mcpServers": {\r\n    "a": { "command": "x" }\r\n  }\r\n}\r\n'
  const e = createEditor(text, 'mcpServers')
  e.deleteField('a', 'command')
  e.setField('a', 'url', 'http://127.0.0.1:1/mcp')
  const out = e.text()
  assert.ok(out.startsWith('\uFEFF'))
  assert.ok(!/[^\r]\n/.test(out), 'every line end stays CRLF')
  assert.deepEqual(createEditor(out, 'mcpServers').get('a'), { url: 'http://127.0.0.1:1/mcp' })
})

test('editProblem: a file that does not parse, or JSON with comments, is not edited — with its position', () => {
  assert.equal(editProblem('servers:\n  a: {command: x}\n', '/p/mcp.yml', 'friendly'), undefined)
  assert.match(editProblem('servers: [\n', '/p/mcp.yml', 'friendly')!, /^\/p\/mcp\.yml:\d+:\d+: .*it was not changed/)
  assert.match(
    editProblem('{ // c\n "mcpServers": {} }', '/p/.mcp.json', 'mcpServers')!,
    /:1:3: .*comment.*not changed/,
  )
})
