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
 * U+2066–U+2069 and the line/paragraph separators U+2028–U+2029 (`\u202e`).
 * So an ANSI sequence (`\x1b[2K\r`), an OSC 8 hyperlink (`\x1b]8;;…`) or a
 * bidi override in a name, argument, path or key is shown as text and cannot
 * forge or hide a line. Printable text (any script, emoji) is unchanged.
 * `jsonTerminalSafe(json)` applies the same to JSON text, as `\uXXXX`
 * escapes (the JSON value is unchanged). Pure.
 *
 * @module
 */

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

const NAMED: Record<string, string> = {
  '\r': '\\r',
  '\u001b': '\\x1b',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
  '\0': '\\0',
}

function escapeChar(c: string): string {
  const named = NAMED[c]
  if (named) return named
  const code = c.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** `text` with terminal control characters shown as escapes (see the module contract). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeChar)
}

/**
 * One config string for a one-line slot (a review field, a table cell, a
 * name in a message): `terminalSafe`, and line breaks and tabs as `\n`,
 * `\t` too — so a value cannot push the rest of a review off the screen or
 * forge a line of its own. Also shows zero-width characters as escapes.
 */
export function oneLine(text: string): string {
  return terminalSafe(text).replace(/[\n\t\u200b-\u200d\u2060\ufeff]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** JSON text with the characters JSON.stringify leaves raw (DEL, C1, bidi, U+2028/9) as `\uXXXX`. */
export function jsonTerminalSafe(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
