/**
 * Strict JSON syntax check for the `mcpServers` files (`.dsh/mcp.json`,
 * `.mcp.json`). Those files are also read by other tools with `JSON.parse`,
 * so what YAML would tolerate (trailing commas, comments, single quotes,
 * unquoted keys) must be refused here, with a position and a message that
 * says what to fix.
 *
 * Contract: pure, never throws, never recursive (a deeply nested file cannot
 * exhaust the stack), and a message never quotes the file's text — a value
 * may be a secret. Returns the offset (0-based, in UTF-16 units) of the first
 * problem, or `undefined` for valid JSON.
 *
 * @module
 */

export interface JsonSyntaxError {
  offset: number
  message: string
  /** The nesting limit was hit (reported as `too-deep`). */
  tooDeep?: boolean
}

const WS = new Set([' ', '\t', '\n', '\r'])
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

/** Describe the character at `i` for a message, without quoting file content beyond one symbol. */
function what(text: string, i: number): string {
  if (i >= text.length) return 'the end of the file'
  const c = text[i]!
  if (c === '/') return 'a comment (JSON has no comments)'
  if (c === "'") return 'a single quote (JSON strings use double quotes)'
  if (/[A-Za-z_$]/.test(c)) return 'an unquoted word (JSON strings and property names use double quotes)'
  if (c === '\n' || c === '\r') return 'a line break'
  return `"${c}"`
}

export function checkJsonSyntax(text: string, maxDepth: number): JsonSyntaxError | undefined {
  let i = 0
  const stack: ('{' | '[')[] = []
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++
  }
  const fail = (message: string, at = i): JsonSyntaxError => ({ offset: at, message })
  /** Read one string starting at `i` (a `"`); returns an error or advances `i`. */
  const string = (): JsonSyntaxError | undefined => {
    const start = i
    i++
    while (i < text.length) {
      const c = text[i]!
      if (c === '"') {
        i++
        return undefined
      }
      if (c === '\\') {
        const e = text[i + 1]
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('bad \\u escape: needs 4 hex digits')
          i += 6
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2
        else return fail('bad escape in a string (allowed: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)')
        continue
      }
      if (c.charCodeAt(0) < 0x20)
        return fail(
          c === '\n' || c === '\r'
            ? 'unterminated string: a line break inside a string must be written \\n'
            : 'a control character inside a string must be escaped',
        )
      i++
    }
    return fail('unterminated string', start)
  }
  /** Read one scalar value at `i`. */
  const scalar = (): JsonSyntaxError | undefined => {
    const c = text[i]
    if (c === '"') return string()
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i) && !/[A-Za-z0-9_$]/.test(text[i + word.length] ?? '')) {
        i += word.length
        return undefined
      }
    }
    NUMBER.lastIndex = i
    const m = NUMBER.exec(text)
    if (m && m[0].length > 0 && !/[A-Za-z0-9_.]/.test(text[i + m[0].length] ?? '')) {
      i += m[0].length
      return undefined
    }
    return fail(`expected a value, found ${what(text, i)}`)
  }
  // `expect` says what may come next: a value, a key (after "{" or ","), or a separator.
  let expect: 'value' | 'first-key' | 'key' | 'first-item' | 'after' = 'value'
  for (;;) {
    skip()
    const c = text[i]
    const top = stack[stack.length - 1]
    if (expect === 'after') {
      if (top === undefined)
        return i < text.length ? fail(`unexpected ${what(text, i)} after the end of the JSON document`) : undefined
      if (c === ',') {
        i++
        expect = top === '{' ? 'key' : 'value'
        continue
      }
      if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        i++
        stack.pop()
        continue
      }
      const close = top === '{' ? '}' : ']'
      if (i >= text.length) return fail(`unexpected end of the file: missing "${close}"`)
      return fail(`expected "," or "${close}", found ${what(text, i)}`)
    }
    if (expect === 'first-key' || expect === 'key') {
      if (c === '}') {
        if (expect === 'key') return fail('trailing comma before "}" (JSON allows none)', lastComma(text, i))
        i++
        stack.pop()
        expect = 'after'
        continue
      }
      if (c !== '"') return fail(`expected a double-quoted property name, found ${what(text, i)}`)
      const e = string()
      if (e) return e
      skip()
      if (text[i] !== ':') return fail(`expected ":" after a property name, found ${what(text, i)}`)
      i++
      expect = 'value'
      continue
    }
    if (expect === 'first-item' && c === ']') {
      i++
      stack.pop()
      expect = 'after'
      continue
    }
    // a value
    if (c === ']' && top === '[') return fail('trailing comma before "]" (JSON allows none)', lastComma(text, i))
    if (c === '{' || c === '[') {
      if (stack.length >= maxDepth)
        return { offset: i, message: `nested more than ${maxDepth} levels deep`, tooDeep: true }
      stack.push(c)
      i++
      expect = c === '{' ? 'first-key' : 'first-item'
      continue
    }
    if (i >= text.length)
      return fail(
        top ? `unexpected end of the file: missing "${top === '{' ? '}' : ']'}"` : 'the file holds no JSON value',
      )
    const e = scalar()
    if (e) return e
    expect = 'after'
  }
}

/** The offset of the comma that precedes `end` (for "trailing comma" positions). */
function lastComma(text: string, end: number): number {
  let j = end - 1
  while (j > 0 && WS.has(text[j]!)) j--
  return text[j] === ',' ? j : end
}
