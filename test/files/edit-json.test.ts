/**
 * The JSON editor splices only the member it touches: key order (integer-like
 * keys included), unknown keys, indentation and spacing elsewhere survive.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createEditor, editProblem } from '../../src/files/editor.ts'

const FOUR = `{
    "$schema": "x",
    "mcpServers": {
        "10": { "command": "ten" },
        "alpha": {
            "command": "a",
            "enabled": false,
            "x-note": "unknown key"
        }
    },
    "other": [1, 2]
}
`

describe('edit-json', () => {
  test('adding keeps key order, the 4-space indentation and every other byte', () => {
    const e = createEditor(FOUR, 'mcpServers')
    e.set('beta', { command: 'b', args: ['-y'] })
    const out = e.text()
    assert.ok(
      out.startsWith(FOUR.slice(0, FOUR.indexOf('        }\n    },') + 9)),
      'everything before the insertion point is unchanged',
    )
    assert.ok(
      out.includes(
        ',\n        "beta": {\n            "command": "b",\n            "args": [\n                "-y"\n            ]\n        }\n    },\n    "other": [1, 2]\n}\n',
      ),
    )
    assert.deepEqual(Object.keys(JSON.parse(out).mcpServers), ['10', 'alpha', 'beta'])
    assert.deepEqual(e.names(), ['10', 'alpha', 'beta'])
    assert.deepEqual(JSON.parse(out).other, [1, 2])
  })

  test('tabs are kept as the indentation unit', () => {
    const text = '{\n\t"mcpServers": {\n\t\t"a": {\n\t\t\t"command": "x"\n\t\t}\n\t}\n}\n'
    const e = createEditor(text, 'mcpServers')
    e.set('b', { url: 'https://x.test' })
    assert.equal(
      e.text(),
      '{\n\t"mcpServers": {\n\t\t"a": {\n\t\t\t"command": "x"\n\t\t},\n\t\t"b": {\n\t\t\t"url": "https://x.test"\n\t\t}\n\t}\n}\n',
    )
  })

  test('fields: enabled is deleted and set without touching siblings', () => {
    const e = createEditor(FOUR, 'mcpServers')
    e.deleteField('alpha', 'enabled')
    assert.equal(e.text(), FOUR.replace('            "enabled": false,\n', ''))
    e.setField('10', 'enabled', false)
    assert.ok(e.text().includes('"10": { "command": "ten", "enabled": false },'))
    assert.equal(JSON.parse(e.text()).mcpServers['10'].enabled, false)
  })

  test('removing the first, last and only members leaves valid JSON', () => {
    const e = createEditor(FOUR, 'mcpServers')
    e.delete('10')
    assert.equal(e.text(), FOUR.replace('        "10": { "command": "ten" },\n', ''))
    e.delete('alpha')
    assert.equal(e.text(), '{\n    "$schema": "x",\n    "mcpServers": {},\n    "other": [1, 2]\n}\n')
    e.set('z', { command: 'z' })
    assert.equal(JSON.parse(e.text()).mcpServers.z.command, 'z')
    assert.ok(e.text().includes('    "mcpServers": {\n        "z": {\n            "command": "z"\n        }\n    },'))
  })

  test('a file without mcpServers gets it appended', () => {
    const e = createEditor('{ "other": true }', 'mcpServers')
    e.set('a', { command: 'x' })
    assert.deepEqual(JSON.parse(e.text()), { other: true, mcpServers: { a: { command: 'x' } } })
  })

  test('editProblem refuses a file that does not parse, with file:line:col', () => {
    const p = editProblem('{\n  "mcpServers": {,}\n}\n', '/p/.dsh/mcp.json', 'mcpServers')
    assert.match(p ?? '', /^\/p\/\.dsh\/mcp\.json:2:\d+: error: /)
    assert.equal(editProblem(FOUR, '/p/.dsh/mcp.json', 'mcpServers'), undefined)
    assert.match(
      editProblem('servers:\n  a: [unclosed\n', '/p/mcp.yml', 'friendly') ?? '',
      /^\/p\/mcp\.yml:\d+:\d+: error: /,
    )
  })
})
