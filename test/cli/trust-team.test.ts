/**
 * `dsh-mcp trust --sign` and the CLI's reading of signed approvals: without
 * ssh-keygen signatures are ignored, saying so (list, list --json), and
 * signing refuses with the cause; a repository file's `trustedSigners` is a
 * warning on stderr.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { friendly } from '../support/runtime.ts'
import { makeKey, signAll, signerHome, signersFile } from '../support/team.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'

const keys = makeTempDir('dsh-mcp-cli-keys-')
const alice = makeKey(keys, 'alice@team')

test('trust --sign writes one record per server: fingerprint, signer key and label, time, an SSH signature', async () => {
  const p = makeProject({ '.dsh/mcp.yml': friendly({ s: { command: 'node', args: ['-e', '1'] } }) })
  const r = await signAll(p.path, alice, signerHome())
  assert.match(r.stderr, /signed: s into \.dsh\/mcp\.trust as alice@team/)
  const file = JSON.parse(readFileSync(path.join(p.path, '.dsh/mcp.trust'), 'utf8'))
  assert.deepEqual(Object.keys(file.servers.s), ['fingerprint', 'signer', 'signedAt', 'signature'])
  assert.equal(file.servers.s.signer.key, alice.pub.split(' ').slice(0, 2).join(' '))
  assert.match(file.servers.s.signature, /^-----BEGIN SSH SIGNATURE-----/)
})

test('without ssh-keygen on PATH signatures are ignored, saying so; signing refuses with the cause', async () => {
  const p = makeProject({ '.dsh/mcp.yml': friendly({ s: { command: 'node', args: ['-e', '1'] } }) })
  await signAll(p.path, alice, signerHome())
  const home = makeTempDir('dsh-mcp-cli-bob-')
  home.write('mcp.yml', signersFile({ alice }))
  const run = (args: string[], PATH: string) =>
    runCli([...args, '-C', p.path], { cwd: p.path, dshHome: home.path, home: home.path, env: { PATH } })
  const ok = await run(['list', '--json'], process.env.PATH ?? '/usr/bin:/bin')
  assert.deepEqual(JSON.parse(ok.stdout)[0].verdict.signature, { state: 'trusted', signer: 'alice' })
  const none = await run(['list', '--json'], '/nonexistent')
  const row = JSON.parse(none.stdout)[0]
  assert.equal(row.state, 'untrusted')
  assert.deepEqual(row.verdict.signature, { state: 'no-verifier' })
  assert.match(none.stderr, /signed approvals are ignored: ssh-keygen was not found on PATH/)
  assert.match((await run(['list'], '/nonexistent')).stdout, /signature ignored: ssh-keygen not found/)
  const sign = await run(['trust', 's', '--yes', '--sign', alice.file], '/nonexistent')
  assert.equal(sign.code, 1)
  assert.match(sign.stderr, /cannot sign: ssh-keygen was not found/)
})

test('a server your own local file merges into is not signed (teammates lack that file): refused before anything is trusted', async () => {
  const p = makeProject({
    '.dsh/mcp.yml': friendly({ s: { command: 'node', args: ['-e', '1'] } }),
    '.dsh/mcp.local.yml': 'servers:\n  s: {env: {X: "1"}}\n',
  })
  const home = signerHome()
  const r = await runCli(['trust', 's', '--yes', '--sign', alice.file, '-C', p.path], {
    cwd: p.path,
    dshHome: home.path,
    home: home.path,
  })
  assert.equal(r.code, 1)
  assert.match(r.stderr, /cannot sign s: your own local or user file merges into it/)
  assert.doesNotMatch(r.stderr, /trusted: s/)
})
