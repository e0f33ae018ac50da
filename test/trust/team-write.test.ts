/** trust/team-write.ts: other servers' records are kept; the file is stable JSON. */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { readTrustedSigners } from '../../src/config/signers.ts'
import { teamTrustPath } from '../../src/trust/team.ts'
import { writeTeamTrust } from '../../src/trust/team-write.ts'
import { makeTempDir } from '../support/tmp.ts'

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEn9XqkvQ+jCz/as30WAXLijD6Wi9HpDIzqTVgGv3KUl'
const SIG = '-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n'

test('a write replaces only the records it sets, in sorted order', () => {
  const root = makeTempDir('dsh-mcp-teamw-').path
  const key = readTrustedSigners({ a: KEY }).signers[0]!
  const rec = (fingerprint: string) => ({ fingerprint, signer: { label: 'a', key }, signedAt: 'T', signature: SIG })
  writeTeamTrust(root, (f) => {
    f.servers.z = rec('sha256:z')
  })
  writeTeamTrust(root, (f) => {
    f.servers.a = rec('sha256:a')
  })
  const text = readFileSync(teamTrustPath(root), 'utf8')
  const parsed = JSON.parse(text) as { servers: Record<string, { fingerprint: string }> }
  assert.deepEqual(Object.keys(parsed.servers), ['a', 'z'])
  assert.equal(parsed.servers.z?.fingerprint, 'sha256:z')
})
