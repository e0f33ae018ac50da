/** Diagnostics: the one-line format (`file:line:col: severity: path: message`), field paths, error detection. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type Diagnostic, formatDiagnostic, formatPath, hasErrors } from '../../src/config/diagnostics.ts'

const d = (over: Partial<Diagnostic> = {}): Diagnostic => ({
  severity: 'error',
  code: 'bad-value',
  message: 'must be a string',
  file: '/p/.dsh/mcp.yml',
  line: 3,
  col: 7,
  path: 'servers.a.command',
  ...over,
})

test('field paths: dotted names, indices in brackets, odd keys quoted', () => {
  assert.equal(formatPath(['servers', 'github', 'args', 2]), 'servers.github.args[2]')
  assert.equal(formatPath(['servers', 'my server', 'env']), 'servers["my server"].env')
  assert.equal(formatPath([0, 'a']), '[0].a')
  assert.equal(formatPath([]), '')
  assert.equal(formatPath(['servers', 'a-b']), 'servers.a-b')
})

test('one line: position, severity, path, message; a whole-file problem has no position or path', () => {
  assert.equal(formatDiagnostic(d()), '/p/.dsh/mcp.yml:3:7: error: servers.a.command: must be a string')
  assert.equal(
    formatDiagnostic(d({ line: 0, col: 0, path: '', severity: 'warning', message: 'empty' })),
    '/p/.dsh/mcp.yml: warning: empty',
  )
  assert.equal(
    formatDiagnostic(d(), { relativeTo: (f) => f.replace('/p/', '') }),
    '.dsh/mcp.yml:3:7: error: servers.a.command: must be a string',
  )
})

test('hasErrors: warnings alone are not errors', () => {
  assert.equal(hasErrors([]), false)
  assert.equal(hasErrors([d({ severity: 'warning' })]), false)
  assert.equal(hasErrors([d({ severity: 'warning' }), d()]), true)
})
