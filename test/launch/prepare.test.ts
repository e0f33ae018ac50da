/** What a start runs, decided once for the launcher and doctor's probes: resolved file, neutralised runner, or a refusal. */
import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { checkoutsFor, prepareLaunch } from '../../src/launch/prepare.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

function exe(file: string): string {
  writeFileSync(file, '#!/bin/sh\n')
  chmodSync(file, 0o755)
  return file
}

test('a plain command: its resolved file, the arguments as written, nothing added', () => {
  const d = makeTempDir()
  const bin = d.mkdir('bin')
  exe(join(bin, 'srv'))
  assert.deepEqual(prepareLaunch('srv', ['--x'], { PATH: bin }, d.path, [], '/nonexistent-home'), {
    file: join(bin, 'srv'),
    args: ['--x'],
    env: {},
  })
})

test('not found is 127, a file inside the checkout is refused with 126 and says where', () => {
  const d = makeTempDir()
  const repo = d.mkdir('repo')
  mkdirSync(join(repo, '.git'))
  const inside = d.mkdir('repo/node_modules/.bin')
  exe(join(inside, 'npx'))
  const missing = prepareLaunch('nope', [], { PATH: '/nonexistent' }, repo, undefined, '/nonexistent-home')
  assert.deepEqual(missing, { refuse: 'ENOENT', code: 127, errno: 'ENOENT' })
  const r = prepareLaunch('npx', ['-y', 'pkg@1.0.0'], { PATH: inside }, repo, undefined, '/nonexistent-home')
  assert.ok('refuse' in r && r.errno === 'EINSIDE' && r.code === 126)
  assert.match((r as { refuse: string }).refuse, /inside the project checkout/)
})

test('checkouts: those given, else the cwd when it is a project root, never one holding the home', () => {
  const d = makeTempDir()
  const repo = d.mkdir('repo')
  assert.deepEqual(checkoutsFor(repo, undefined, '/nonexistent-home'), [])
  mkdirSync(join(repo, '.dsh'))
  assert.deepEqual(checkoutsFor(repo, undefined, '/nonexistent-home'), [repo])
  assert.deepEqual(checkoutsFor(repo, undefined, join(repo, 'home')), [], 'a checkout holding the home is none')
  assert.deepEqual(checkoutsFor(repo, ['/x'], '/nonexistent-home'), ['/x'])
})

test('npx gets its project config neutralised (--prefix to the home)', () => {
  const d = makeTempDir()
  const bin = d.mkdir('bin')
  exe(join(bin, 'npx'))
  const r = prepareLaunch('npx', ['-y', 'pkg@1.0.0'], { PATH: bin }, d.path, [], '/home/u')
  assert.ok('file' in r)
  assert.ok(
    r.args.some((a) => a === '--prefix=/home/u'),
    r.args.join(' '),
  )
})

test('the child PATH loses relative, empty and checkout entries; npm is refused when node_modules/.bin shadows a system command', () => {
  const d = makeTempDir()
  const repo = d.mkdir('repo')
  mkdirSync(join(repo, '.git'))
  const sys = d.mkdir('sys')
  exe(join(sys, 'npx'))
  exe(join(sys, 'node'))
  const PATH = `${repo}/node_modules/.bin:./node_modules/.bin::.:${sys}`
  const ok = prepareLaunch('npx', ['-y', 'pkg@1.0.0'], { PATH }, repo, undefined, '/nonexistent-home')
  assert.ok('file' in ok)
  assert.equal(ok.env.PATH, sys, 'only the absolute entry outside the checkout is left')
  mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true })
  exe(join(repo, 'node_modules', '.bin', 'tsc'))
  assert.ok(
    'file' in prepareLaunch('npx', ['-y', 'pkg@1.0.0'], { PATH }, repo, undefined, '/nonexistent-home'),
    'a tool of its own is fine',
  )
  exe(join(repo, 'node_modules', '.bin', 'node'))
  const r = prepareLaunch('npx', ['-y', 'pkg@1.0.0'], { PATH }, repo, undefined, '/nonexistent-home')
  assert.ok('refuse' in r && r.errno === 'ambient')
  assert.match((r as { refuse: string }).refuse, /node_modules\/\.bin\/node would stand in for the system's node/)
})
