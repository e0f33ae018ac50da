/**
 * Schema tokens of a tool: what one MCP tool costs in every model request.
 *
 * Contract: pure (no fs, no host). `hostToolJson(tool)` is the JSON the host
 * sends the model for a tool (host-facts: `{type:"function", function:{name,
 * description, parameters}}`); `toolTokens(tool)` counts it with
 * `estimateTokens`, a documented estimate of a byte-pair tokenizer's count:
 * the text is cut as a BPE pre-tokenizer cuts it (letter runs with their
 * leading space or quote, digit runs of up to three, punctuation runs,
 * whitespace) and each piece costs one token per started 8 letters (words),
 * per started 3 digits, per started 2 punctuation marks (JSON's `":"`, `{"`
 * and `"},` merge in real vocabularies), with a newline run one token.
 * Why an estimate: the real tokenizers (o200k_base, DeepSeek's own) are 2–30 MB
 * of ranks and ~400 ms to load — too heavy for the host's agent-creation path
 * and for the CLI; the estimate is validated against o200k_base
 * (gpt-tokenizer, a devDependency) in test/budget/tokens.test.ts over the
 * recorded catalogs of real servers (bench/catalogs): measured within 10%
 * per catalog and per tool after a 0.88 fit; the test holds it to 12%/20%.
 * Never throws; a schema that cannot be serialized is counted without it.
 *
 * @module
 */

/** The part of a tool that reaches the model. */
export interface ToolShape {
  name: string
  description?: string
  /** The input schema (JSON Schema object). */
  parameters?: unknown
}

/** The JSON the host sends the model for one tool. */
export function hostToolJson(tool: ToolShape): string {
  try {
    return JSON.stringify({
      type: 'function',
      function: { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? {} },
    })
  } catch {
    return JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description ?? '' } })
  }
}

const PIECE = /[ "']?[A-Za-z\u00C0-\u024F]+|\d{1,3}|\n+|[ \t]+|[^\sA-Za-z\d\u00C0-\u024F]+|[^\s]/gu

/** Fitted against o200k_base over bench/catalogs (the raw piece count runs ~13% high on JSON schemas). */
const CALIBRATION = 0.88

/** An estimate of a byte-pair tokenizer's token count of `text` (see the module comment). */
export function estimateTokens(text: string): number {
  let n = 0
  for (const m of text.matchAll(PIECE)) {
    const p = m[0]
    const c = p.charCodeAt(0)
    if (c === 10) n += 1
    else if (c === 32 || c === 9) n += p.length > 1 ? 1 : 0
    else if (/[A-Za-z\u00C0-\u024F]/u.test(p[p.length - 1] ?? '')) n += Math.ceil(p.replace(/^[ "']/, '').length / 8)
    else if (c >= 48 && c <= 57) n += 1
    else if (c > 0x24f) n += p.length
    else n += Math.ceil(p.length / 3)
  }
  return Math.round(n * CALIBRATION)
}

/** Schema tokens of one tool as the host sends it. */
export function toolTokens(tool: ToolShape): number {
  return estimateTokens(hostToolJson(tool))
}
