/** plan/cause.ts and states.ts `causeText`: the official client's reconnect lines as one typed cause, said plainly. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { clientCause, plainClientLine } from '../../src/plan/cause.ts'
import { CAUSE_FIX, causeText } from '../../src/plan/states.ts'

test('the client’s retry and give-up lines are typed; other lines are not', () => {
  assert.deepEqual(clientCause('mcp-client(x): connection failed; retrying in 30000ms (attempt 7/10)'), {
    kind: 'retrying',
    lost: false,
    delayMs: 30000,
    attempt: 7,
    max: 10,
  })
  assert.deepEqual(clientCause('mcp-client(x): connection lost; reconnecting in 500ms (attempt 1/3)')?.kind, 'retrying')
  assert.deepEqual(
    clientCause(
      'mcp-client(x): giving up after 10 consecutive failed reconnect attempts — tools unregistered; reload the plugin or restart the Host to reconnect',
    ),
    { kind: 'gave-up', attempts: 10 },
  )
  assert.equal(clientCause('mcp-client(x): connection failed: MCP error -32000: Connection closed'), undefined)
})

test('one text per cause, bounded and with the fix; the client’s advice to restart is gone', () => {
  assert.equal(causeText({ kind: 'command-not-found', command: 'npx' }), `command not found: npx — ${CAUSE_FIX}`)
  assert.equal(
    plainClientLine('mcp-client(x): connection failed; retrying in 30000ms (attempt 7/10)'),
    `mcp-client(x): could not start or connect; retry 7 of 10 in 30 s (dsh-mcp logs shows why) — ${CAUSE_FIX}`,
  )
  const gaveUp = plainClientLine(
    'mcp-client(x): giving up after 10 consecutive failed reconnect attempts — tools unregistered; reload the plugin or restart the Host to reconnect',
  )
  assert.equal(gaveUp, `mcp-client(x): gave up after 10 failed attempts (dsh-mcp logs shows why) — ${CAUSE_FIX}`)
  assert.equal(plainClientLine('anything else'), undefined)
})
