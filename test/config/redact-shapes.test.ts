/**
 * Secret shapes, as a unit: secret-bearing names, argument tails, URL parts, and display forms —
 * and what stays visible (switches, ports, hosts, ordinary words, `${VAR}` references): over-redaction fails.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  argSecrets,
  displayArgs,
  displayUrl,
  isSecretName,
  mapUrlSecrets,
  onlyReferences,
  urlSecrets,
} from '../../src/config/redact-shapes.ts'

const ref = (name: string) => `$${'{'}${name}}`

test('secret-bearing names: words and -<word> endings, camelCase read as kebab; --no- switches never', () => {
  for (const n of ['token', 'github-token', 'API_KEY', 'client_secret', 'githubToken', 'password']) {
    assert.ok(isSecretName(n), n)
  }
  for (const n of ['no-token', 'verbose', 'port', 'host', 'tokenizer', 'name']) assert.ok(!isSecretName(n), n)
})

test('argument tails: flag values (= or next word), NAME=value, Header: value, -p; plain arguments left alone', () => {
  const args = [
    '--api-key',
    'k-1234',
    '--token=t-5678',
    'API_KEY=a-999',
    'Authorization: Bearer b-777',
    '-p',
    'pw',
    '--port',
    '8080',
    'serve',
    '--verbose',
  ]
  const got = argSecrets(args)
  assert.deepEqual(
    [...got.entries()],
    [
      [1, 'k-1234'],
      [2, 't-5678'],
      [3, 'a-999'],
      [4, 'Bearer b-777'],
      [6, 'pw'],
    ],
  )
  assert.deepEqual(displayArgs(args), [
    '--api-key',
    '***',
    '--token=***',
    'API_KEY=***',
    'Authorization: ***',
    '-p',
    '***',
    '--port',
    '8080',
    'serve',
    '--verbose',
  ])
})

test('references are shown as written: they name a variable, they hold no secret', () => {
  assert.ok(onlyReferences(ref('GITHUB_TOKEN')))
  assert.ok(!onlyReferences(`${ref('T')}-suffix`.replace(ref('T'), `$${'{'}T:-fallback}`)))
  assert.deepEqual(displayArgs(['--token', ref('GITHUB_TOKEN')]), ['--token', ref('GITHUB_TOKEN')])
})

test('URLs: userinfo and query values hidden, scheme, host, port and path visible', () => {
  assert.equal(
    displayUrl('https://user:pw@api.example.test:8443/v1/mcp?key=abc&mode=x'),
    'https://***:***@api.example.test:8443/v1/mcp?key=***&mode=***',
  )
  assert.deepEqual(
    urlSecrets('see https://u:p%40ss@h.test/x?token=zz').sort(),
    ['p%40ss', 'p@ss', 'u', 'u:p%40ss', 'u:p@ss', 'zz'].sort(),
  )
  assert.equal(displayUrl('http://127.0.0.1:3000/mcp'), 'http://127.0.0.1:3000/mcp')
})

test('mapUrlSecrets: each userinfo part and query value replaced by key; references, empty values, host and path kept', () => {
  const seen: [string, string | undefined][] = []
  const out = mapUrlSecrets(`x https://u:pw@h.test:1/p?key=abc&ref=${ref('R')}&e=&bare#frag=f y`, (v, k) => {
    seen.push([v, k])
    return `<${k ?? '-'}>`
  })
  assert.equal(out, `x https://<user>:<password>@h.test:1/p?key=<key>&ref=${ref('R')}&e=&<->#frag=<frag> y`)
  assert.deepEqual(seen, [
    ['u', 'user'],
    ['pw', 'password'],
    ['abc', 'key'],
    ['bare', undefined],
    ['f', 'frag'],
  ])
  assert.equal(
    mapUrlSecrets('http://127.0.0.1:3000/mcp and words', () => 'X'),
    'http://127.0.0.1:3000/mcp and words',
  )
})
