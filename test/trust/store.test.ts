/**
 * The trust store on disk: 0600 file in a 0700 dir, canonical roots, a
 * store a repository could plant is never read (symlink, inside the root,
 * world-writable), corrupt files read as empty, and 20 writer processes at
 * once lose no record.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { canonicalRoot, readTrustStore, trustFilePath, trustServers, untrustServers } from '../../src/trust/store.ts'
import { trustStateOf } from '../../src/trust/state.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

function homeDir(): string {
  return makeTempDir('dsh-mcp-home-').join('.dsh')
}

test('trustServers creates $DSH_HOME 0700 and the store 0600; records read back by canonical root', async () => {
  const dshHome = homeDir()
  const project = makeProject()
  await trustServers(dshHome, project.path, [
    { name: 'a', fingerprint: 'sha256:a' },
    { name: 'b', fingerprint: 'sha256:b' },
  ])
  assert.equal(trustFilePath(dshHome), join(dshHome, 'mcp-trust.json'))
  assert.equal(statSync(dshHome).mode & 0o777, 0o700)
  assert.equal(statSync(trustFilePath(dshHome)).mode & 0o777, 0o600)
  const store = readTrustStore(dshHome, { forRoot: project.path })
  assert.equal(trustStateOf(store, project.path, 'a', 'sha256:a'), 'trusted')
  assert.equal(trustStateOf(store, project.path, 'b', 'sha256:a'), 'changed')
  assert.match(store.projects[project.path]!.servers.a!.trustedAt, /^\d{4}-\d\d-\d\dT/)
  // Re-trusting replaces the fingerprint; the file stays 0600.
  await trustServers(dshHome, project.path, [{ name: 'b', fingerprint: 'sha256:a' }])
  assert.equal(trustStateOf(readTrustStore(dshHome), project.path, 'b', 'sha256:a'), 'trusted')
  assert.equal(statSync(trustFilePath(dshHome)).mode & 0o777, 0o600)
})

test('a symlinked checkout shares the record of its real root', async () => {
  const dshHome = homeDir()
  const project = makeProject()
  const link = join(makeTempDir().path, 'checkout')
  symlinkSync(project.path, link)
  assert.equal(canonicalRoot(link), project.path)
  assert.equal(canonicalRoot('/no/such/dir/../x'), '/no/such/x')
  await trustServers(dshHome, link, [{ name: 'a', fingerprint: 'f' }])
  assert.deepEqual(Object.keys(readTrustStore(dshHome).projects), [project.path])
})

test('untrustServers removes named records or all of the project, and only that project', async () => {
  const dshHome = homeDir()
  const p1 = makeProject()
  const p2 = makeProject()
  await trustServers(
    dshHome,
    p1.path,
    ['a', 'b', 'c'].map((name) => ({ name, fingerprint: name })),
  )
  await trustServers(dshHome, p2.path, [{ name: 'a', fingerprint: 'a' }])
  assert.deepEqual(await untrustServers(dshHome, p1.path, ['b', 'zz']), ['b'])
  assert.deepEqual(Object.keys(readTrustStore(dshHome).projects[p1.path]!.servers), ['a', 'c'])
  assert.deepEqual((await untrustServers(dshHome, p1.path, 'all')).sort(), ['a', 'c'])
  assert.deepEqual(Object.keys(readTrustStore(dshHome).projects), [p2.path])
  assert.deepEqual(await untrustServers(dshHome, p1.path, 'all'), [])
})

test('missing, corrupt or foreign store files read as empty; readTrustStore never throws', () => {
  const dshHome = homeDir()
  assert.equal(readTrustStore(dshHome).version, 1)
  assert.deepEqual(Object.keys(readTrustStore(dshHome).projects), [])
  const home = makeTempDir()
  home.write('.dsh/mcp-trust.json', '{ not json')
  assert.deepEqual(Object.keys(readTrustStore(home.join('.dsh')).projects), [])
  home.write(
    '.dsh/mcp-trust.json',
    JSON.stringify({ version: 9, projects: { '/r': { servers: { a: { fingerprint: 'f' } } } } }),
  )
  assert.deepEqual(Object.keys(readTrustStore(home.join('.dsh')).projects), [])
  home.mkdir('dir/mcp-trust.json')
  assert.deepEqual(Object.keys(readTrustStore(home.join('dir')).projects), [])
})

test('a store a repository could plant is never read, and never written', async () => {
  const project = makeProject()
  const good = homeDir()
  await trustServers(good, project.path, [{ name: 'a', fingerprint: 'f' }])
  const valid = readFileSync(trustFilePath(good), 'utf8')
  assert.equal(trustStateOf(readTrustStore(good, { forRoot: project.path }), project.path, 'a', 'f'), 'trusted')

  // 1. $DSH_HOME/mcp-trust.json is a symlink (to a file in the repo, or anywhere).
  const linked = makeTempDir().mkdir('.dsh')
  const planted = project.write('docs/trust.json', valid)
  symlinkSync(planted, join(linked, 'mcp-trust.json'))
  assert.deepEqual(Object.keys(readTrustStore(linked, { forRoot: project.path }).projects), [])
  assert.deepEqual(Object.keys(readTrustStore(linked).projects), [])
  await assert.rejects(trustServers(linked, project.path, [{ name: 'b', fingerprint: 'g' }]), /symbolic link/)
  assert.equal(readFileSync(planted, 'utf8'), valid)

  // 2. $DSH_HOME lies inside the repository, at any depth (also through a symlinked path).
  for (const rel of ['.dsh', 'a/b/c/home']) {
    const inside = project.mkdir(rel)
    writeFileSync(join(inside, 'mcp-trust.json'), valid)
    assert.deepEqual(Object.keys(readTrustStore(inside, { forRoot: project.path }).projects), [], rel)
    await assert.rejects(trustServers(inside, project.path, [{ name: 'b', fingerprint: 'g' }]), /inside the project/)
    assert.equal(readFileSync(join(inside, 'mcp-trust.json'), 'utf8'), valid)
  }
  const viaLink = join(makeTempDir().path, 'alias')
  symlinkSync(project.join('a'), viaLink)
  assert.deepEqual(Object.keys(readTrustStore(join(viaLink, 'b/c/home'), { forRoot: project.path }).projects), [])
  assert.ok(!existsSync(project.join('.dsh/mcp-trust.json.lock')))

  // 3. A world-writable store could have been written by anyone.
  const open = homeDir()
  await trustServers(open, project.path, [{ name: 'a', fingerprint: 'f' }])
  chmodSync(trustFilePath(open), 0o666)
  assert.deepEqual(Object.keys(readTrustStore(open, { forRoot: project.path }).projects), [])
})

function child(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const p = execFile(
      process.execPath,
      ['--no-warnings', '--input-type=module', '-e', script, '--', ...args],
      { timeout: 60_000 },
      (err, _out, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stderr })
      },
    )
    p.stdin?.end()
  })
}

test('20 writer processes at once lose no record (and untrust under contention loses none either)', async () => {
  const dshHome = homeDir()
  const project = makeProject()
  const storeUrl = new URL('../../src/trust/store.ts', import.meta.url).href
  const script = `
    const { trustServers, untrustServers } = await import(${JSON.stringify(storeUrl)})
    const [home, root, i] = process.argv.slice(-3)
    for (let k = 0; k < 3; k++) await trustServers(home, root, [{ name: 's' + i + '_' + k, fingerprint: 'f' + i }])
    await untrustServers(home, root, ['s' + i + '_0'])
  `
  const runs = await Promise.all(
    Array.from({ length: 20 }, (_, i) => child(script, [dshHome, project.path, String(i)])),
  )
  for (const r of runs) assert.equal(r.code, 0, r.stderr)
  const servers = readTrustStore(dshHome, { forRoot: project.path }).projects[project.path]!.servers
  const expected = Array.from({ length: 20 }, (_, i) => [`s${i}_1`, `s${i}_2`])
    .flat()
    .sort()
  assert.deepEqual(Object.keys(servers).sort(), expected)
  for (let i = 0; i < 20; i++) assert.equal(servers[`s${i}_1`]!.fingerprint, `f${i}`)
  assert.equal(statSync(trustFilePath(dshHome)).mode & 0o777, 0o600)
  assert.ok(!existsSync(`${trustFilePath(dshHome)}.lock`), 'the lock is released')
})

test('tool pins: the first pin lands only on a record of that fingerprint without pins; re-trust keeps or replaces them', async () => {
  const { pinFirstTools } = await import('../../src/trust/store.ts')
  const { pinsOf } = await import('../../src/trust/tool-pins.ts')
  const { trustRecordOf } = await import('../../src/trust/state.ts')
  const dshHome = homeDir()
  const project = makeProject()
  const key = canonicalRoot(project.path)
  const first = pinsOf([{ name: 'echo', description: 'Echo', schema: { type: 'object' } }])
  const second = pinsOf([{ name: 'echo', description: 'Echo, changed', schema: { type: 'object' } }])
  assert.equal(await pinFirstTools(dshHome, project.path, 'a', 'sha256:a', first), false, 'no record: nothing pinned')
  await trustServers(dshHome, project.path, [{ name: 'a', fingerprint: 'sha256:a' }])
  assert.equal(await pinFirstTools(dshHome, project.path, 'a', 'sha256:other', first), false)
  assert.equal(await pinFirstTools(dshHome, project.path, 'a', 'sha256:a', first), true)
  assert.equal(await pinFirstTools(dshHome, project.path, 'a', 'sha256:a', second), false, 'never over existing pins')
  assert.deepEqual({ ...trustRecordOf(readTrustStore(dshHome), key, 'a')?.tools }, { ...first })
  // Trusted again for the same fingerprint: the pins stay; an accepted offer replaces them; a changed config drops them.
  await trustServers(dshHome, project.path, [{ name: 'a', fingerprint: 'sha256:a' }])
  assert.deepEqual({ ...trustRecordOf(readTrustStore(dshHome), key, 'a')?.tools }, { ...first })
  await trustServers(dshHome, project.path, [{ name: 'a', fingerprint: 'sha256:a2' }])
  assert.equal(trustRecordOf(readTrustStore(dshHome), key, 'a')?.tools, undefined)
  await trustServers(dshHome, project.path, [{ name: 'a', fingerprint: 'sha256:a2', tools: second }])
  assert.deepEqual({ ...trustRecordOf(readTrustStore(dshHome), key, 'a')?.tools }, { ...second })
  // A record without pins (written before pins existed) reads back without them.
  await trustServers(dshHome, project.path, [{ name: 'b', fingerprint: 'sha256:b' }])
  assert.equal(trustRecordOf(readTrustStore(dshHome), key, 'b')?.tools, undefined)
})
