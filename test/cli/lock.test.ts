/**
 * `dsh-mcp lock`, `lock --check`, `verify --frozen` and `outdated` against a real npm registry on
 * 127.0.0.1 (verdaccio, test/support/registry.ts) with the fixture packages: a lock pins the exact
 * version and integrity the registry published and keeps it after `latest` moves; `--check` fails on a
 * missing and on a stale lock; `outdated` shows the newer version and changes nothing.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { type LocalRegistry, startRegistry } from '../support/registry.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

let reg: LocalRegistry | undefined
after(async () => {
  await reg?.stop()
  cleanupAll()
})
before(async () => {
  reg = await startRegistry()
  await reg.publishServer('1.0.0')
})
const registry = () => reg!

function project(args: string[]) {
  const p = makeProject({
    '.dsh/mcp.yml': `servers:\n  fix:\n    command: npx\n    args: ${JSON.stringify(['-y', ...args])}\n  plain:\n    command: node\n    args: [x.js]\n  remote:\n    url: http://127.0.0.1:9/mcp\n  bun:\n    command: bunx\n    args: [some-pkg]\n`,
  })
  const opts = { cwd: p.path, dshHome: makeTempDir('dsh-mcp-lock-home-').mkdir('.dsh'), env: registry().env }
  const lockText = () => readFileSync(p.join('.dsh/mcp.lock'), 'utf8')
  return { p, opts, lockText }
}

test('lock pins the version latest names today, with its published integrity and tree; --check passes', async () => {
  const { opts, lockText } = project(['lock-fixture-server'])
  const missing = await runCli(['lock', '--check'], opts)
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /fix: not locked \(lock-fixture-server\) — run: dsh-mcp lock fix/)
  assert.match(missing.stderr, /bun: bunx is not supported by the lock yet/)
  const frozen = await runCli(['verify', '--frozen'], opts)
  assert.equal(frozen.code, 1)

  const r = await runCli(['lock'], opts)
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /locked fix: lock-fixture-server@1\.0\.0 \(2 packages\)/)
  const lock = JSON.parse(lockText())
  assert.deepEqual(Object.keys(lock.servers), ['fix'])
  const e = lock.servers.fix
  assert.equal(e.version, '1.0.0')
  assert.equal(e.bin, 'lock-fixture-server')
  assert.match(e.integrity, /^sha512-/)
  assert.equal(e.packages['node_modules/lock-fixture-dep'].version, '1.0.0')
  assert.match(e.packages['node_modules/lock-fixture-dep'].integrity, /^sha512-/)
  // The integrity is the registry's own.
  const doc = (await (await fetch(`${registry().url}lock-fixture-server`)).json()) as {
    versions: Record<string, { dist: { integrity: string } }>
  }
  assert.equal(e.integrity, doc.versions['1.0.0']!.dist.integrity)
  assert.doesNotMatch(lockText(), /127\.0\.0\.1|_authToken|resolved/, 'no registry address, no credential')

  assert.equal((await runCli(['lock', '--check'], opts)).code, 0)
  assert.equal((await runCli(['verify', '--frozen'], opts)).code, 0)

  // latest moves: the lock keeps 1.0.0, outdated says 1.0.1 and changes nothing.
  await registry().publishServer('1.0.1')
  const before = lockText()
  assert.equal((await runCli(['lock', '--check'], opts)).code, 0)
  const out = await runCli(['outdated', '--json'], opts)
  assert.equal(out.code, 0, out.stderr)
  assert.deepEqual(JSON.parse(out.stdout), [
    { name: 'fix', package: 'lock-fixture-server', locked: '1.0.0', latest: '1.0.1', outdated: true },
  ])
  assert.equal(lockText(), before)
  const table = await runCli(['outdated'], opts)
  assert.match(table.stdout, /fix\s+lock-fixture-server\s+1\.0\.0\s+1\.0\.1/)

  // Re-locking the same spec moves to the new latest; the same lock twice is the same bytes.
  assert.equal((await runCli(['lock', 'fix'], opts)).code, 0)
  assert.equal(JSON.parse(lockText()).servers.fix.version, '1.0.1')
  const again = lockText()
  assert.equal((await runCli(['lock'], opts)).code, 0)
  assert.equal(lockText(), again)
})

test('a changed package spec makes the lock stale; unknown names are refused; a bad lock file is reported', async () => {
  const { p, opts } = project(['lock-fixture-server@1.0.0'])
  assert.equal((await runCli(['lock'], opts)).code, 0)
  assert.equal((await runCli(['lock', '--check'], opts)).code, 0)
  p.write('.dsh/mcp.yml', 'servers:\n  fix:\n    command: npx\n    args: [-y, lock-fixture-server@^1]\n')
  const stale = await runCli(['lock', '--check'], opts)
  assert.equal(stale.code, 1)
  assert.match(
    stale.stderr,
    /fix: the lock was made for lock-fixture-server@1\.0\.0, the config now runs lock-fixture-server@\^1/,
  )
  assert.equal((await runCli(['verify'], opts)).code, 1)
  p.write('.dsh/mcp.yml', 'servers:\n  other:\n    command: node\n')
  const extra = await runCli(['verify', '--frozen'], opts)
  assert.equal(extra.code, 1)
  assert.match(extra.stderr, /fix: locked, but the config no longer runs it/)
  const unknown = await runCli(['lock', 'nope'], opts)
  assert.equal(unknown.code, 1)
  assert.match(unknown.stderr, /nope: no repository server of that name/)
  p.write('.dsh/mcp.lock', '{"lockfileVersion": 1, "servers": {"x": {"runner": "npx"}}}')
  const bad = await runCli(['verify'], opts)
  assert.equal(bad.code, 1)
  assert.match(bad.stderr, /mcp\.lock: servers\.x\.spec/)
})

test('a package the registry does not have fails the lock and leaves the old file', async () => {
  const { p, opts } = project(['no-such-fixture-package'])
  p.write('.dsh/mcp.lock', '{"lockfileVersion":1,"servers":{}}\n')
  const r = await runCli(['lock'], opts)
  assert.equal(r.code, 1)
  assert.match(r.stderr, /fix: cannot resolve no-such-fixture-package/)
  assert.doesNotMatch(r.stderr, /_authToken|npm_/)
  assert.equal(readFileSync(p.join('.dsh/mcp.lock'), 'utf8'), '{"lockfileVersion":1,"servers":{}}\n')
})

test('the trust review: an unlocked npx server names the lock command; a locked one shows its version and integrity', async () => {
  const { opts, lockText } = project(['lock-fixture-server'])
  const unlocked = await runCli(['trust', 'fix', '--yes'], opts)
  assert.equal(unlocked.code, 0, unlocked.stderr)
  assert.match(unlocked.stdout, /or lock it \(exact version and integrity, no runner at start\): dsh-mcp lock fix/)
  assert.equal((await runCli(['lock', 'fix'], opts)).code, 0)
  const e = JSON.parse(lockText()).servers.fix
  const locked = await runCli(['trust', 'fix', '--yes', '--verbose'], {
    ...opts,
    dshHome: makeTempDir('dsh-mcp-lock-home-').mkdir('.dsh'),
  })
  assert.equal(locked.code, 0, locked.stderr)
  assert.ok(
    locked.stdout.includes(`locked: lock-fixture-server@${e.version} ${e.integrity} (2 packages, .dsh/mcp.lock)`),
    locked.stdout,
  )
  assert.doesNotMatch(locked.stdout, /dsh-mcp lock fix/)
})

test('doctor agrees with the host: a locked server not prepared fails with the command; prepared, it connects', async () => {
  const { p, opts } = project(['lock-fixture-server@1.0.0'])
  p.write('.dsh/mcp.yml', 'servers:\n  fix:\n    command: npx\n    args: [-y, lock-fixture-server@1.0.0]\n')
  assert.equal((await runCli(['lock'], opts)).code, 0)
  assert.equal((await runCli(['trust', 'fix', '--yes'], opts)).code, 0)
  const before = await runCli(['doctor', 'fix'], opts)
  assert.notEqual(before.code, 0)
  assert.match(before.stdout + before.stderr, /locked but not prepared; run: dsh-mcp prepare fix/)
  assert.equal((await runCli(['prepare'], opts)).code, 0)
  const after = await runCli(['doctor', 'fix'], opts)
  assert.equal(after.code, 0, after.stdout + after.stderr)
  assert.match(after.stdout, /hello/)
})

test('lock: false leaves a server out of the lock (check passes, lock writes no entry); the review shows it', async () => {
  const { p, opts, lockText } = project(['lock-fixture-server'])
  p.write('.dsh/mcp.yml', 'servers:\n  fix:\n    command: npx\n    args: [-y, lock-fixture-server]\n    lock: false\n')
  assert.equal((await runCli(['lock', '--check'], opts)).code, 0)
  assert.equal((await runCli(['verify', '--frozen'], opts)).code, 0)
  const none = await runCli(['lock', 'fix'], opts)
  assert.equal(none.code, 1)
  assert.equal((await runCli(['lock'], opts)).code, 0)
  assert.deepEqual(JSON.parse(lockText()).servers, {})
  const review = await runCli(['trust', 'fix', '--yes'], opts)
  assert.match(review.stdout, /\n {2}lock: +false\n/)
  assert.doesNotMatch(review.stdout, /dsh-mcp lock fix/)
})

test("a project's .npmrc never applies: lock and prepare use the user's npm config only", async () => {
  const { p, opts } = project(['lock-fixture-server@1.0.0'])
  p.write('.npmrc', 'registry=http://127.0.0.1:9/\n')
  const l = await runCli(['lock'], opts)
  assert.equal(l.code, 0, l.stderr)
  const prep = await runCli(['prepare'], opts)
  assert.equal(prep.code, 0, prep.stderr)
  assert.match((await runCli(['verify'], opts)).stdout, /fix: lock-fixture-server@1\.0\.0 prepared/)
})
