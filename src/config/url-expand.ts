/**
 * Where a substituted value lands in a `url` template, and its encoding there (docs/guide/format.md,
 * "Variables in a url").
 *
 * Contract: pure. {@link encodeForUrl} takes the URL text before a `${VAR}` / `${secret:NAME}` and the
 * value, and returns the value as it may be written at that place: percent-encoded
 * (`encodeURIComponent`) in every component — userinfo, host, port, path, query, fragment — so a value
 * holding `/`, `?`, `#`, `@`, `:` or `&` stays inside the component it was written for and can change
 * neither the host nor the path. One place is taken verbatim: a value at the very start of the template
 * (`url: ${MCP_URL}`, `${BASE}/mcp`), which is the URL's origin by the author's choice. The prefix is
 * the text already expanded (values before it are encoded, so they never open a new component).
 *
 * @module
 */

/** The URL component a value written after `prefix` lands in. */
export type UrlPlace = 'origin' | 'scheme' | 'authority' | 'path' | 'query' | 'fragment'

export function urlPlace(prefix: string): UrlPlace {
  if (prefix === '') return 'origin'
  const sep = prefix.indexOf('://')
  if (sep < 0) return 'scheme'
  const rest = prefix.slice(sep + 3)
  if (rest.includes('#')) return 'fragment'
  if (rest.includes('?')) return 'query'
  if (rest.includes('/')) return 'path'
  return 'authority'
}

/** `value` encoded for the component it lands in after `prefix` (verbatim only as the template's start). */
export function encodeForUrl(prefix: string, value: string): string {
  return urlPlace(prefix) === 'origin' ? value : encodeURIComponent(value)
}
