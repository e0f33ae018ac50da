// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/** url-expand.ts: where a substituted value lands in a url, and its encoding there. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { expandEntry } from '../../src/config/expand.ts'
import { EntrySchema } from '../../src/config/schema.ts'
import { encodeForUrl, urlPlace } from '../../src/config/url-expand.ts'

test('each component is named from the text before the value', () => {
  assert.equal(urlPlace(''), 'origin')
  assert.equal(urlPlace('http'), 'scheme')
  assert.equal(urlPlace('https://'), 'authority')
  assert.equal(urlPlace('https://user:'), 'authority')
  assert.equal(urlPlace('https://u@host:'), 'authority')
  assert.equal(urlPlace('https://host/api/'), 'path')
  assert.equal(urlPlace('https://host/mcp?key='), 'query')
  assert.equal(urlPlace('https://host/mcp?a=1#'), 'fragment')
})

test('a value is percent-encoded where it lands, verbatim only as the origin', () => {
  assert.equal(encodeForUrl('', 'https://docs.example/mcp?x=1'), 'https://docs.example/mcp?x=1')
  assert.equal(encodeForUrl('https://', 'evil.example/#'), 'evil.example%2F%23')
  assert.equal(encodeForUrl('https://h/mcp?k=', 'a&b=c#d'), 'a%26b%3Dc%23d')
  assert.equal(encodeForUrl('https://h/', '../admin?'), '..%2Fadmin%3F')
})

const expandUrl = (url: string, env: Record<string, string>) => {
  const r = expandEntry(EntrySchema.parse({ url }), env)
  assert.ok('entry' in r, JSON.stringify(r))
  return r.entry.url
}

test('expandEntry encodes url values per component; a default and other fields stay as written', () => {
  const at = 'a@127.0.0.1:9/x#'
  assert.equal(expandUrl('http://${U}:p@h.example/mcp', { U: at }), `http://${encodeURIComponent(at)}:p@h.example/mcp`)
  assert.equal(new URL(expandUrl('http://${U}:p@h.example/mcp', { U: at })!).host, 'h.example')
  assert.equal(
    new URL(expandUrl('http://h.example/mcp?t=${T}', { T: 'x&admin=1#f' })!).searchParams.get('t'),
    'x&admin=1#f',
  )
  assert.equal(
    new URL(expandUrl('http://h.example/${P}/mcp', { P: '../../admin?' })!).pathname,
    '/..%2F..%2Fadmin%3F/mcp',
  )
  assert.equal(expandUrl('${BASE}/mcp', { BASE: 'http://h.example:8' }), 'http://h.example:8/mcp')
  assert.equal(expandUrl('http://h.example/${P:-a/b}', {}), 'http://h.example/a/b')
  const r = expandEntry(EntrySchema.parse({ command: 'x', args: ['${A}'], env: { K: '${A}' } }), { A: 'a/b?c' })
  assert.ok('entry' in r)
  assert.deepEqual([r.entry.args, r.entry.env], [['a/b?c'], { K: 'a/b?c' }])
})
