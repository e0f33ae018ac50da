/**
 * An entry's value rules, as a unit: NUL, `=` in env names and line breaks in headers refused by field (never
 * quoting the value); the repository cap clamps with a warning; the reconnect delays' order with defaults applied.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { capRepositoryValues, checkReconnect, unsafeValueProblems } from '../../src/config/entry-values.ts'
import type { Problem } from '../../src/config/entry.ts'
import { REPOSITORY_STARTUP_CAP_MS } from '../../src/config/fields.ts'
import type { Entry } from '../../src/config/schema.ts'

test('unsafe values: each refusal names its field and never the value; ordinary values pass', () => {
  const entry = {
    command: 'x\u0000sneaky',
    env: { 'A=B': 'v', OK: 'fine' },
    headers: { 'Bad Name': 'v', 'X-Ok': 'a\r\nInjected: sneaky' },
  } as Entry
  const problems = unsafeValueProblems(entry)
  assert.deepEqual(
    problems.map((p) => p.path),
    [['command'], ['env', 'A=B'], ['headers', 'Bad Name'], ['headers', 'X-Ok']],
  )
  for (const p of problems) {
    assert.equal(p.code, 'bad-value')
    assert.ok(!p.message.includes('sneaky'), p.message)
  }
  assert.deepEqual(unsafeValueProblems({ command: 'node', args: ['a'], env: { A: 'b' } } as Entry), [])
})

test('repository cap: a value above it is clamped with a warning, a value at it is kept', () => {
  const above = { command: 'x', startupTimeoutMs: REPOSITORY_STARTUP_CAP_MS + 1 } as Entry
  const problems: Problem[] = []
  capRepositoryValues(above, problems)
  assert.equal(above.startupTimeoutMs, REPOSITORY_STARTUP_CAP_MS)
  assert.deepEqual(
    problems.map((p) => [p.severity, p.path]),
    [['warning', ['startupTimeoutMs']]],
  )
  const at = { command: 'x', startupTimeoutMs: REPOSITORY_STARTUP_CAP_MS } as Entry
  const none: Problem[] = []
  capRepositoryValues(at, none)
  assert.equal(at.startupTimeoutMs, REPOSITORY_STARTUP_CAP_MS)
  assert.deepEqual(none, [])
})

test('reconnect: the first delay may not exceed the ceiling, defaults included', () => {
  const run = (reconnect: Entry['reconnect']) => {
    const problems: Problem[] = []
    checkReconnect({ command: 'x', reconnect } as Entry, problems)
    return problems.map((p) => p.path)
  }
  assert.deepEqual(run({ initialDelayMs: 60_000 }), [['reconnect', 'initialDelayMs']])
  assert.deepEqual(run({ maxDelayMs: 100 }), [['reconnect', 'maxDelayMs']])
  assert.deepEqual(run({ initialDelayMs: 10, maxDelayMs: 10 }), [])
  assert.deepEqual(run(undefined), [])
})
