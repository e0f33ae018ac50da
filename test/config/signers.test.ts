/** config/signers.ts: the user's `trustedSigners`, read; repository files never add one (read-document.ts). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseConfigText } from '../../src/config/parse.ts'
import { allowedSignersText, parsePublicKey, readTrustedSigners, sameKey } from '../../src/config/signers.ts'

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEn9XqkvQ+jCz/as30WAXLijD6Wi9HpDIzqTVgGv3KUl'

test('a key line reads as type and body; the comment never counts', () => {
  const a = parsePublicKey(`${KEY} alice@team`)
  const b = parsePublicKey(KEY)
  assert.ok(a && b && sameKey(a, b))
  assert.equal(parsePublicKey('ssh-dss AAAAB3NzaC1kc3MAAACBAP'), undefined)
  assert.equal(parsePublicKey('not a key'), undefined)
  assert.equal(parsePublicKey(`${KEY}\nssh-ed25519 AAAA`), undefined)
})

test('labels become principals: pattern characters, spaces and commas are refused with the field path', () => {
  const r = readTrustedSigners({ alice: KEY, 'a*b': KEY, 'x,y': KEY, bob: 'nope' })
  assert.deepEqual(
    r.signers.map((s) => s.label),
    ['alice'],
  )
  assert.deepEqual(
    r.problems.map((p) => p.path.join('.')),
    ['trustedSigners.a*b', 'trustedSigners.x,y', 'trustedSigners.bob'],
  )
  assert.equal(readTrustedSigners(['x']).problems.length, 1)
})

test('the allowed-signers file restricts each signer to the dsh-mcp namespace', () => {
  const { signers } = readTrustedSigners({ alice: `${KEY} c` })
  assert.equal(allowedSignersText(signers), `alice namespaces="dsh-mcp" ${KEY}\n`)
})

test('only the user file reads trustedSigners; a project or local file gets a warning and adds none', () => {
  const text = `trustedSigners:\n  mallory: "${KEY}"\nservers: {}\n`
  const user = parseConfigText(text, { file: '/h/mcp.yml', format: 'friendly', userFile: true })
  assert.deepEqual(
    user.trustedSigners?.map((s) => s.label),
    ['mallory'],
  )
  for (const file of ['/p/.dsh/mcp.yml', '/p/.dsh/mcp.local.yml']) {
    const repo = parseConfigText(text, { file, format: 'friendly', allowPartial: true })
    assert.equal(repo.trustedSigners, undefined)
    const d = repo.diagnostics.find((x) => x.code === 'user-only')
    assert.ok(d, 'warned')
    assert.equal(d.severity, 'warning')
    assert.equal(d.line, 1)
    assert.match(d.message, /can never add a signer/)
  }
})

test('a user file with signers only does not warn about a missing servers key', () => {
  const p = parseConfigText(`trustedSigners:\n  alice: "${KEY}"\n`, {
    file: '/h/mcp.yml',
    format: 'friendly',
    userFile: true,
  })
  assert.deepEqual(p.diagnostics, [])
})
