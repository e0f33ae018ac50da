/**
 * Issue 27 items 5–7: signed team approvals on the real host, with real
 * `ssh-keygen`-made keys. A teammate who lists the signer runs the signed
 * servers with no personal review; every attack — an edit after signing, a
 * re-sign with the attacker's own key, the attacker's key added to a
 * committed file, an old signature replayed for a changed row, a signature
 * replayed onto another server name or another project of the repository,
 * `.dsh/mcp.trust` swapped for a link — runs nothing (marker files stay
 * empty). Revocation (the signer removed from the user file, or
 * `dsh-mcp untrust`) stops a running server live.
 */
import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { readMarker } from '../support/procs.ts'
import { markerRig } from '../support/markers.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeTempDir } from '../support/tmp.ts'
import { makeKey, signAll, signerHome, signersFile } from '../support/team.ts'
import { assertHeldBack, cli, serverOf, untilTools, warnings } from '../support/trust.ts'

const { entry, marker } = markerRig('team')
const keys = makeTempDir('dsh-mcp-keys-')
const alice = makeKey(keys, 'alice@team')
const mallory = makeKey(keys, 'mallory')

/** A git repository (a `.git` dir marks it) with `servers` in `<rel>/.dsh/mcp.yml`; returns the project dir. */
function repoWith(servers: Record<string, unknown>, rel = '.'): { repo: string; project: string } {
  const repo = makeTempDir('dsh-mcp-teamrepo-')
  repo.mkdir('.git')
  const project = path.join(repo.path, rel)
  mkdirSync(path.join(project, '.dsh'), { recursive: true })
  writeFileSync(path.join(project, '.dsh/mcp.yml'), friendly(servers))
  return { repo: repo.path, project }
}

const trustFile = (project: string) => path.join(project, '.dsh/mcp.trust')

test('a teammate who lists the signer runs the signed servers with no prompt; list and status say signed by alice (trusted)', async (t) => {
  const m = marker('ok')
  const { project } = repoWith({ s: entry('s', m) })
  await signAll(project, alice, signerHome())
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  const agent = (await w.host.createAgent({ cwd: project })).agent
  await untilTools(w, agent, ['mcp__s__t'], 'signed by a listed signer, it runs')
  assert.equal(readMarker(m).length, 1)
  assert.deepEqual(warnings(w, '"s"'), [], 'no trust warning for a signed row')
  const list = await cli(w, project, ['list', '--json'])
  const row = (JSON.parse(list.stdout) as { name: string; verdict: { signature?: unknown } }[])[0]!
  assert.deepEqual(row.verdict.signature, { state: 'trusted', signer: 'alice' })
  assert.match((await cli(w, project, ['list'])).stdout, /signed by alice \(trusted\)/)
  assert.match((await cli(w, project, ['status'])).stdout, /signed by alice \(trusted\)/)
})

test('an edit of .dsh/mcp.yml after signing runs nothing: signed for an older version', async (t) => {
  const m = marker('edited')
  const { project } = repoWith({ s: entry('s', marker('orig')) })
  await signAll(project, alice, signerHome())
  writeFileSync(path.join(project, '.dsh/mcp.yml'), friendly({ s: entry('s', m) }))
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  await assertHeldBack(w, project, 's', m)
  assert.match((await cli(w, project, ['list'])).stdout, /signed for an older version/)
})

test("an attacker's re-sign with their own key runs nothing: signed by an unknown key", async (t) => {
  const m = marker('resigned')
  const { project } = repoWith({ s: entry('s', marker('orig')) })
  await signAll(project, alice, signerHome())
  writeFileSync(path.join(project, '.dsh/mcp.yml'), friendly({ s: entry('s', m) }))
  await signAll(project, mallory, signerHome())
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  await assertHeldBack(w, project, 's', m)
  assert.match((await cli(w, project, ['list'])).stdout, /signed by an unknown key/)
  assert.ok(warnings(w, 'signed by an unknown key').length > 0, 'the host names the signature in its warning')
})

test("an attacker's key added to a committed (or local) file adds no signer: warned, nothing runs", async (t) => {
  const m = marker('committed-key')
  const { project } = repoWith({})
  writeFileSync(
    path.join(project, '.dsh/mcp.yml'),
    `${signersFile({ mallory })}servers: ${JSON.stringify({ s: entry('s', m) })}\n`,
  )
  writeFileSync(path.join(project, '.dsh/mcp.local.yml'), signersFile({ mallory }))
  await signAll(project, mallory, signerHome())
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  await assertHeldBack(w, project, 's', m)
  const r = await cli(w, project, ['list'])
  assert.match(r.stderr, /"trustedSigners" is read only from your own file/)
  assert.match(r.stdout, /signed by an unknown key/)
})

