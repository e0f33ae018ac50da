/**
 * A lock-only edit must not swap what a trusted server runs (red team r3 HIGH-3, MEDIUM-2), against a real
 * npm registry on 127.0.0.1 (verdaccio, test/support/registry.ts) and the fixture server, which appends
 * `<version> <pid>` to its marker when it starts:
 * - the config runs `lock-fixture-server@1.0.0`; the lock's entry keeps that spec but names 1.0.2 (the
 *   version whose install script writes a marker) or another package: `verify --frozen` and `lock --check`
 *   exit 1 naming the field, `prepare` installs nothing, and the host refuses to start it even when 1.0.2
 *   is prepared in the store — no server, no install script ran;
 * - a lock whose version is a git URL (or a dependency is one) does not parse: `prepare` never hands it to
 *   npm, so a `git` on PATH never runs.
 */
import assert from 'node:assert/strict'
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { serverLogFile } from '../../src/launch/spec.ts'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { type LocalRegistry, startRegistry } from '../support/registry.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { waitFor } from '../support/wait.ts'

type EditableLock = {
  servers: { fix: { version: string; packages: Record<string, { version: string; dependencies?: object }> } }
}

const rig = markerRig('lockswap')
let reg: LocalRegistry | undefined
let w: RuntimeWorld | undefined
before(async () => {
  reg = await startRegistry()
  await reg.publishServer('1.0.0')
  await reg.publishServer('1.0.2', 'scripted')
  w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 60_000 })
})
after(async () => {
  await w?.dispose()
  await reg?.stop()
})

function lockedProject(spec: string, marker: string, env: Record<string, string> = {}) {
  const p = projectWith({
    fix: { command: 'npx', args: ['-y', spec], env: { LOCK_FIXTURE_MARKER: marker }, toolCallTimeoutMs: 10_000 },
  })
  const cli = (...args: string[]) => runCli(args, { cwd: p.path, dshHome: w!.home.path, env: { ...reg!.env, ...env } })
  const lockFile = path.join(p.path, '.dsh', 'mcp.lock')
  const readLock = () => JSON.parse(readFileSync(lockFile, 'utf8'))
  const writeLock = (lock: unknown) => writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`)
  return { p, cli, readLock, writeLock }
}

const logOf = (root: string) => {
  const f = serverLogFile(w!.home.path, root, 'fix')
  return existsSync(f) ? readFileSync(f, 'utf8') : ''
}
const storeKeys = () => {
  const store = path.join(w!.home.path, 'mcp-store')
  return existsSync(store) ? readdirSync(store).filter((e) => !e.startsWith('.')) : []
}

test('a lock entry swapped to another version or package of the same spec is refused everywhere; nothing runs', async () => {
  // The attacker's entry: what `lock` writes for 1.0.2.
  const other = lockedProject('lock-fixture-server@1.0.2', rig.marker('other'))
  assert.equal((await other.cli('lock')).code, 0)
  const evil = other.readLock().servers.fix

  const ran = rig.marker('victim')
  const v = lockedProject('lock-fixture-server@1.0.0', ran)
  assert.equal((await v.cli('lock')).code, 0)
  const lock = v.readLock()
  lock.servers.fix = { ...evil, spec: 'lock-fixture-server@1.0.0' }
  v.writeLock(lock)

  const frozen = await v.cli('verify', '--frozen')
  assert.equal(frozen.code, 1, frozen.stdout)
  assert.match(frozen.stderr, /fix: the lock entry is not what the config runs \(version: .*1\.0\.2/)
  assert.doesNotMatch(frozen.stdout, /up to date/)
  const check = await v.cli('lock', '--check')
  assert.equal(check.code, 1)
  assert.match(check.stderr, /version/)
  const before = storeKeys()
  const prep = await v.cli('prepare')
  assert.equal(prep.code, 1)
  assert.match(prep.stderr, /fix: the lock entry does not match the config/)
  assert.deepEqual(storeKeys(), before, 'prepare installed the swapped entry')
  assert.equal(existsSync(reg!.installMarker), false, 'an install script ran')

  // Even with 1.0.2 prepared in the store (another project prepared it), the victim does not run it.
  assert.equal((await other.cli('prepare')).code, 0)
  await w!.host.createAgent({ cwd: v.p.path })
  await waitFor(() => /the lock entry does not match the config/.test(logOf(v.p.path)), {
    message: 'the launcher never refused the swapped entry',
  })
  await w!.mcp.whenIdle()
  const row = w!.mcp.snapshot().projects.find((x) => x.root === v.p.path)?.servers[0]
  assert.notEqual(row?.state, 'mounted')
  assert.equal(existsSync(ran), false, 'the swapped package ran')

  // Another package under the same spec: the field named is the package.
  lock.servers.fix = { ...evil, spec: 'lock-fixture-server@1.0.0', package: 'lock-fixture-dep' }
  v.writeLock(lock)
  const pkg = await v.cli('verify', '--frozen')
  assert.equal(pkg.code, 1)
  assert.match(pkg.stderr, /package: the lock names package lock-fixture-dep/)
  assert.equal(existsSync(ran), false)
})

test('a git URL as a version or a dependency never reaches npm: prepare refuses, a git on PATH never runs', async () => {
  const gitRan = rig.marker('git')
  const bin = rig.dir.mkdir('fakebin')
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "git $*" >> ${JSON.stringify(gitRan)}\nexit 1\n`)
  chmodSync(path.join(bin, 'git'), 0o755)
  const ran = rig.marker('git-victim')
  const v = lockedProject('lock-fixture-server@1.0.0', ran, { PATH: `${bin}${path.delimiter}${process.env.PATH}` })
  assert.equal((await v.cli('lock')).code, 0)
  const good = v.readLock()
  const url = `git+file://${rig.dir.path}/repo`
  const root = 'node_modules/lock-fixture-server'
  const variants = [
    (l: EditableLock) => {
      l.servers.fix.version = url
      l.servers.fix.packages[root]!.version = url
    },
    (l: EditableLock) => {
      l.servers.fix.packages[root]!.dependencies = { 'lock-fixture-dep': url }
    },
  ]
  for (const edit of variants) {
    const l = structuredClone(good)
    edit(l)
    v.writeLock(l)
    const prep = await v.cli('prepare')
    assert.equal(prep.code, 1, prep.stdout)
    assert.match(prep.stderr, /\.dsh\/mcp\.lock: servers\.fix\./)
    const frozen = await v.cli('verify', '--frozen')
    assert.equal(frozen.code, 1)
  }
  assert.equal(existsSync(gitRan), false, 'a git from PATH ran during prepare')
  assert.equal(existsSync(ran), false)
  assert.equal(existsSync(reg!.installMarker), false)
})
