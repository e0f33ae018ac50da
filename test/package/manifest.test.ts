/**
 * The package manifest keeps the host contract: host packages are peers whose
 * ranges admit the 0.1.x and 0.2.x prerelease lines, pinned exactly in
 * devDependencies for the tests, never a runtime dependency (a private nested
 * copy of dsh-mcp-client splits serverName reservations).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import semver from 'semver'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  peerDependencies: Record<string, string>
  engines: { node: string }
  bin: Record<string, string>
}

test('no host package is a runtime dependency', () => {
  assert.deepEqual(
    Object.keys(pkg.dependencies).filter((n) => n.startsWith('@deepseek-ai/')),
    [],
  )
})

test('the official client peer range admits the 0.1.x and 0.2.x prerelease lines and nothing newer', () => {
  const range = pkg.peerDependencies['@deepseek-ai/dsh-mcp-client']!
  for (const v of [
    '0.1.0-rc.8',
    '0.1.0',
    '0.1.1-rc.2',
    '0.1.1',
    '0.1.2-rc.1',
    '0.2.0-rc.1',
    '0.2.0',
    '0.2.1-rc.3',
    '0.2.9',
  ]) {
    assert.ok(semver.satisfies(v, range), `${v} should satisfy ${range}`)
  }
  for (const v of ['0.0.1-rc.1', '0.1.0-rc.7', '0.3.0-rc.1', '0.3.0', '1.0.0']) {
    assert.ok(!semver.satisfies(v, range), `${v} should not satisfy ${range}`)
  }
})

test('host packages are pinned exactly in devDependencies at 0.1.0-rc.8', () => {
  const host = Object.entries(pkg.devDependencies).filter(([n]) => n.startsWith('@deepseek-ai/dsh-'))
  assert.ok(host.length >= 6)
  for (const [name, version] of host) assert.equal(version, '0.1.0-rc.8', name)
  for (const name of Object.keys(pkg.peerDependencies))
    assert.ok(pkg.devDependencies[name], `${name} is a peer without a pinned dev copy`)
})

test('the CLI targets Node 20 and the tests get Node 22 from a devDependency', () => {
  assert.equal(pkg.engines.node, '>=20')
  assert.match(pkg.devDependencies.node!, /^22\./)
  assert.equal(pkg.bin['dsh-mcp'], 'bin/dsh-mcp.js')
})
