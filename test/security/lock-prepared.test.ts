/**
 * Locked servers on a real host (issue 25, items 1–2), against a real npm registry on 127.0.0.1
 * (verdaccio, test/support/registry.ts) and the fixture packages: the fixture server appends
 * `<version> <pid>` to its marker when it starts, and 1.0.2's install script writes its own marker.
 * - a locked server that is not prepared never starts (no runner, no marker), the log says why;
 * - prepare installs with scripts off: 1.0.2's install script never runs, its server does (from the store);
 * - a store entry changed after the install is refused (the planted code never runs) until prepared again;
 * - a server locked at 1.0.0 keeps running 1.0.0 after 1.0.1 is published and `latest` moves, and starts
 *   with the registry stopped (no network: the runner is not invoked).
 */
import assert from 'node:assert/strict'
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { serverLogFile } from '../../src/launch/spec.ts'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { type LocalRegistry, startRegistry } from '../support/registry.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { waitFor } from '../support/wait.ts'

const rig = markerRig('lock')
let reg: LocalRegistry | undefined
let w: RuntimeWorld | undefined
before(async () => {
  reg = await startRegistry()
  await reg.publishServer('1.0.0')
  w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 60_000 })
})
after(async () => {
  await w?.dispose()
  await reg?.stop()
})

function lockedProject(spec: string, marker: string) {
  const p = projectWith({
    fix: { command: 'npx', args: ['-y', spec], env: { LOCK_FIXTURE_MARKER: marker }, toolCallTimeoutMs: 10_000 },
  })
  const cli = (...args: string[]) => runCli(args, { cwd: p.path, dshHome: w!.home.path, env: reg!.env })
  return { p, cli }
}

async function rowOf(root: string) {
  await w!.mcp.whenIdle()
  return w!.mcp.snapshot().projects.find((x) => x.root === root)?.servers[0]
}

const logOf = (root: string) => {
  const f = serverLogFile(w!.home.path, root, 'fix')
  return existsSync(f) ? readFileSync(f, 'utf8') : ''
}

test('a locked server that is not prepared does not start: no runner, no server; the log names the command', async () => {
  const ran = rig.marker('unprepared')
  const { p, cli } = lockedProject('lock-fixture-server@1.0.0', ran)
  assert.equal((await cli('lock')).code, 0)
  await w!.host.createAgent({ cwd: p.path })
  await waitFor(() => /locked but not prepared; run: dsh-mcp prepare fix/.test(logOf(p.path)), {
    message: 'the launcher never said why',
  })
  assert.notEqual((await rowOf(p.path))?.state, 'mounted')
  assert.equal(existsSync(ran), false, 'the server (or npx) ran')
  const v = await cli('verify')
  assert.match(v.stdout, /fix: lock-fixture-server@1\.0\.0 not prepared/)
})

test('prepare runs no install script; the server runs from the store; a changed store file is refused', async () => {
  await reg!.publishServer('1.0.2', 'scripted')
  const ran = rig.marker('scripted')
  const { p, cli } = lockedProject('lock-fixture-server@1.0.2', ran)
  assert.equal((await cli('lock')).code, 0)
  const prep = await cli('prepare')
  assert.equal(prep.code, 0, prep.stderr)
  assert.match(prep.stdout, /fix: lock-fixture-server@1\.0\.2 prepared/)
  assert.equal(existsSync(reg!.installMarker), false, 'the install script ran during prepare')
  const store = path.join(w!.home.path, 'mcp-store')
  const entries = readdirSync(store)
  assert.deepEqual(
    entries.filter((e) => e.startsWith('.tmp-')),
    [],
    'a temp install was left behind',
  )
  await w!.host.createAgent({ cwd: p.path })
  await waitFor(() => existsSync(ran), { message: 'the prepared server never started' })
  assert.equal((await rowOf(p.path))?.state, 'mounted')
  assert.match(readFileSync(ran, 'utf8'), /^1\.0\.2 \d+\n$/)
  assert.equal(existsSync(reg!.installMarker), false, 'the install script ran')
  assert.match((await cli('verify')).stdout, /fix: lock-fixture-server@1\.0\.2 prepared/)

  // Tamper with the prepared install: another project with the same lock must refuse it.
  const pwn = rig.marker('pwn')
  const key = entries.find((e) => !e.startsWith('.'))!
  appendFileSync(
    path.join(store, key, 'node_modules', 'lock-fixture-server', 'bin', 'server.js'),
    `\nrequire('fs').appendFileSync(${JSON.stringify(pwn)}, 'tampered code ran\\n')\n`,
  )
  const ran2 = rig.marker('scripted-2')
  const q = lockedProject('lock-fixture-server@1.0.2', ran2)
  assert.equal((await q.cli('lock')).code, 0)
  const bad = await q.cli('verify')
  assert.equal(bad.code, 1)
  assert.match(bad.stdout, /fix: lock-fixture-server@1\.0\.2 integrity mismatch/)
  await w!.host.createAgent({ cwd: q.p.path })
  await waitFor(() => /integrity mismatch/.test(logOf(q.p.path)), { message: 'the launcher never refused' })
  assert.notEqual((await rowOf(q.p.path))?.state, 'mounted')
  assert.equal(existsSync(pwn), false, 'the tampered code ran')
  assert.equal(existsSync(ran2), false)
  // prepare installs it again; then it starts.
  const again = await q.cli('prepare')
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stderr, /integrity mismatch .*installing again/)
  assert.equal((await q.cli('verify')).code, 0)
  assert.equal(existsSync(pwn), false)
  assert.equal(existsSync(reg!.installMarker), false)
})

test('locked at 1.0.0: after 1.0.1 is published (latest moves) and the registry stops, 1.0.0 starts', async () => {
  const ran = rig.marker('pinned')
  const { p, cli } = lockedProject('lock-fixture-server', ran)
  const l = await cli('lock')
  assert.equal(l.code, 0, l.stderr)
  assert.match(l.stdout, /lock-fixture-server@1\.0\.0/)
  assert.equal((await cli('prepare')).code, 0)
  await reg!.publishServer('1.0.1')
  assert.equal((await cli('lock', '--check')).code, 0, 'a moved tag does not make the lock stale')
  const outdated = JSON.parse((await cli('outdated', '--json')).stdout)
  assert.equal(outdated[0].latest, '1.0.1')
  await reg!.stop()
  await w!.host.createAgent({ cwd: p.path })
  await waitFor(() => existsSync(ran), { message: 'the locked server never started offline' })
  assert.equal((await rowOf(p.path))?.state, 'mounted')
  assert.match(readFileSync(ran, 'utf8'), /^1\.0\.0 \d+\n$/)
})
