/**
 * plan/verdict.ts with `requireLock`: a repository row that runs a registry package through a package runner
 * without a lock pin is `refused` `not-locked` with fix `dsh-mcp lock <name>` (unlocked, `lock: false`, an
 * unsupported runner); a pinned row, a plain command, a user row and any row without the option are unchanged.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type LayerInput, mergeLayers, type Row } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { verdictOf, verdictView } from '../../src/plan/verdict.ts'

function rowOf(scope: 'project' | 'user', server: Record<string, unknown>): Row {
  const file = scope === 'user' ? '/h/mcp.yml' : '/p/.dsh/mcp.yml'
  const input: LayerInput = {
    layer: { scope, format: 'friendly', file, rank: scope === 'user' ? 4 : 1 },
    parsed: parseConfigText(JSON.stringify({ servers: { fix: server } }), { file, format: 'friendly' }),
  }
  return mergeLayers([input])[0]!
}
const judge = (row: Row, requireLock = true) =>
  verdictOf(row, { root: '/p', env: {}, dshHome: '/h', platform: 'linux', trust: () => 'trusted', requireLock })
const npx = { command: 'npx', args: ['-y', 'pkg'] }
const pin = { package: 'pkg', version: '1.0.0', integrity: 'sha512-AA==', packages: {} }

test('requireLock refuses an unlocked runner row with the lock command; the view carries why and fix', () => {
  const v = judge(rowOf('project', npx))
  assert.equal(v.tag, 'refused')
  const view = verdictView(v)
  assert.equal(view.why, 'not-locked')
  assert.equal(view.fix, 'dsh-mcp lock fix')
  assert.match(view.reason ?? '', /no entry for it in \.dsh\/mcp\.lock\); run: dsh-mcp lock fix$/)
  assert.match(verdictView(judge(rowOf('project', { ...npx, lock: false }))).reason ?? '', /written lock: false/)
  assert.match(
    verdictView(judge(rowOf('project', { command: 'bunx', args: ['pkg'] }))).reason ?? '',
    /bunx is not supported by the lock yet/,
  )
})

test('requireLock leaves a pinned row, a plain command, a user row alone; off by default', () => {
  assert.equal(judge({ ...rowOf('project', npx), lock: pin }).tag, 'runs')
  assert.equal(judge(rowOf('project', { command: 'node', args: ['s.js'] })).tag, 'runs')
  assert.equal(judge(rowOf('user', npx)).tag, 'runs')
  assert.equal(judge(rowOf('project', npx), false).tag, 'runs')
})
