/**
 * Red team r3 on signed team approvals (issue 27 items 5–7), each an attack
 * on the real host and CLI with real `ssh-keygen`-made keys that runs
 * nothing (marker files stay empty):
 * - HIGH-2: a repository's `node_modules/.bin/ssh-keygen` on PATH (direnv,
 *   `npm run`) is never run, so it cannot "verify" a forged record that
 *   names a listed signer's public key.
 * - HIGH-1: a signed `.dsh/mcp.trust` copied with its `.dsh/mcp.yml` into
 *   another repository that ships other code at the file the row names is
 *   `signed for an older version` (the payload binds the file's hash); a
 *   `.hg` making a nested folder look like a repository root does not move
 *   the signed path (`.git` only, as inheritance).
 * - MEDIUM-1: a server that runs on a team signature has its tools pinned
 *   (in the user's own store): a changed description or an added tool is
 *   withheld from the agent and never executed (the fixture's calls file).
 */
import assert from 'node:assert/strict'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { canonicalRoot, readTrustStore } from '../../src/trust/store.ts'
import { signedPinsOf } from '../../src/trust/state.ts'
import { runCli } from '../support/cli.ts'
import { execTool, resultText } from '../support/host.ts'
import { callsOf, listsOf, setShift, shiftingEntry } from '../support/shifting.ts'
import { waitFor } from '../support/wait.ts'
import { markerRig } from '../support/markers.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeKey, signAll, signerHome, signersFile } from '../support/team.ts'
import { makeTempDir } from '../support/tmp.ts'
import { assertHeldBack, cli, untilTools } from '../support/trust.ts'

const { entry, marker } = markerRig('teamedge')
const keys = makeTempDir('dsh-mcp-keys-')
const alice = makeKey(keys, 'alice@team')
const mallory = makeKey(keys, 'mallory')

/** A git repository with `servers` in `<rel>/.dsh/mcp.yml`; returns the repository and project dirs. */
function repoWith(servers: Record<string, unknown>, rel = '.'): { repo: string; project: string } {
  const repo = makeTempDir('dsh-mcp-teamrepo-')
  repo.mkdir('.git')
  const project = path.join(repo.path, rel)
  mkdirSync(path.join(project, '.dsh'), { recursive: true })
  writeFileSync(path.join(project, '.dsh/mcp.yml'), friendly(servers))
  return { repo: repo.path, project }
}

const trustFile = (project: string) => path.join(project, '.dsh/mcp.trust')

test("HIGH-2: a repository's node_modules/.bin/ssh-keygen on PATH is never run; a forged record stays a bad signature", async (t) => {
  const m = marker('forged')
  const ran = marker('keygen')
  const { project } = repoWith({ s: entry('s', m) })
  // Signed by mallory, then the record's key swapped for alice's public key.
  await signAll(project, mallory, signerHome())
  const forged = JSON.parse(readFileSync(trustFile(project), 'utf8'))
  forged.servers.s.signer = { label: 'alice', key: alice.pub.split(' ').slice(0, 2).join(' ') }
  writeFileSync(trustFile(project), JSON.stringify(forged))
  // A committed fake ssh-keygen that "verifies" everything, even saying ssh-keygen's own words.
  const bin = path.join(project, 'node_modules/.bin')
  mkdirSync(bin, { recursive: true })
  writeFileSync(
    path.join(bin, 'ssh-keygen'),
    `#!/bin/sh\necho "ssh-keygen $*" >> ${JSON.stringify(ran)}\necho 'Good "dsh-mcp" signature for alice with ED25519 key SHA256:x'\ncat >/dev/null\nexit 0\n`,
  )
  chmodSync(path.join(bin, 'ssh-keygen'), 0o755)
  const PATH = `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`

  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  const list = await runCli(['list', '-C', project], {
    cwd: project,
    dshHome: w.home.path,
    home: w.home.path,
    env: { PATH },
  })
  assert.equal(existsSync(ran), false, `the repository's ssh-keygen ran for dsh-mcp list: ${list.stdout}`)
  assert.match(list.stdout, /bad signature/)
  assert.doesNotMatch(list.stdout, /signed by alice \(trusted\)/)

  // The host with the same PATH (the agent's environment).
  const saved = process.env.PATH
  process.env.PATH = PATH
  t.after(() => {
    process.env.PATH = saved
  })
  await w.mcp.reload()
  await assertHeldBack(w, project, 's', m)
  assert.equal(existsSync(ran), false, "the host never ran the repository's ssh-keygen")
  assert.deepEqual(readMarker(m), [])
})

