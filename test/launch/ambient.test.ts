/**
 * `neutralRunner` (src/launch/ambient.ts): each package runner's project
 * config switched off or refused, every other command unchanged; and
 * `resolveCommand` refusing a bare name that resolves inside a checkout,
 * `checkoutRoots` keeping a home directory out (src/launch/resolve.ts).
 */
import assert from 'node:assert/strict'
import { chmodSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { neutralRunner } from '../../src/launch/ambient.ts'
import { checkoutRoots, resolveCommand } from '../../src/launch/resolve.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())
const opts = (files: string[] = []) => ({
  cwd: '/repo/sub',
  home: '/home/u',
  stop: '/repo',
  exists: (f: string) => files.includes(f),
})

test('npm runners get --prefix=<home> before the package; other commands are unchanged', () => {
  assert.deepEqual(neutralRunner('npx', ['-y', 'pkg@1.2.3'], {}, opts()), {
    args: ['--prefix=/home/u', '-y', 'pkg@1.2.3'],
    env: {},
  })
  assert.deepEqual(neutralRunner('/usr/bin/npm', ['exec', '--', 'pkg@1.2.3'], {}, opts()), {
    args: ['exec', '--prefix=/home/u', '--', 'pkg@1.2.3'],
    env: {},
  })
  assert.deepEqual(neutralRunner('npm', ['run', 'serve'], {}, opts()), { args: ['run', 'serve'], env: {} })
  assert.deepEqual(neutralRunner('node', ['srv.js'], {}, opts()), { args: ['srv.js'], env: {} })
  assert.deepEqual(neutralRunner('pipx', ['run', 'srv==1.0'], {}, opts()), { args: ['run', 'srv==1.0'], env: {} })
})

test('yarn dlx and uv get their switches; a name the entry sets itself is kept', () => {
  const y = neutralRunner('yarn', ['dlx', 'pkg@1.2.3'], {}, opts())
  assert.deepEqual('env' in y && y.env, { YARN_RC_FILENAME: '.yarnrc.dsh-mcp-none.yml', YARN_IGNORE_PATH: '1' })
  const kept = neutralRunner('yarn', ['dlx', 'pkg@1.2.3'], { YARN_IGNORE_PATH: '0' }, opts())
  assert.deepEqual('env' in kept && kept.env, { YARN_RC_FILENAME: '.yarnrc.dsh-mcp-none.yml' })
  for (const [c, a] of [
    ['uvx', ['srv==1']],
    ['uv', ['tool', 'run', 'srv==1']],
  ] as const) {
    const u = neutralRunner(c, [...a], {}, opts())
    assert.deepEqual('env' in u && u.env, { UV_NO_CONFIG: '1' })
  }
})

test('pnpm and bun are refused when a file of theirs is in cwd or above it up to the checkout root', () => {
  for (const [c, a, f] of [
    ['pnpm', ['dlx', 'p@1.0.0'], '/repo/.npmrc'],
    ['pnpx', ['p@1.0.0'], '/repo/sub/pnpm-workspace.yaml'],
    ['pnpm', ['dlx', 'p@1.0.0'], '/repo/.pnpmfile.cjs'],
    ['bunx', ['p@1.0.0'], '/repo/sub/bunfig.toml'],
    ['bun', ['x', 'p@1.0.0'], '/repo/.npmrc'],
  ] as const) {
    const r = neutralRunner(c, [...a], {}, opts([f]))
    assert.ok('refuse' in r && r.refuse.includes(f), `${c} ${f}`)
    assert.ok('args' in neutralRunner(c, [...a], {}, opts(['/.npmrc'])), `${c}: above the checkout is not searched`)
  }
})

test('resolveCommand: a bare name inside a checkout is EINSIDE (through a link too); checkoutRoots drops homes', () => {
  const repo = makeTempDir('dsh-mcp-resolve-repo-')
  repo.write('node_modules/.bin/tool', '#!/bin/sh\n')
  chmodSync(repo.join('node_modules/.bin/tool'), 0o755)
  const link = path.join(makeTempDir('dsh-mcp-resolve-link-').path, 'bin')
  symlinkSync(repo.join('node_modules/.bin'), link)
  for (const entry of [repo.join('node_modules/.bin'), link]) {
    const r = resolveCommand('tool', { PATH: `${entry}:/usr/bin` }, repo.path, [repo.path])
    assert.equal('code' in r && r.code, 'EINSIDE', entry)
    assert.deepEqual(resolveCommand('tool', { PATH: `${entry}:/usr/bin` }, repo.path), {
      path: path.join(entry, 'tool'),
    })
  }
  assert.deepEqual(checkoutRoots(['/home/u', '/home/u/proj', '/', 'rel', '/srv/x'], ['/home/u', '/home/u/.dsh']), [
    '/home/u/proj',
    '/srv/x',
  ])
})
