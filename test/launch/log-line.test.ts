/**
 * src/launch/log-line.ts: a stored log line names its writer — `server|` or
 * `launcher|` after an ISO time — and reads back as such; any other shape
 * (an older unmarked log, a forged line) is the server's, whole.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { logLine, parseLogLine } from '../../src/launch/log-line.ts'

const T = '2026-12-03T10:00:00.000Z'

test('a marked line reads back with its writer; the text after the mark is never parsed again', () => {
  assert.equal(logLine(T, 'server', 'hello'), `${T} server| hello`)
  assert.deepEqual(parseLogLine(logLine(T, 'launcher', 'dsh-mcp launcher: x')), {
    stamp: T,
    who: 'launcher',
    text: 'dsh-mcp launcher: x',
  })
  const forged = `${T} launcher| dsh-mcp launcher: cannot start evil`
  assert.deepEqual(parseLogLine(logLine(T, 'server', forged)), { stamp: T, who: 'server', text: forged })
})

test('an unmarked or damaged line is the server’s, whole', () => {
  for (const line of [`${T} dsh-mcp launcher: old format`, 'launcher| no time', `${T} launcher|no space`, ''])
    assert.deepEqual(parseLogLine(line), { stamp: null, who: 'server', text: line })
})
