/**
 * Hard links and swaps (issue 24 item 5), each an attack on real files:
 * 1. a trust store hard-linked to a file in the repository: whoever commits
 *    that file writes trust — refused like a symbolic link, nothing runs
 *    (marker), on the real host;
 * 2. a user file hard-linked to a repository file: refused, its server
 *    never starts (marker), on the real host;
 * 3. a status file hard-linked to a repository file: `dsh-mcp status`
 *    refuses it and shows none of the forged bytes;
 * 4. a config file swapped between the open and the guard's check (a link
 *    out of the project opened, a plain file judged): refused, the
 *    outside file's canary bytes are never returned;
 * The pinned reader's own cases: test/files/pinned-read.test.ts.
 */
import assert from 'node:assert/strict'
import { existsSync, linkSync, lstatSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { readBoundedText } from '../../src/files/read.ts'
import { fileRefusal } from '../../src/files/guard.ts'
import { ensureHomeDir } from '../../src/files/private-dir.ts'
import { statusFilePath } from '../../src/status/path.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { runCli } from '../support/cli.ts'
import { waitFor } from '../support/host.ts'
import { markerRig } from '../support/markers.ts'
import { readMarker } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry, friendly } from '../support/runtime.ts'
import { cli, reconcileTimes, serverOf, untilTools } from '../support/trust.ts'
import { makeTempDir } from '../support/tmp.ts'

const { pids, marker } = markerRig('hardlinks')

test('a trust store hard-linked to a repository file is refused: the repository cannot write trust', async (t) => {
  const m = marker('s')
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({ s: stdioEntry('s', { tools: ['t'], marker: m, pidfileDir: pids }) })
  // What trusting `s` writes, made in a scratch home: the attacker can compute it too.
  const scratch = makeTempDir('dsh-mcp-scratch-')
  const made = await runCli(['trust', '--all', '--yes', '-C', p.path], {
    cwd: p.path,
    dshHome: scratch.path,
    home: scratch.path,
  })
  assert.equal(made.code, 0, made.stderr)
  const trusted = readFileSync(scratch.join('mcp-trust.json'), 'utf8')
  // The user's store is a second name of a file in the checkout; the checkout writes trust through it.
  const inRepo = p.write('.dsh/notes.json', '{"version":1,"projects":{}}\n')
  linkSync(inRepo, w.home.join('mcp-trust.json'))
  writeFileSync(inRepo, trusted)
  await reconcileTimes(w, 2)
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  assert.equal(readMarker(m).length, 0, 'the server trusted through the repository file ran')
  const s = serverOf(w, p.path, 's')
  assert.equal(s.state, 'untrusted')
  assert.match(s.lastError ?? '', /has 2 hard links/)
  const list = await cli(w, p.path, ['list'])
  assert.match(list.stderr, /has 2 hard links/)
})

test('a user file hard-linked to a repository file is refused: its servers never start', async (t) => {
  const m = marker('u')
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({})
  const inRepo = p.write('notes.yml', friendly({ u: stdioEntry('u', { tools: ['t'], marker: m, pidfileDir: pids }) }))
  linkSync(inRepo, w.home.join('mcp.yml'))
  await w.mcp.reload()
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  await reconcileTimes(w, 1)
  assert.equal(readMarker(m).length, 0, 'a server of the hard-linked user file ran')
  await untilTools(w, agent, [], 'no tool of the hard-linked user file')
  const list = await cli(w, p.path, ['list'], { expectFail: true })
  assert.match(list.stdout + list.stderr, /has 2 hard links/)
})

test('a status file hard-linked to a repository file is refused by status; no forged byte is shown', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({ s: stdioEntry('s', { tools: ['t'], pidfileDir: pids }) })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await untilTools(w, agent, ['mcp__s__t'], 'it runs')
  const file = statusFilePath(w.home.path, canonicalRoot(p.path))
  await waitFor(() => existsSync(file) || undefined, { message: 'no status file' })
  const forged = readFileSync(file, 'utf8').replaceAll('"s"', '"FORGED_BY_REPO"')
  // The host is gone (it would replace the name by its next write); its $DSH_HOME, as it was, holds the planted name.
  await w.dispose()
  ensureHomeDir(w.home.path, 'status')
  const inRepo = p.write('status-copy.json', forged)
  rmSync(file, { force: true })
  linkSync(inRepo, file)
  const status = await cli(w, p.path, ['status'], { expectFail: true })
  assert.match(status.stdout + status.stderr, /hard links/)
  assert.doesNotMatch(status.stdout + status.stderr, /FORGED_BY_REPO/)
})

test('a config file swapped between the open and the check is refused; the outside file is never read', () => {
  const p = projectWith({})
  const outside = makeTempDir('dsh-mcp-outside-').write('secret.yml', 'CANARY_OUTSIDE_BYTES: 1\n')
  const file = p.join('.dsh', 'mcp.yml')
  rmSync(file)
  symlinkSync(outside, file)
  const layer = { file, scope: 'project' as const }
  const read = readBoundedText(file, 1024 * 1024, () => {
    // Opened through the link; now a plain file takes its place before the guard looks.
    const plain = `${file}.plain`
    writeFileSync(plain, 'servers: {}\n')
    renameSync(plain, file)
    assert.equal(lstatSync(file).isSymbolicLink(), false)
    return fileRefusal(layer, { root: p.path, dshHome: makeTempDir().path })
  })
  assert.ok(!('text' in read && read.text.includes('CANARY_OUTSIDE_BYTES')), 'the swapped-out link was read')
  assert.ok('failure' in read && /replaced while being read/.test(read.failure.message), JSON.stringify(read))
})
