/**
 * Terminal-safe text: controls, ANSI/OSC and bidi shown as visible escapes; printable text of any script
 * unchanged (over-escaping fails too).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { jsonTerminalSafe, oneLine, terminalSafe } from '../../src/config/terminal-safe.ts'

test('escapes: ESC, CR, C1, DEL, bidi overrides, line separators', () => {
  assert.equal(terminalSafe('a\u001b[2K\rb'), 'a\\x1b[2K\\rb')
  assert.equal(terminalSafe('\u001b]8;;http://x\u0007'), '\\x1b]8;;http://x\\x07')
  assert.equal(terminalSafe('x\u009by\u007f'), 'x\\x9by\\x7f')
  assert.equal(terminalSafe('abc\u202edef'), 'abc\\u202edef')
  assert.equal(terminalSafe('a\u2028b'), 'a\\u2028b')
})

test('stays visible: newlines and tabs (multi-line text), every script, emoji, quotes', () => {
  for (const s of ['line 1\nline 2', 'a\tb', '服务器 ✓', 'Ñandú — “quoted”', '🚀 rocket', 'C:\\path\\x1b literal']) {
    assert.equal(terminalSafe(s), s)
  }
})

test('oneLine also shows line breaks, tabs and zero-width characters', () => {
  assert.equal(oneLine('a\nb\tc'), 'a\\nb\\tc')
  assert.equal(oneLine('ad\u200bmin'), 'ad\\u200bmin')
  assert.equal(oneLine('plain name'), 'plain name')
})

test('jsonTerminalSafe keeps the JSON value and escapes what JSON.stringify leaves raw', () => {
  const value = { name: 'x\u202ey\u2028z\u009b', ok: 'visible ✓' }
  const safe = jsonTerminalSafe(JSON.stringify(value))
  assert.ok(!/[\u202e\u2028\u009b]/.test(safe))
  assert.deepEqual(JSON.parse(safe), value)
  assert.ok(safe.includes('visible ✓'))
})
