/** The status-file format (src/status/format.ts) and its path (src/status/path.ts). */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sha256 } from '../../src/config/fingerprint.ts'
import { decodeStatus, encodeStatus, STATUS_VERSION, type WrittenStatus } from '../../src/status/format.ts'
import { statusFileOf, statusFilePath } from '../../src/status/path.ts'

describe('statusFilePath', () => {
  test('$DSH_HOME/mcp-status/<first 16 hex of sha256(root)>.<host pid>.json, one per host', () => {
    const hash = sha256('/abs/root').slice(0, 16)
    assert.equal(statusFilePath('/h', '/abs/root', 42), `/h/mcp-status/${hash}.42.json`)
    assert.equal(statusFilePath('/h', '/abs/root'), `/h/mcp-status/${hash}.${process.pid}.json`)
    assert.notEqual(statusFilePath('/h', '/a'), statusFilePath('/h', '/b'))
  })
  test('statusFileOf names the files of a root and their pid; the older name has none; nothing else matches', () => {
    const hash = sha256('/r').slice(0, 16)
    assert.deepEqual(statusFileOf(`${hash}.42.json`, '/r'), { pid: 42 })
    assert.deepEqual(statusFileOf(`${hash}.json`, '/r'), { pid: null })
    for (const n of [`${hash}.0.json`, `${hash}.x.json`, `${hash}.42.json.tmp`, `${sha256('/o').slice(0, 16)}.42.json`])
      assert.equal(statusFileOf(n, '/r'), undefined, n)
  })
})

describe('decodeStatus', () => {
  test('sanitizes field by field', () => {
    const raw = JSON.stringify({
      version: 1,
      root: '/r',
      pid: -1,
      updatedAt: 'not a date',
      servers: [
        { name: 'a', state: 'mounted', toolCount: 2.5, error: 7 },
        { state: 'mounted' },
        'junk',
        { name: 'b', state: 'idle', toolCount: 4, effectiveName: 'b_1', layer: 'user' },
      ],
    })
    const s = decodeStatus(raw, '/r')
    assert.ok(!('reason' in s))
    assert.equal(s.pid, null)
    assert.equal(s.updatedAt, null)
    assert.deepEqual(
      s.servers.map((x) => [x.name, x.state, x.toolCount, x.error, x.effectiveName, x.layer]),
      [
        ['a', 'mounted', 0, null, null, null],
        ['b', 'idle', 4, null, 'b_1', 'user'],
      ],
    )
  })

  test('refuses what it cannot trust', () => {
    assert.match((decodeStatus('nope', '/r') as { reason: string }).reason, /not valid JSON/)
    assert.match((decodeStatus('[]', '/r') as { reason: string }).reason, /not a status object/)
    assert.match((decodeStatus('{"version":3}', '/r') as { reason: string }).reason, /version 3/)
    assert.match((decodeStatus('{"version":1,"root":"/x"}', '/r') as { reason: string }).reason, /another project/)
  })
})

describe('encodeStatus', () => {
  test('what the writer encodes decodes to the same rows', () => {
    const written: WrittenStatus = {
      root: '/r',
      pid: process.pid,
      host: 'stopped',
      updatedAt: '2025-01-01T00:00:00.000Z',
      servers: [
        {
          name: 'a',
          effectiveName: 'a_1',
          layer: 'project',
          file: '/r/.dsh/mcp.yml',
          state: 'mounted',
          toolCount: 3,
          error: null,
          verdict: { tag: 'runs', why: null, reason: null },
          lifecycle: 'lazy',
          toolSource: 'cache',
          lastUsedAt: null,
          detail: 'tools-changed',
          updatedAt: '2025-01-01T00:00:00.000Z',
        },
      ],
      files: [{ file: '/r/.dsh/mcp.local.yml', layer: 'local', error: 'bad', keptLastGood: true }],
    }
    const text = encodeStatus(written)
    assert.ok(text.endsWith('\n'))
    assert.equal(JSON.parse(text).version, STATUS_VERSION)
    const back = decodeStatus(text, '/r')
    assert.ok(!('reason' in back))
    assert.deepEqual(back, { ...written, servers: [...written.servers], files: [...written.files] })
  })
})
