/**
 * Issue 13 items 5 and 6 on a real host and the real CLI: `$DSH_HOME`,
 * `mcp-status/` and their files are 0700 / 0600 under umask 000 (the host in
 * this process, the CLI in a child started with `umask 000`); a link planted
 * at a status file's path is replaced, never written through; an
 * `mcp-status/` or trust store swapped in by another user is refused (the
 * host writes nothing into it, `status` and `trust` refuse it, saying why).
 */
import assert from 'node:assert/strict'
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { statusFilePath } from '../../src/status/path.ts'
import { runBin, runCli } from '../support/cli.ts'
import { mcpToolNames } from '../support/host.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'
import { warnings } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'
import { asRoot, markerRig, OTHER } from '../support/markers.ts'

const { marker, entry } = markerRig()
const mode = (p: string) => statSync(p).mode & 0o777

/** The real CLI in a child whose umask is 000. */
const cliUmask0 = (args: string[], dshHome: string, cwd: string) =>
  runBin(args, { cwd, dshHome, home: dshHome, umask: '000' })

test('the host under umask 000: mcp-status/ 0700, its status file 0600', async (t) => {
  // The project is written first: under umask 000 its own files would be world-writable, and refused (files-ownership).
  const m = marker('perm')
  const p = makeProject({ '.dsh/mcp.yml': friendly({ perm: entry('perm', m) }) })
  const old = process.umask(0)
  t.after(() => process.umask(old))
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__perm__t'])
  const file = statusFilePath(w.home.path, p.path)
  await waitFor(() => existsSync(file), { timeoutMs: 30_000, message: 'the status file was never written' })
  assert.equal(mode(join(w.home.path, 'mcp-status')), 0o700)
  assert.equal(mode(file), 0o600)
})

test('the CLI under umask 000 creates $DSH_HOME 0700 and its files 0600 (trust store, user file)', async () => {
  const base = makeTempDir('dsh-mcp-umask-')
  const home = join(base.path, 'fresh', 'dsh')
  const p = makeProject({ '.dsh/mcp.yml': friendly({ srv: { command: 'echo' } }) })
  const trusted = await cliUmask0(['trust', '--all', '--yes', '-C', p.path], home, p.path)
  assert.equal(trusted.code, 0, trusted.stderr)
  assert.equal(mode(home), 0o700)
  assert.equal(mode(join(home, 'mcp-trust.json')), 0o600)
  const added = await cliUmask0(['add', '-s', 'user', 'mine', 'echo', 'hi'], home, p.path)
  assert.equal(added.code, 0, added.stderr)
  assert.equal(mode(join(home, 'mcp.yml')), 0o600)
  // A second fresh home through the user-file write alone.
  const home2 = join(base.path, 'fresh2', 'dsh')
  const added2 = await cliUmask0(['add', '-s', 'user', 'mine', 'echo', 'hi'], home2, p.path)
  assert.equal(added2.code, 0, added2.stderr)
  assert.equal(mode(home2), 0o700)
  assert.equal(mode(join(home2, 'mcp.yml')), 0o600)
})

test('a link planted at a status file path is replaced, its target never written', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const victims = makeTempDir('dsh-mcp-victims-')
  const projects = [0, 1, 2].map((i) =>
    makeProject({ '.dsh/mcp.yml': friendly({ [`s${i}`]: entry(`s${i}`, marker(`s${i}`)) }) }),
  )
  mkdirSync(w.home.join('mcp-status'), { recursive: true, mode: 0o700 })
  const planted = [
    // an existing file elsewhere, a file that does not exist yet, and a relative link
    { target: victims.write('authorized_keys', 'ssh-ed25519 AAAA mine\n'), rel: false },
    { target: victims.join('created-by-host'), rel: false },
    { target: victims.write('rel-victim', 'keep me\n'), rel: true },
  ]
  for (const [i, p] of projects.entries()) {
    const at = statusFilePath(w.home.path, p.path)
    const { target, rel } = planted[i]!
    symlinkSync(rel ? join('..', '..', victims.path.split('/').at(-1)!, 'rel-victim') : target, at)
  }
  for (const p of projects) await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  for (const p of projects) {
    const at = statusFilePath(w.home.path, p.path)
    await waitFor(() => !lstatSync(at).isSymbolicLink(), {
      timeoutMs: 30_000,
      message: `the link at ${at} was never replaced`,
    })
    assert.equal(JSON.parse(readFileSync(at, 'utf8')).root, p.path)
    assert.equal(mode(at), 0o600)
  }
  assert.equal(readFileSync(planted[0]!.target, 'utf8'), 'ssh-ed25519 AAAA mine\n')
  assert.ok(!existsSync(planted[1]!.target), 'nothing created through a dangling link')
  assert.equal(readFileSync(planted[2]!.target, 'utf8'), 'keep me\n')
})

test('mcp-status/ or the trust store swapped in by another user is refused', {
  skip: !asRoot && 'needs root to chown',
}, async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const status = w.home.join('mcp-status')
  mkdirSync(status, { recursive: true })
  chmodSync(status, 0o777)
  chownSync(status, OTHER, OTHER)
  const p = makeProject({ '.dsh/mcp.yml': friendly({ st: entry('st', marker('st')) }) })
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  await waitFor(() => warnings(w, 'could not write the status file').length > 0, {
    timeoutMs: 30_000,
    message: 'the host never refused the foreign mcp-status/',
  })
  assert.match(warnings(w, 'could not write the status file')[0]!, /owned by another user \(uid 65534\)/)
  assert.ok(!existsSync(statusFilePath(w.home.path, p.path)), 'nothing written into it')
  // A status file another user planted there is not believed by `status`.
  writeFileSync(
    statusFilePath(w.home.path, p.path),
    JSON.stringify({
      version: 1,
      root: p.path,
      pid: process.pid,
      servers: [{ name: 'st', state: 'mounted', toolCount: 9 }],
    }),
  )
  const st = await runCli(['status', '-C', p.path], { cwd: p.path, dshHome: w.home.path, home: w.home.path })
  assert.equal(st.code, 1)
  assert.match(st.stderr, /is refused: .*mcp-status is owned by another user/)

  // The trust store owned by another user: `trust` refuses, the file byte-identical; `list` warns.
  const home = makeTempDir('dsh-mcp-home-')
  const store = home.write('mcp-trust.json', `${JSON.stringify({ version: 1, projects: {} }, null, 2)}\n`)
  chownSync(store, OTHER, OTHER)
  const before = readFileSync(store)
  const o = { cwd: p.path, dshHome: home.path, home: home.path }
  const tr = await runCli(['trust', '--all', '--yes', '-C', p.path], o)
  assert.equal(tr.code, 1, tr.stdout + tr.stderr)
  assert.match(tr.stderr, /owned by another user \(uid 65534\)/)
  assert.deepEqual(readFileSync(store), before)
  const list = await runCli(['list', '-C', p.path], o)
  assert.match(list.stderr, /ignoring the trust store .*owned by another user/)
  // $DSH_HOME itself owned by another user: no write lands in it.
  const foreignHome = makeTempDir('dsh-mcp-home-')
  chownSync(foreignHome.path, OTHER, OTHER)
  const tr2 = await runCli(['trust', '--all', '--yes', '-C', p.path], {
    cwd: p.path,
    dshHome: foreignHome.path,
    home: foreignHome.path,
  })
  assert.equal(tr2.code, 1)
  assert.match(tr2.stderr, /owned by another user/)
  assert.ok(!existsSync(foreignHome.join('mcp-trust.json')))
})
