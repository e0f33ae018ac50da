/**
 * PEM blocks in free text: the body of every `-----BEGIN …-----` …
 * `-----END …-----` block is a secret (a private key; a certificate is
 * masked too — nothing is lost by hiding it).
 *
 * Contract (pure): `maskPem(text)` masks every body line of every block in
 * a multi-line text (a block without its END: to the end of the text);
 * `maskPemLine(line, state)` does the same for a stream read one line at a
 * time (the server log, `dsh-mcp logs`), `state.inside` carried between
 * lines; a leading log time stamp is kept. Linear: `indexOf` scans only.
 *
 * @module
 */
/** The same mask as redact-shapes.ts MASK (kept here: no import cycle). */
const MASK = '***'

export const PEM_BEGIN = '-----BEGIN '
const PEM_END = '-----END '
const STAMP = /^\d{4}-\d\d-\d\dT[\d:.]+Z /

/** Lines of a stream, one at a time: `inside` is true between a PEM block's BEGIN and END lines. */
export interface PemState {
  inside: boolean
}

/**
 * One line with any PEM body on it masked, the state carried to the next
 * line: after a `-----BEGIN …-----` header every line up to the
 * `-----END …-----` one is `***` (a leading log time stamp kept), so a key
 * printed line by line, or cut off before its END, is hidden whole.
 */
export function maskPemLine(line: string, state: PemState): string {
  if (state.inside) {
    const end = line.indexOf(PEM_END)
    if (end < 0) {
      const stamp = STAMP.exec(line)?.[0] ?? ''
      return line.length > stamp.length ? `${stamp}${MASK}` : line
    }
    state.inside = false
    const stamp = STAMP.exec(line)?.[0] ?? ''
    return `${stamp}${end > stamp.length ? `${MASK} ` : ''}${line.slice(end)}`
  }
  const begin = line.indexOf(PEM_BEGIN)
  if (begin < 0) return line
  const close = line.indexOf('-----', begin + PEM_BEGIN.length)
  const bodyAt = close < 0 ? line.length : close + 5
  const end = line.indexOf(PEM_END, bodyAt)
  if (end >= 0) return `${line.slice(0, bodyAt)}${end > bodyAt ? MASK : ''}${maskPemLine(line.slice(end), state)}`
  state.inside = true
  return bodyAt < line.length ? `${line.slice(0, bodyAt)}${MASK}` : line
}

/** Every PEM body of a multi-line text masked (a block without its END: to the end of the text). */
export function maskPem(text: string): string {
  const state: PemState = { inside: false }
  return text
    .split('\n')
    .map((l) => maskPemLine(l, state))
    .join('\n')
}
