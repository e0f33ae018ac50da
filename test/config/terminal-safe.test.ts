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

const FORMAT_CHARS = [
  0xad, 0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6dd, 0x70f, 0x890, 0x891, 0x8e2, 0x180e, 0x200b, 0x2060, 0x2061,
  0x2062, 0x2063, 0x2064, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff, 0xfff9, 0xe0001, 0xe0020, 0xe0041,
  0xe007f,
]

test('escapes every invisible format character (Cf) and the Tag block, in terminalSafe and oneLine', () => {
  for (const code of FORMAT_CHARS) {
    const c = String.fromCodePoint(code)
    const hex = code.toString(16)
    const shown = code <= 0xff ? `\\x${hex}` : code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`
    assert.equal(terminalSafe(`a${c}b`), `a${shown}b`, hex)
    assert.equal(oneLine(`a${c}b`), `a${shown}b`, hex)
  }
  // Text hidden in tag characters ("ASCII smuggling") is shown, never passed through invisibly.
  const hidden = [...'ignore'].map((ch) => String.fromCodePoint(0xe0000 + ch.charCodeAt(0))).join('')
  assert.equal(terminalSafe(`ok${hidden}`), 'ok\\u{e0069}\\u{e0067}\\u{e006e}\\u{e006f}\\u{e0072}\\u{e0065}')
  assert.ok(!/[\p{Cf}]/u.test(oneLine(`ok${hidden}\u00ad`)))
})

test('stays visible in terminalSafe: joiners in scripts and emoji, subdivision flags; oneLine escapes them', () => {
  const family = '👨\u200d👩\u200d👧'
  const persian = 'می\u200cخواهم'
  const england = '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}'
  for (const s of [family, persian, england, 'ﷺ ok', '🇫🇷']) assert.equal(terminalSafe(s), s)
  assert.equal(oneLine(family), '👨\\u200d👩\\u200d👧')
  assert.ok(!/[\p{Cf}]/u.test(oneLine(england)))
  assert.ok(oneLine(england).startsWith('🏴\\u{e0067}'))
})

test('jsonTerminalSafe escapes format characters and tags as valid JSON escapes', () => {
  const value = { name: `a\u00adb\u{e0041}c\u2061`, flag: '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}' }
  const safe = jsonTerminalSafe(JSON.stringify(value))
  assert.ok(!/\u00ad|\u{e0041}|\u2061/u.test(safe))
  assert.ok(safe.includes('\\udb40\\udc41'))
  assert.deepEqual(JSON.parse(safe), value)
})
