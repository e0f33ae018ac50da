/**
 * Terminal-safe text: the one function every string from a config file
 * passes through before it reaches a terminal or a log line (the CLI's
 * output edge `cli/output.ts`, its error edge in `cli/program.ts`, the
 * host's log `host/log.ts`).
 *
 * Contract: `terminalSafe(text)` returns `text` with every character that
 * can move the cursor, recolour, conceal, reorder or split what a terminal
 * shows replaced by a visible escape: C0 controls except `\n` and `\t`
 * (`\r` → `\r`, ESC → `\x1b`, …), DEL and C1 controls (`\x7f`, `\x9b`, …),
 * the bidirectional controls U+061C, U+200E–U+200F, U+202A–U+202E,
 * U+2066–U+2069, the line/paragraph separators U+2028–U+2029 (`\u202e`) and
 * every other invisible format character (Unicode category Cf: soft hyphen
 * U+00AD, U+0600–U+0605, U+06DD, U+070F, U+0890–U+0891, U+08E2, U+180E,
 * zero-width space U+200B, U+2060–U+2064, U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB
 * and the Tag block U+E0000–U+E007F as `\u{e0041}`), except the joiners
 * U+200C/U+200D (Persian, Indic scripts, emoji ZWJ sequences) and a
 * well-formed emoji tag sequence (a subdivision flag: U+1F3F4, tag letters or
 * digits, U+E007F), which stay as they are.
 * So an ANSI sequence (`\x1b[2K\r`), an OSC 8 hyperlink (`\x1b]8;;…`) or a
 * bidi override in a name, argument, path or key is shown as text and cannot
 * forge or hide a line. Printable text (any script, emoji) is unchanged.
 * `jsonTerminalSafe(json)` applies the same to JSON text, as `\uXXXX`
 * escapes (the JSON value is unchanged). Pure.
 *
 * @module
 */

// A subdivision flag (🏴 + tag letters/digits + cancel tag) stays whole; any other tag character is escaped.
const FLAG = '\\u{1F3F4}[\\u{E0030}-\\u{E0039}\\u{E0061}-\\u{E007A}]{1,6}\\u{E007F}'
const FORMAT = '[\\p{Cf}\\u{E0000}-\\u{E007F}]'
// Controls and bidi as before, and every format character (Cf) but the joiners U+200C/U+200D.
const UNSAFE = new RegExp(
  `${FLAG}|(?![\\u200c\\u200d])(?:[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029]|${FORMAT})`,
  'gu',
)
const UNSAFE_IN_JSON = new RegExp(`${FLAG}|(?![\\u200c\\u200d])(?:[\\u007f-\\u009f\\u2028\\u2029]|${FORMAT})`, 'gu')
// oneLine: line breaks, tabs and every format character, joiners and tags included.
const UNSAFE_ONE_LINE = new RegExp(`[\\n\\t]|${FORMAT}`, 'gu')

const NAMED: Record<string, string> = {
  '\r': '\\r',
  '\u001b': '\\x1b',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
  '\0': '\\0',
}

function escapeChar(c: string): string {
  if (c.length > 2) return c // a whole subdivision flag
  const named = NAMED[c]
  if (named) return named
  const code = c.codePointAt(0) ?? 0
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`
}

/** One UTF-16 unit as `\\uXXXX` (an astral character becomes its two surrogate escapes: valid JSON). */
function jsonEscape(c: string): string {
  if (c.length > 2) return c
  let out = ''
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`
  return out
}

/** `text` with terminal control characters shown as escapes (see the module contract). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeChar)
}

/**
 * One config string for a one-line slot (a review field, a table cell, a
 * name in a message): `terminalSafe`, and line breaks and tabs as `\n`,
 * `\t` too — so a value cannot push the rest of a review off the screen or
 * forge a line of its own. Also shows every format character (Cf, the Tag
 * block) as an escape, the joiners and subdivision flags included.
 */
export function oneLine(text: string): string {
  return terminalSafe(text).replace(UNSAFE_ONE_LINE, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : escapeChar(c)))
}

/** JSON text with the characters JSON.stringify leaves raw (DEL, C1, bidi, U+2028/9, Cf) as `\uXXXX`. */
export function jsonTerminalSafe(json: string): string {
  return json.replace(UNSAFE_IN_JSON, jsonEscape)
}
