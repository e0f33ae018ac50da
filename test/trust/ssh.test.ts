/** trust/ssh.ts: real ssh-keygen signs and verifies; a changed payload, another namespace or key fails. */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { test } from 'node:test'
import { readTrustedSigners } from '../../src/config/signers.ts'
import { findSshKeygen, publicKeyOf, signPayload, verifyAll, verifyAllSync } from '../../src/trust/ssh.ts'
import { makeTempDir } from '../support/tmp.ts'
import { makeKey } from '../support/team.ts'

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const bin = findSshKeygen(env, [])

test('ssh-keygen is found on absolute PATH entries only', () => {
  assert.equal(findSshKeygen({ PATH: 'relative/bin' }, []), undefined)
  assert.equal(findSshKeygen({ PATH: '/nonexistent' }, []), undefined)
})

test('sign, then verify with an allowed-signers file from trustedSigners (sync and async); tampering fails', {
  skip: !bin,
}, async () => {
  const dir = makeTempDir('dsh-mcp-ssh-')
  const alice = makeKey(dir, 'alice')
  const mallory = makeKey(dir, 'mallory')
  const pub = publicKeyOf(bin!, alice.file, env)
  assert.equal(pub.comment, 'alice')
  const payload = 'dsh-mcp signed approval v1\nproject: .\nserver: s\n'
  const signature = signPayload(bin!, alice.file, payload, env)
  assert.match(signature, /^-----BEGIN SSH SIGNATURE-----/)
  const { signers } = readTrustedSigners({ alice: alice.pub, mallory: mallory.pub })
  const [a, m] = signers as [(typeof signers)[0], (typeof signers)[0]]
  const wrongNs = execFileSync(bin!, ['-Y', 'sign', '-n', 'file', '-q', '-f', alice.file], {
    input: payload,
    encoding: 'utf8',
  })
  const reqs = [
    { signer: a, payload, signature },
    { signer: a, payload: payload.replace('s\n', 't\n'), signature },
    { signer: m, payload, signature },
    { signer: a, payload, signature: wrongNs },
  ]
  const before = readdirSync(tmpdir()).filter((f) => f.startsWith('dsh-mcp-verify-')).length
  assert.deepEqual(verifyAllSync(bin!, reqs, env), [true, false, false, false])
  assert.deepEqual(await verifyAll(bin!, reqs, env), [true, false, false, false])
  const after = readdirSync(tmpdir()).filter((f) => f.startsWith('dsh-mcp-verify-')).length
  assert.equal(after, before, 'the private temp dir is removed')
  dir.cleanup()
})
