/**
 * A linear pre-scan of a config file's text, run before the YAML parser, so
 * that a file built to cost the parser seconds of CPU (the host's event loop)
 * is refused at once at a stable position.
 *
 * Contract: `scanStructure(text, limits)` walks the text once, outside quoted
 * strings and comments, and returns the first limit it crosses:
 * - `too-deep`: flow brackets (`[`, `{`) nest deeper than `maxFlowDepth` (a
 *   bracket bomb would otherwise exhaust the parser's stack);
 * - `too-complex`: more than `maxValues` structure marks — flow brackets and
 *   commas, every `:`, and `-` / `?` followed by a space or a line end. Each
 *   node the parser builds needs at least one of them, so this bounds the
 *   parser's work by the count, whatever the file's shape (the parser spends
 *   ≈ 15 µs per node; a file of the largest allowed size made only of
 *   `[[1]],` would otherwise hold half a million). A `:` inside a plain
 *   scalar (a URL) counts too: the bound only gets stricter, and real files
 *   stay far below it.
 * It returns `undefined` when the text is within both. It is approximate by
 * design (a plain scalar may hold a stray bracket) and never throws.
 *
 * The text bound does not see aliases: `*a` repeated a hundred times shares
 * one parsed collection of 49,000 values, which the checks after parsing
 * would walk a hundred times (seconds of the host's event loop).
 * `exceedsValues(value, max)` bounds the parsed value as it will be walked —
 * every visit to a shared object counted — and stops at `max + 1` visits.
 *
 * @module
 */

export interface StructureLimits {
  readonly maxFlowDepth: number
  readonly maxValues: number
}

export interface StructureProblem {
  readonly code: 'too-deep' | 'too-complex'
  /** Offset (UTF-16 index) of the mark that crossed the limit. */
  readonly offset: number
}

const SPACE = /\s/

export function scanStructure(text: string, limits: StructureLimits): StructureProblem | undefined {
  let depth = 0
  let marks = 0
  let quote: '"' | "'" | undefined
  const mark = (at: number): StructureProblem | undefined =>
    ++marks > limits.maxValues ? { code: 'too-complex', offset: at } : undefined
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quote === '"') {
      if (c === '\\') i++
      else if (c === '"') quote = undefined
      continue
    }
    if (quote === "'") {
      if (c === "'" && text[i + 1] === "'") i++
      else if (c === "'") quote = undefined
      continue
    }
    const prev = i === 0 ? '\n' : text[i - 1]!
    const next = text[i + 1]
    let problem: StructureProblem | undefined
    if (c === '#' && SPACE.test(prev)) {
      const nl = text.indexOf('\n', i)
      if (nl < 0) return undefined
      i = nl
    } else if ((c === '"' || c === "'") && /[\s[{,:]/.test(prev)) quote = c
    else if (c === '[' || c === '{') {
      if (++depth > limits.maxFlowDepth) return { code: 'too-deep', offset: i }
      problem = mark(i)
    } else if (c === ']' || c === '}') {
      if (depth > 0) depth--
    } else if (c === ',' || c === ':') problem = mark(i)
    else if ((c === '-' || c === '?') && (next === undefined || SPACE.test(next))) problem = mark(i)
    if (problem) return problem
  }
  return undefined
}

/**
 * True when walking `value` visits more than `max` nodes: every array item and every mapping entry (key
 * and value together, as one `:` in the text) is one node, and a part shared by several references is
 * counted once per reference.
 */
export function exceedsValues(value: unknown, max: number): boolean {
  let budget = max
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const node = stack.pop()
    if (--budget < 0) return true
    if (Array.isArray(node)) stack.push(...node)
    else if (node !== null && typeof node === 'object') stack.push(...Object.values(node))
  }
  return false
}
