/**
 * The words of tool metadata and of a search query, as the search index sees them.
 *
 * Contract: pure. `splitWords(text)` cuts identifiers on `_`, `-`, `/`, `.`,
 * `:` and camelCase boundaries (`read_file`, `readFile`, `browser-navigate`
 * → `read file`, …) and free text on anything not a letter or digit;
 * `normalizeTerm(word)` lowercases, drops stop words (returns `null`) and
 * folds simple English inflections (`files` → `file`, `searching` → `search`,
 * `created` → `creat`, applied alike to documents and queries) so a query's
 * wording meets a description's. `summaryOf(description)` is the one-line
 * summary a search result shows: the first sentence or line, at most 160
 * characters.
 *
 * @module
 */

const STOP = new Set(
  (
    'a an the to of in on for and or with by from at as is are be been it its this that these those i me my we our you your ' +
    'please can could would should will do does did some any all into onto about via using use want need so then than ' +
    'there their them they he she his her what which who whom how when where why if not no yes just also get let make'
  ).split(' '),
)

/** Identifier and free-text words of `text`, in order, as written (not lowercased). */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
}

/** Folds common English suffixes (a light stemmer: enough for tool vocabulary). */
function stem(w: string): string {
  if (w.length <= 3) return w
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`
  if (w.endsWith('sses')) return w.slice(0, -2)
  if (w.endsWith('ing') && w.length > 5) return trimDouble(w.slice(0, -3))
  if (w.endsWith('ed') && w.length > 4) return trimDouble(w.slice(0, -2))
  if (w.endsWith('es') && /(ch|sh|x|ss|z)es$/.test(w)) return w.slice(0, -2)
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1)
  return w
}

function trimDouble(w: string): string {
  return /([^aeiouls])\1$/.test(w) ? w.slice(0, -1) : w.endsWith('e') && w.length > 4 ? w.slice(0, -1) : w
}

/** The index term of one word, or `null` for a stop word. */
export function normalizeTerm(word: string): string | null {
  const w = word.toLowerCase()
  if (STOP.has(w)) return null
  const s = stem(w)
  return s.endsWith('e') && s.length > 4 ? s.slice(0, -1) : s
}

/** The one-line summary a search result shows for a tool. */
export function summaryOf(description: string): string {
  const line = description.trim().split(/\n/)[0] ?? ''
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line
  return sentence.length > 160 ? `${sentence.slice(0, 157).trimEnd()}...` : sentence
}
