/** trust/team.ts + team-write.ts: the committed file read without following links, written atomically, judged with verified signatures. */
import assert from 'node:assert/strict'
import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { readTrustedSigners } from '../../src/config/signers.ts'
import { signedPayload } from '../../src/trust/signed.ts'
import { findSshKeygen, signPayload } from '../../src/trust/ssh.ts'
import { createTeamJudge, projectPathOf, readTeamTrust, teamTrustPath } from '../../src/trust/team.ts'
import { writeTeamTrust } from '../../src/trust/team-write.ts'
import { makeTempDir } from '../support/tmp.ts'
import { makeKey } from '../support/team.ts'

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const bin = findSshKeygen(env, [])

test('the project path is relative to the repository (nested projects differ), "." at its root or outside one', () => {
  const repo = makeTempDir('dsh-mcp-team-')
  repo.mkdir('.git')
  const nested = repo.mkdir('packages/a')
  assert.equal(projectPathOf(repo.path), '.')
  assert.equal(projectPathOf(nested), 'packages/a')
  const bare = makeTempDir('dsh-mcp-team-bare-')
  assert.equal(projectPathOf(bare.path), '.')
})

test('read: absent, a link refused, garbage refused as a whole; write refuses a link and writes 0644', () => {
  const root = makeTempDir('dsh-mcp-team-').path
  assert.equal(readTeamTrust(root).absent, true)
  writeTeamTrust(root, () => {})
  assert.equal(lstatSync(teamTrustPath(root)).mode & 0o777, 0o644)
  assert.equal(readTeamTrust(root).problem, undefined)
  const other = makeTempDir('dsh-mcp-team-')
  mkdirSync(path.join(other.path, '.dsh'))
  symlinkSync(teamTrustPath(root), teamTrustPath(other.path))
  assert.match(readTeamTrust(other.path).problem ?? '', /symbolic link/)
  assert.throws(() => writeTeamTrust(other.path, () => {}), /a link/)
  writeFileSync(teamTrustPath(root), 'nope')
  assert.match(readTeamTrust(root).problem ?? '', /not valid JSON/)
  assert.throws(() => writeTeamTrust(root, () => {}), /refusing to write/)
})

test('the judge verifies once and answers trusted only for the signed project, name and fingerprint', {
  skip: !bin,
}, async () => {
  const dir = makeTempDir('dsh-mcp-team-keys-')
  const alice = makeKey(dir, 'alice')
  const root = makeTempDir('dsh-mcp-team-').path
  const signedAt = '2026-01-01T00:00:00.000Z'
  const fp = 'sha256:f'
  const signature = signPayload(
    bin!,
    alice.file,
    signedPayload({ project: '.', name: 's', fingerprint: fp, signedAt }),
    env,
  )
  writeTeamTrust(root, (f) => {
    f.servers.s = {
      fingerprint: fp,
      signer: { label: 'x', key: readTrustedSigners({ a: alice.pub }).signers[0]! },
      signedAt,
      signature,
    }
    f.servers.t = f.servers.s
  })
  const { file } = readTeamTrust(root)
  const { signers } = readTrustedSigners({ alice: alice.pub })
  const judge = createTeamJudge(env, () => [])
  await judge.prepare(file, '.', signers)
  const ask = (name: string, project = '.') =>
    judge.answer({ record: file.servers[name], project, name, fingerprint: fp, signers, revoked: false })
  assert.deepEqual(ask('s'), { state: 'trusted', signer: 'alice' })
  assert.deepEqual(ask('t'), { state: 'bad' }, 'another name')
  assert.deepEqual(ask('s', 'packages/b'), { state: 'bad' }, 'another project')
  assert.deepEqual(
    createTeamJudge({ PATH: '/nonexistent' }, () => []).answer({
      record: file.servers.s,
      project: '.',
      name: 's',
      fingerprint: fp,
      signers,
      revoked: false,
    }),
    { state: 'no-verifier' },
  )
})
