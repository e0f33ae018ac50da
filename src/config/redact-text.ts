/**
 * Secret shapes in free text (errors, a server's stderr, a value shown in full), masked.
 *
 * Contract (pure — a string in, a string out): `redactShapesIn(text)` masks URL
 * userinfo, query values of secret-named keys, `--flag=value` of secret-bearing
 * flags (the reviewed list in redact-shapes.ts), the credential after
 * `Bearer`/`Basic` (one with a digit or punctuation: "Basic authentication"
 * stays), the value of a secret-named `key: value`, `key=value` or
 * `"key": "value"` pair (`Authorization: Token x`, `token=x`, `"password": "x"`,
 * `api_key: x`; also after `=`: `--env=GITHUB_TOKEN=x`, `--header=X-Api-Key: x`),
 * and every line of a PEM block's body (redact-pem.ts, which also serves a
 * stream read line by line). Ordinary words and `${VAR}` references stay. Each
 * pass is linear in the text (bounded names, forward scans).
 *
 * @module
 */
import { maskPem, PEM_BEGIN } from './redact-pem.ts'
import { flagIsSecret, isSecretName, MASK, onlyReferences } from './redact-shapes.ts'

const TEXT_QUERY = /([?&;]([A-Za-z0-9_.-]+)=)([^\s&;#"'<>]+)/g
const TEXT_FLAG = /(^|[\s"'(=,])(--?([A-Za-z0-9][A-Za-z0-9_.-]*)=)([^\s"',)]+)/g
const TEXT_USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/g
const TEXT_SCHEME = /\b([Bb]earer|[Bb]asic)(\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/g

/** Secret shapes in free text masked: URL userinfo, secret-named query values and `--flag=` values, auth-scheme credentials, secret-named `key: value` / `key=value` / `"key": "value"` pairs, PEM bodies. */
export function redactShapesIn(text: string): string {
  let out = text.includes(PEM_BEGIN) ? maskPem(text) : text
  if (!/[:=]|earer|asic/.test(out)) return out
  out = out
    .replace(TEXT_USERINFO, (_m, scheme: string) => `${scheme}${MASK}@`)
    .replace(TEXT_QUERY, (m, head: string, key: string) => (isSecretName(key) ? `${head}${MASK}` : m))
    .replace(TEXT_FLAG, (m, lead: string, head: string, name: string) =>
      flagIsSecret(head.startsWith('--') ? '--' : '-', name) ? `${lead}${head}${MASK}` : m,
    )
    .replace(TEXT_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${MASK}`)
  return maskPairs(out)
}

/**
 * `name: value`, `name=value`, `"name": "value"` with a secret-bearing name
 * (`Authorization: Token x`, `X-Api-Key: x`, `token=x`, `"password": "x"`,
 * `api_key: x`): the value becomes `***` — a quoted value up to its closing
 * quote, after `:` the rest of the line (a header value has spaces:
 * `Bearer x`), after `=` up to a space or delimiter. The name must start the
 * text or follow a delimiter (not inside a word); a value already `***` or
 * made only of `${VAR}` references is kept. One pass: the name is at most 64
 * characters and the value is found by scanning forward, so the time is
 * linear in the text.
 */
const PAIR = /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})(["']?)[ \t]{0,8}([:=])[ \t]{0,8}/g
const PAIR_LEAD = /[\s"'{}(),;&?=[\]]/

function maskPairs(text: string): string {
  let out = ''
  let last = 0
  PAIR.lastIndex = 0
  for (let m = PAIR.exec(text); m !== null; m = PAIR.exec(text)) {
    const start = m.index
    const valueAt = start + m[0].length
    const before = start === 0 ? '' : text[start - 1]!
    // `ab:c` inside a word, `x==y`, `https://`: not a pair.
    if (
      (before !== '' && !PAIR_LEAD.test(before)) ||
      !isSecretName(m[1]!) ||
      text[valueAt] === '=' ||
      text.startsWith('//', valueAt)
    ) {
      PAIR.lastIndex = start + 1
      continue
    }
    const end = valueEnd(text, valueAt, m[3]!)
    const value = text.slice(valueAt, end.to)
    if (value.length === 0 || value === MASK || onlyReferences(value)) {
      PAIR.lastIndex = Math.max(end.to, start + 1)
      continue
    }
    out += `${text.slice(last, end.from)}${MASK}`
    last = end.to
    PAIR.lastIndex = Math.max(end.to, start + 1)
  }
  return last === 0 ? text : out + text.slice(last)
}

/** Where a pair's value starts and ends (a quoted value: inside its quotes). */
function valueEnd(text: string, at: number, sep: string): { from: number; to: number } {
  const q = text[at]
  if (q === '"' || q === "'") {
    let i = at + 1
    while (i < text.length && text[i] !== q && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1
    return { from: at + 1, to: Math.min(i, text.length) }
  }
  let i = at
  if (sep === ':') {
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++
  } else {
    while (i < text.length && !/[\s&;,"'<>)}\]]/.test(text[i]!)) i++
  }
  return { from: at, to: i }
}
