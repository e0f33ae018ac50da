/** The small pure helpers of `dsh-mcp status` (src/doctor/status.ts). */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ageText, pidAlive } from '../../src/doctor/status.ts'

describe('ageText', () => {
  const now = Date.parse('2025-01-01T12:00:00Z')
  const at = (ms: number) => new Date(now - ms).toISOString()
  test('reads like a person would say it', () => {
    assert.equal(ageText(at(200), now), 'just now')
    assert.equal(ageText(at(-60_000), now), 'just now')
    assert.equal(ageText(at(3_000), now), '3 s ago')
    assert.equal(ageText(at(5 * 60_000), now), '5 min ago')
    assert.equal(ageText(at(3 * 3600_000), now), '3 h ago')
    assert.equal(ageText(at(4 * 86400_000), now), '4 d ago')
    assert.equal(ageText(null, now), 'at an unknown time')
  })
})

describe('pidAlive', () => {
  test('this process is alive; no pid, 0 and negatives never signal a group', () => {
    assert.equal(pidAlive(process.pid), true)
    assert.equal(pidAlive(null), false)
    assert.equal(pidAlive(0), false)
    assert.equal(pidAlive(-1), false)
  })
})