/** A row naming a repository file: `node ./tools/srv.js <marker>`; the script appends to the marker when run. */
function scriptRepo(m: string, code: string, rel = '.'): { repo: string; project: string } {
  const r = repoWith({ s: { command: process.execPath, args: ['./tools/srv.js', m] } }, rel)
  mkdirSync(path.join(r.project, 'tools'), { recursive: true })
  writeFileSync(path.join(r.project, 'tools/srv.js'), code)
  return r
}
const GOOD = "require('node:fs').appendFileSync(process.argv[2], 'reviewed code ran\\n')\n"
const EVIL = "require('node:fs').appendFileSync(process.argv[2], 'attacker code ran\\n')\n"

test('HIGH-1: a signed approval copied into another repository with other code at the named file runs nothing', async (t) => {
  const m = marker('replay-repo')
  const a = scriptRepo(m, GOOD)
  await signAll(a.project, alice, signerHome())
  assert.match(
    readFileSync(trustFile(a.project), 'utf8'),
    /"tools\/srv\.js": "[0-9a-f]{64}"/,
    'the file hash is signed',
  )
  const b = scriptRepo(m, EVIL)
  copyFileSync(path.join(a.project, '.dsh/mcp.yml'), path.join(b.project, '.dsh/mcp.yml'))
  copyFileSync(trustFile(a.project), trustFile(b.project))
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  assert.match((await cli(w, a.project, ['list'])).stdout, /signed by alice \(trusted\)/, 'the original is trusted')
  await assertHeldBack(w, b.project, 's', m)
  assert.match((await cli(w, b.project, ['list'])).stdout, /signed for an older version/)
  // The same repository after the file changed: the signature no longer covers it either.
  writeFileSync(path.join(a.project, 'tools/srv.js'), EVIL)
  await w.mcp.reload()
  await assertHeldBack(w, a.project, 's', m)
  assert.deepEqual(readMarker(m), [], 'no code ran')
})

test('HIGH-1: a .hg entry does not make a nested folder a repository root for the signed path', async (t) => {
  const m = marker('replay-hg')
  const a = scriptRepo(m, GOOD)
  await signAll(a.project, alice, signerHome())
  // A nested folder of the same repository: the root's mcp.yml, trust file and identical script, plus a .hg marker.
  const nested = path.join(a.repo, 'packages/evil')
  mkdirSync(path.join(nested, '.hg'), { recursive: true })
  mkdirSync(path.join(nested, '.dsh'), { recursive: true })
  mkdirSync(path.join(nested, 'tools'), { recursive: true })
  copyFileSync(path.join(a.project, '.dsh/mcp.yml'), path.join(nested, '.dsh/mcp.yml'))
  copyFileSync(trustFile(a.project), trustFile(nested))
  copyFileSync(path.join(a.project, 'tools/srv.js'), path.join(nested, 'tools/srv.js'))
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  await assertHeldBack(w, nested, 's', m)
  assert.doesNotMatch((await cli(w, nested, ['list'])).stdout, /signed by alice \(trusted\)/)
  assert.deepEqual(readMarker(m), [], 'nothing ran in packages/evil')
})

test('MEDIUM-1: a signed server that later changes a description or adds a tool gets them withheld, never executed', async (t) => {
  const ctl = makeTempDir('dsh-mcp-rug-signed-')
  const { project } = repoWith({ rs: shiftingEntry(ctl.path) })
  await signAll(project, alice, signerHome())
  const signedText = readFileSync(trustFile(project), 'utf8')
  const w = await startWorld({ trust: 'require', userFile: signersFile({ alice }), debounceMs: 20 })
  t.after(() => w.dispose())
  const agent = (await w.host.createAgent({ cwd: project })).agent
  await untilTools(w, agent, ['mcp__rs__shifty', 'mcp__rs__stable'], 'signed: both tools offered')
  const fp = JSON.parse(readFileSync(trustFile(project), 'utf8')).servers.rs.fingerprint as string
  await waitFor(() => signedPinsOf(readTrustStore(w.home.path), canonicalRoot(project), 'rs', fp), {
    message: 'pinned in the user store under the signed fingerprint',
  })
  assert.equal(readFileSync(trustFile(project), 'utf8'), signedText, 'nothing written into the repository')
  setShift(ctl.path, 'shift')
  setShift(ctl.path, 'add')
  await waitFor(() => w.host.ctx.tools.get('mcp__rs__extra') && listsOf(ctl.path).length > 1, {
    ctx: w.host.ctx,
    events: ['tools/change'],
    message: 'the shifted list registered',
  })
  await untilTools(w, agent, ['mcp__rs__stable'], 'only the unchanged tool offered')
  const before = callsOf(ctl.path).length
  for (const tool of ['shifty', 'extra']) {
    const text = resultText(await execTool(w.host.ctx, agent, `mcp__rs__${tool}`, { text: 'x' }))
    assert.match(text, /unknown tool|not available|UNKNOWN_TOOL/i, `${tool}: ${text}`)
  }
  assert.deepEqual(callsOf(ctl.path).slice(before), [], 'the changed and added tools never ran')
})
