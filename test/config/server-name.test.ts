/** The server-name rule, written once: the pattern, the refusal and its words. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  SERVER_NAME_MAX,
  SERVER_NAME_PATTERN,
  SERVER_NAME_RULE,
  serverNameRefusal,
} from '../../src/config/server-name.ts'

test('allowed: letters, digits, _ and -, 1 to 32 characters', () => {
  for (const n of ['a', 'github', 'my_server-2', 'A'.repeat(SERVER_NAME_MAX)]) {
    assert.equal(serverNameRefusal(n), undefined, n)
    assert.ok(SERVER_NAME_PATTERN.test(n))
  }
})

test('refused with the reason and the rule; a long name is cut in the message', () => {
  assert.match(serverNameRefusal('')!, /it is empty/)
  assert.match(serverNameRefusal('a'.repeat(33))!, /it has 33 characters/)
  assert.match(serverNameRefusal('a b')!, /it has other characters/)
  assert.match(serverNameRefusal('a.b')!, /other characters/)
  for (const n of ['', 'a b', 'x'.repeat(50)]) assert.ok(serverNameRefusal(n)!.endsWith(SERVER_NAME_RULE))
  const long = serverNameRefusal(`${'x'.repeat(60)}!`)!
  assert.ok(long.includes(`"${'x'.repeat(40)}…"`), 'cut at 40 characters')
  assert.ok(!long.includes('x'.repeat(41)))
})
