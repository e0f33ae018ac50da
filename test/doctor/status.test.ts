/** Status file decoding and the small pure helpers of `dsh-mcp status`. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ageText, parseProjectStatus, pidAlive } from '../../src/doctor/status.ts'
import { statusFilePath } from '../../src/host/status-path.ts'
import { sha256 } from '../../src/config/fingerprint.ts'

describe('statusFilePath', () => {
  test('$DSH_HOME/mcp-status/<first 16 hex of sha256(root)>.json', () => {
    assert.equal(statusFilePath('/h', '/abs/root'), `/h/mcp-status/${sha256('/abs/root').slice(0, 16)}.json`)
    assert.notEqual(statusFilePath('/h', '/a'), statusFilePath('/h', '/b'))
  })
})

describe('parseProjectStatus', () => {
  test('sanitizes field by field', () => {
    const raw = JSON.stringify({
      version: 1,
      root: '/r',
      pid: -1,
      updatedAt: 'not a date',
      servers: [{ name: 'a', state: 'mounted', toolCount: 2.5, error: 7 }, { state: 'mounted' }, 'junk', { name: 'b', state: 'idle', toolCount: 4, effectiveName: 'b_1', layer: 'user' }],
    })
    const s = parseProjectStatus(raw, '/r')
    assert.ok(!('reason' in s))
    assert.equal(s.pid, null)
    assert.equal(s.updatedAt, null)
    assert.deepEqual(s.servers.map((x) => [x.name, x.state, x.toolCount, x.error, x.effectiveName, x.layer]), [
      ['a', 'mounted', 0, null, null, null],
      ['b', 'idle', 4, null, 'b_1', 'user'],
    ])
  })

  test('refuses what it cannot trust', () => {
    assert.match((parseProjectStatus('nope', '/r') as { reason: string }).reason, /not valid JSON/)
    assert.match((parseProjectStatus('[]', '/r') as { reason: string }).reason, /not a status object/)
    assert.match((parseProjectStatus('{"version":3}', '/r') as { reason: string }).reason, /version 3/)
    assert.match((parseProjectStatus('{"version":1,"root":"/x"}', '/r') as { reason: string }).reason, /another project/)
  })
})

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