test('an old signature replayed for a changed row runs nothing, with its fingerprint copied too (bad signature)', async (t) => {
  const m = marker('replayed')
  const { project } = repoWith({ s: entry('s', marker('orig')) })
  await signAll(project, alice, signerHome())
  const old = JSON.parse(readFileSync(trustFile(project), 'utf8'))
  writeFileSync(path.join(project, '.dsh/mcp.yml'), friendly({ s: entry('s', m) }))
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  await assertHeldBack(w, project, 's', m)
  // The attacker writes the current fingerprint (learnt by signing the changed row with their own key) into the old record.
  await signAll(project, mallory, signerHome())
  old.servers.s.fingerprint = JSON.parse(readFileSync(trustFile(project), 'utf8')).servers.s.fingerprint
  writeFileSync(trustFile(project), JSON.stringify(old))
  await w.mcp.reload()
  await assertHeldBack(w, project, 's', m)
  assert.match((await cli(w, project, ['list'])).stdout, /bad signature/)
})

test('a signature replayed onto another server name, or another project of the repository, runs nothing', async (t) => {
  const m = marker('same')
  const same = entry('x', m)
  const { repo } = repoWith({ good: same }, 'packages/a')
  const a = path.join(repo, 'packages/a')
  const b = path.join(repo, 'packages/b')
  mkdirSync(path.join(b, '.dsh'), { recursive: true })
  writeFileSync(path.join(b, '.dsh/mcp.yml'), friendly({ good: same, evil: same }))
  await signAll(a, alice, signerHome())
  const signed = JSON.parse(readFileSync(trustFile(a), 'utf8'))
  // Onto another project (same name, same definition) and onto another name (same definition).
  signed.servers.evil = signed.servers.good
  writeFileSync(trustFile(b), JSON.stringify(signed))
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  await assertHeldBack(w, b, 'good', m)
  assert.equal(serverOf(w, b, 'evil').state, 'untrusted')
  assert.deepEqual(readMarker(m), [], 'nothing ran in packages/b')
  const out = (await cli(w, b, ['list'])).stdout
  assert.equal(out.match(/bad signature/g)?.length, 2, out)
})

test('.dsh/mcp.trust swapped for a link (to a valid copy) is refused: nothing runs', async (t) => {
  const m = marker('linked')
  const { project } = repoWith({ s: entry('s', m) })
  await signAll(project, alice, signerHome())
  const elsewhere = makeTempDir('dsh-mcp-elsewhere-').join('mcp.trust')
  copyFileSync(trustFile(project), elsewhere)
  renameSync(trustFile(project), `${trustFile(project)}.bak`)
  symlinkSync(elsewhere, trustFile(project))
  // The signer's own personal trust lives in their home, not here: this world trusts by signature only.
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  await assertHeldBack(w, project, 's', m)
  const r = await cli(w, project, ['list'])
  assert.match(r.stdout, /\.dsh\/mcp\.trust refused/)
  assert.match(r.stderr, /symbolic link/)
  // Signing refuses to write through the link.
  const sign = await cli(w, project, ['trust', 's', '--yes', '--sign', alice.file], { expectFail: true })
  assert.match(sign.stderr, /refusing to write .*a link/)
})

test('revocation is live: removing the signer from the user file, or dsh-mcp untrust, stops the server', async (t) => {
  const m = marker('revoked')
  const { project } = repoWith({ s: entry('s', m) })
  await signAll(project, alice, signerHome())
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  const agent = (await w.host.createAgent({ cwd: project })).agent
  await untilTools(w, agent, ['mcp__s__t'], 'runs on the signature')
  w.home.write('mcp.yml', signersFile({}))
  await untilTools(w, agent, [], 'the signer removed from the user file: stopped live')
  assert.equal(serverOf(w, project, 's').state, 'untrusted')
  w.home.write('mcp.yml', signersFile({ alice }))
  await untilTools(w, agent, ['mcp__s__t'], 'listed again: runs again')
  await cli(w, project, ['untrust', 's'])
  await untilTools(w, agent, [], 'dsh-mcp untrust withdrew the signature: stopped live')
  assert.match((await cli(w, project, ['list'])).stdout, /signature withdrawn by you/)
  await cli(w, project, ['trust', 's', '--yes'])
  await untilTools(w, agent, ['mcp__s__t'], 'trusted personally again')
})
