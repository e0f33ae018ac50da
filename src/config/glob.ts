/**
 * Tool-name globs with a bounded cost: a repository file's `tools` filter can
 * never stall the host (issue 12 class 7).
 *
 * Contract:
 * - Syntax: `*` (any run of characters, `/` included: tool names are not
 *   paths), `?` (one character), `[abc]` / `[a-z]` / `[!a]` / `[^a]`,
 *   `{a,b}` alternatives (nestable), `\x` for a literal `x`, and a leading
 *   `!` negating the whole glob. Matched against the whole name,
 *   case-sensitively, by code point.
 * - `globProblem(glob)` says why a glob is refused, or undefined: longer than
 *   `MAX_GLOB_LENGTH`, or braces expanding to more than `MAX_ALTERNATIVES`.
 *   The schema refuses such a glob in the file (a diagnostic with position).
 * - `compileGlob(glob)` never uses a regular expression: each alternative is
 *   a token list matched by the two-pointer wildcard algorithm (backtracking
 *   only to the last `*`), so one match costs at most
 *   alternatives × (name length + 1) × (glob length + 1) steps — linear in the
 *   name for a bounded glob, whatever its shape (`*a*a*a…b`, nested braces).
 *   A refused glob compiles to undefined (the caller fails closed). Pure.
 *
 * @module
 */

export const MAX_GLOB_LENGTH = 256
export const MAX_ALTERNATIVES = 64

type Token =
  | { t: 'star' }
  | { t: 'one' }
  | { t: 'lit'; c: string }
  | { t: 'class'; neg: boolean; ranges: [string, string][] }

class TooMany extends Error {}

/** The end index (exclusive) of a `[...]` class starting at `i`, or -1 when it is not closed. */
function classEnd(chars: string[], i: number): number {
  let j = i + 1
  if (chars[j] === '!' || chars[j] === '^') j++
  if (chars[j] === ']') j++
  for (; j < chars.length; j++) {
    if (chars[j] === '\\') j++
    else if (chars[j] === ']') return j + 1
  }
  return -1
}

/** The index of the `}` closing the `{` at `i` and the top-level `,` positions, or undefined when unbalanced. */
function braceSpan(chars: string[], i: number): { end: number; commas: number[] } | undefined {
  let depth = 0
  const commas: number[] = []
  for (let j = i; j < chars.length; j++) {
    const c = chars[j]
    if (c === '\\') j++
    else if (c === '[') {
      const e = classEnd(chars, j)
      if (e > 0) j = e - 1
    } else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return { end: j, commas }
    else if (c === ',' && depth === 1) commas.push(j)
  }
  return undefined
}

/** Expand `{a,b}` into brace-free alternatives (as code-point arrays), at most MAX_ALTERNATIVES. */
function expand(chars: string[]): string[][] {
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]
    if (c === '\\') {
      i++
      continue
    }
    if (c === '[') {
      const e = classEnd(chars, i)
      if (e > 0) i = e - 1
      continue
    }
    if (c !== '{') continue
    const span = braceSpan(chars, i)
    if (!span) continue
    const head = chars.slice(0, i)
    const tails = expand(chars.slice(span.end + 1))
    const cuts = [i, ...span.commas, span.end]
    const out: string[][] = []
    for (let k = 0; k + 1 < cuts.length; k++) {
      for (const mid of expand(chars.slice(cuts[k]! + 1, cuts[k + 1]))) {
        for (const tail of tails) {
          out.push([...head, ...mid, ...tail])
          if (out.length > MAX_ALTERNATIVES) throw new TooMany()
        }
      }
    }
    return out
  }
  return [chars]
}

function tokens(chars: string[]): Token[] {
  const out: Token[] = []
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === '*') {
      if (out.at(-1)?.t !== 'star') out.push({ t: 'star' })
    } else if (c === '?') out.push({ t: 'one' })
    else if (c === '\\' && i + 1 < chars.length) out.push({ t: 'lit', c: chars[++i]! })
    else if (c === '[' && classEnd(chars, i) > 0) {
      const end = classEnd(chars, i)
      let j = i + 1
      const neg = chars[j] === '!' || chars[j] === '^'
      if (neg) j++
      const ranges: [string, string][] = []
      for (; j < end - 1; j++) {
        let lo = chars[j]!
        if (lo === '\\' && j + 1 < end - 1) lo = chars[++j]!
        if (chars[j + 1] === '-' && j + 2 < end - 1) {
          let hi = chars[j + 2]!
          j += 2
          if (hi === '\\' && j + 1 < end - 1) hi = chars[++j]!
          ranges.push([lo, hi])
        } else ranges.push([lo, lo])
      }
      out.push({ t: 'class', neg, ranges })
      i = end - 1
    } else out.push({ t: 'lit', c })
  }
  return out
}

function one(tok: Token, c: string): boolean {
  if (tok.t === 'one') return true
  if (tok.t === 'lit') return tok.c === c
  if (tok.t === 'class') return tok.ranges.some(([lo, hi]) => c >= lo && c <= hi) !== tok.neg
  return false
}

/** Two-pointer wildcard match: backtracks only to the last `*` (at most |s|·|p| steps). */
function matchTokens(p: readonly Token[], s: readonly string[]): boolean {
  let pi = 0
  let si = 0
  let starP = -1
  let starS = 0
  while (si < s.length) {
    const tok = p[pi]
    if (tok?.t === 'star') {
      starP = pi++
      starS = si
    } else if (tok && one(tok, s[si]!)) {
      pi++
      si++
    } else if (starP >= 0) {
      pi = starP + 1
      si = ++starS
    } else return false
  }
  while (p[pi]?.t === 'star') pi++
  return pi === p.length
}

/** Why `glob` is refused, or undefined. */
export function globProblem(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_LENGTH)
    return `is ${glob.length} characters long; a tool glob may have at most ${MAX_GLOB_LENGTH}`
  try {
    expand(Array.from(glob.startsWith('!') ? glob.slice(1) : glob))
  } catch (err) {
    if (err instanceof TooMany) return `expands to more than ${MAX_ALTERNATIVES} alternatives; list the names instead`
    throw err
  }
  return undefined
}

/** A matcher for `glob` with bounded cost (see the module contract); undefined for a refused glob. */
export function compileGlob(glob: string): ((name: string) => boolean) | undefined {
  if (globProblem(glob) !== undefined) return undefined
  const negate = glob.startsWith('!') && glob.length > 1
  const alts = expand(Array.from(negate ? glob.slice(1) : glob)).map(tokens)
  return (name) => {
    const s = Array.from(name)
    return alts.some((a) => matchTokens(a, s)) !== negate
  }
}
