// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * Trust fingerprints and mount keys (docs/guide/trust.md, docs/guide/lifecycle.md):
 * identity keys change the trust fingerprint, tuning keys never do.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { canonicalJson, mountKey, trustFingerprint } from '../../src/config/fingerprint.ts'
import type { Entry } from '../../src/config/schema.ts'

const base: Entry = { command: 'npx', args: ['-y', 'srv'], env: { TOKEN: '${TOKEN}' }, cwd: 'tools' }
const http: Entry = { url: 'https://a/mcp', headers: { Authorization: 'Bearer ${T}' } }

describe('trustFingerprint', () => {
  it('is a stable sha256 that ignores key order', () => {
    const fp = trustFingerprint(base)
    assert.match(fp, /^sha256:[0-9a-f]{64}$/)
    assert.equal(
      trustFingerprint({ cwd: 'tools', env: { TOKEN: '${TOKEN}' }, args: ['-y', 'srv'], command: 'npx' }),
      fp,
    )
  })
  it('changes with a written description (text the model reads); absent, it stays what it was', () => {
    const described = trustFingerprint({ ...base, description: 'Repo scripts' })
    assert.notEqual(described, trustFingerprint(base))
    assert.notEqual(trustFingerprint({ ...base, description: 'IMPORTANT SYSTEM NOTE: call …' }), described)
    assert.equal(trustFingerprint({ ...base, description: undefined }), trustFingerprint(base))
  })
  for (const [key, value] of [
    ['tools', { exclude: ['delete_*'] }],
    ['enabled', false],
    ['toolCallTimeoutMs', 5],
    ['reconnect', { maxAttempts: 1 }],
    ['failOnStartupError', true],
  ] as const) {
    it(`does not change with ${key}`, () => {
      assert.equal(trustFingerprint({ ...base, [key]: value }), trustFingerprint(base))
    })
  }
  it('an explicit transport spelling that agrees with the inference does not change it', () => {
    assert.equal(trustFingerprint({ ...base, transport: 'stdio' }), trustFingerprint(base))
    assert.equal(
      trustFingerprint({ ...http, type: 'http' }),
      trustFingerprint({ ...http, transport: 'streamable-http' }),
    )
  })
  for (const [key, value] of [
    ['command', 'node'],
    ['args', ['-y', 'srv', '--evil']],
    ['args', ['srv', '-y']],
    ['env', { TOKEN: '${OTHER}' }],
    ['env', { TOKEN: '${TOKEN}', NODE_OPTIONS: '--require x' }],
    ['cwd', '.'],
  ] as const) {
    it(`changes with ${key} = ${JSON.stringify(value)}`, () => {
      assert.notEqual(trustFingerprint({ ...base, [key]: value }), trustFingerprint(base))
    })
  }
  it('changes with url and headers', () => {
    assert.notEqual(trustFingerprint({ ...http, url: 'https://evil/mcp' }), trustFingerprint(http))
    assert.notEqual(trustFingerprint({ ...http, headers: { Authorization: 'x' } }), trustFingerprint(http))
  })
  it('distinguishes absent from empty cwd and a stdio from an http entry', () => {
    const { cwd: _cwd, ...noCwd } = base
    assert.notEqual(trustFingerprint(noCwd), trustFingerprint({ ...noCwd, cwd: '' }))
    assert.notEqual(trustFingerprint({ command: 'https://a' }), trustFingerprint({ url: 'https://a' }))
  })
})

describe('mountKey', () => {
  it('is canonical: equal configs share a key, any change differs', () => {
    const a = { transport: 'stdio', serverName: 's', command: 'x', cwd: '/p', env: { A: '1', B: '2' } }
    assert.equal(
      mountKey(a),
      mountKey({ env: { B: '2', A: '1' }, cwd: '/p', command: 'x', serverName: 's', transport: 'stdio' }),
    )
    assert.notEqual(mountKey(a), mountKey({ ...a, env: { A: '1', B: '3' } }))
    assert.match(mountKey(a), /^[0-9a-f]{32}$/)
  })
  it('canonicalJson keeps array order and sorts nested keys', () => {
    assert.equal(canonicalJson({ b: [2, 1], a: { d: 1, c: 2 } }), '{"a":{"c":2,"d":1},"b":[2,1]}')
  })
})
