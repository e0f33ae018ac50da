/**
 * Red team r3 on signed team approvals (issue 27 items 5–7), each an attack
 * on the real host and CLI with real `ssh-keygen`-made keys that runs
 * nothing (marker files stay empty):
 * - HIGH-2: a repository's `node_modules/.bin/ssh-keygen` on PATH (direnv,
 *   `npm run`) is never run, so it cannot "verify" a forged record that
 *   names a listed signer's public key.
 */
import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeKey, signAll, signerHome, signersFile } from '../support/team.ts'
import { makeTempDir } from '../support/tmp.ts'
import { assertHeldBack } from '../support/trust.ts'

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
