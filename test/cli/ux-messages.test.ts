/**
 * Messages say each thing once and only what applies: `validate` reports
 * every problem of an entry (not the first class of them), a message never
 * repeats its field (`type: "type: http" …`), and commander's invalid-choice
 * errors do not carry the unrelated "put server args after --" hint (which
 * stays for an unknown option of `add`, where it is the likely cause).
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { cleanupAll } from '../support/tmp.ts'

import { makeEnv } from '../support/cli-env.ts'
after(cleanupAll)

test('validate reports every problem of an entry, each once', async () => {
  const env = makeEnv({
    '.dsh/mcp.yml': [
      'servers:',
      '  a:',
      '    type: http',
      '    command: node',
      '    toolCallTimeoutMs: -5',
      '    reconnect: {maxAttempts: 0}',
      '  b:',
      '    command: node',
      '    url: http://x.test/mcp',
      '    transport: ws',
      '',
    ].join('\n'),
  })
  const r = await env.run(['validate'])
  assert.equal(r.code, 1)
  const lines = r.stderr.trim().split('\n')
  for (const want of [
    /servers\.a\.toolCallTimeoutMs: must be at least 1/,
    /servers\.a\.reconnect\.maxAttempts: must be at least 1/,
    /servers\.a\.type: needs "url" for the http transport/,
    /servers\.b\.url: has both "command" and "url"/,
    /servers\.b\.transport: unknown transport "ws"/,
  ]) {
    assert.equal(lines.filter((l) => want.test(l)).length, 1, `${want} once in:\n${r.stderr}`)
  }
  assert.doesNotMatch(r.stderr, /type: "type:/)
})

for (const args of [
  ['add', 'x', '-t', 'ws', 'http://a.test/mcp'],
  ['add', 'x', '-s', 'bogus', 'node'],
  ['add-json', 'x', '{}', '-s', 'nowhere'],
]) {
  test(`${args.join(' ')}: the choice error alone, exit 2`, async () => {
    const r = await makeEnv().run(args)
    assert.equal(r.code, 2)
    assert.match(r.stderr, /is invalid\. Allowed choices are/)
    assert.doesNotMatch(r.stderr, /go after "--"/)
  })
}

test('an unknown option of add still gets the "--" hint', async () => {
  const r = await makeEnv().run(['add', 'x', 'npx', '-y', 'pkg'])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /go after "--"/)
})
