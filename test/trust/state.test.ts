// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/** The trust gate's pure decisions: states, which scopes need trust, the env switch, store sanitizing. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { trustFingerprint } from '../../src/config/fingerprint.ts'
import type { Entry } from '../../src/config/schema.ts'
import {
  emptyTrustStore,
  needsTrust,
  sanitizeTrustStore,
  type TrustStore,
  trustGateOff,
  trustStateOf,
} from '../../src/trust/state.ts'

const store: TrustStore = {
  version: 1,
  projects: { '/repo': { servers: { a: { fingerprint: 'sha256:aaa', trustedAt: '2025-01-01T00:00:00.000Z' } } } },
}

test('trustStateOf: trusted, changed, untrusted — per root and per name', () => {
  assert.equal(trustStateOf(store, '/repo', 'a', 'sha256:aaa'), 'trusted')
  assert.equal(trustStateOf(store, '/repo', 'a', 'sha256:bbb'), 'changed')
  assert.equal(trustStateOf(store, '/repo', 'b', 'sha256:aaa'), 'untrusted')
  assert.equal(trustStateOf(store, '/other', 'a', 'sha256:aaa'), 'untrusted')
  assert.equal(trustStateOf(store, '/repo/', 'a', 'sha256:aaa'), 'untrusted')
  assert.equal(trustStateOf(emptyTrustStore(), '/repo', 'a', 'sha256:aaa'), 'untrusted')
  // Names that are Object.prototype members are not records.
  assert.equal(trustStateOf(store, '/repo', 'constructor', 'sha256:aaa'), 'untrusted')
  assert.equal(trustStateOf(store, 'toString', 'a', 'sha256:aaa'), 'untrusted')
})

test('needsTrust: every project-layer scope, never the user layer alone, and a user row with a repository override', () => {
  assert.deepEqual(
    (['local', 'project', 'legacy', 'user'] as const).map((scope) => needsTrust({ scope, file: '/f' })),
    [true, true, true, false],
  )
  const merged = {
    scope: 'user' as const,
    file: '/h/mcp.yml',
    sources: [
      { scope: 'user' as const, file: '/h/mcp.yml' },
      { scope: 'local' as const, file: '/p/.dsh/mcp.local.yml' },
    ],
  }
  assert.equal(needsTrust(merged), true)
})

test('trustGateOff: DSH_MCP_TRUST_ALL=1 or true', () => {
  assert.equal(trustGateOff({}), false)
  assert.equal(trustGateOff({ DSH_MCP_TRUST_ALL: '1' }), true)
  assert.equal(trustGateOff({ DSH_MCP_TRUST_ALL: 'true' }), true)
  assert.equal(trustGateOff({ DSH_MCP_TRUST_ALL: '0' }), false)
  assert.equal(trustGateOff({ DSH_MCP_TRUST_ALL: '' }), false)
  assert.equal(trustGateOff({ DSH_MCP_TRUST_ALL: 'yes please' }), false)
})

test('sanitizeTrustStore keeps only well-formed records', () => {
  assert.deepEqual(sanitizeTrustStore(null), emptyTrustStore())
  assert.deepEqual(sanitizeTrustStore({ version: 2, projects: store.projects }), emptyTrustStore())
  assert.deepEqual(sanitizeTrustStore([]), emptyTrustStore())
  const mixed = sanitizeTrustStore({
    version: 1,
    projects: {
      '/repo': {
        servers: {
          a: { fingerprint: 'sha256:aaa', trustedAt: 'x' },
          b: { fingerprint: 7 },
          c: 'sha256:c',
          d: { fingerprint: '' },
        },
      },
      '/bad': { servers: [] },
      '/worse': 'x',
    },
  })
  assert.deepEqual(Object.keys(mixed.projects), ['/repo'])
  assert.deepEqual(Object.keys(mixed.projects['/repo']!.servers), ['a'])
  const proto = sanitizeTrustStore(
    JSON.parse('{"version":1,"projects":{"/r":{"servers":{"__proto__":{"fingerprint":"f","trustedAt":""}}}}}'),
  )
  assert.equal(trustStateOf(proto, '/r', '__proto__', 'f'), 'trusted')
  assert.equal(trustStateOf(proto, '/r', 'x', 'f'), 'untrusted')
})

test('the fingerprint follows what runs and the text the model reads, not how it is tuned', () => {
  const base: Entry = { command: 'node', args: ['s.js'], env: { A: '${A}' } }
  const fp = trustFingerprint(base)
  for (const tuned of [
    { toolCallTimeoutMs: 5 },
    { tools: { exclude: ['x'] } },
    { enabled: false },
    { reconnect: { maxAttempts: 2 } },
  ] as Entry[]) {
    assert.equal(trustFingerprint({ ...base, ...tuned }), fp, JSON.stringify(tuned))
  }
  for (const changed of [
    { args: ['evil.js'] },
    { command: 'sh' },
    { cwd: 'x' },
    { env: { A: 'literal' } },
    { env: { A: '${A}', B: '1' } },
    { description: 'x' },
  ] as Entry[]) {
    assert.notEqual(trustFingerprint({ ...base, ...changed }), fp, JSON.stringify(changed))
  }
})
