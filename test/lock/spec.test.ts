/** lock/spec.ts: which launches a lock covers, the package each names, the runners refused by name. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { lockTarget } from '../../src/lock/spec.ts'

test('npx and npm exec name a registry package; its range or tag, latest when none', () => {
  assert.deepEqual(lockTarget({ command: 'npx', args: ['-y', 'pkg'] }), {
    target: { runner: 'npx', spec: 'pkg', name: 'pkg', range: 'latest', rest: [] },
  })
  assert.deepEqual(lockTarget({ command: '/usr/bin/npx', args: ['@scope/pkg@^1.2', '--flag'] }), {
    target: { runner: 'npx', spec: '@scope/pkg@^1.2', name: '@scope/pkg', range: '^1.2', rest: ['--flag'] },
  })
  assert.deepEqual(lockTarget({ command: 'npm', args: ['exec', '--yes', '--package', 'pkg@1.0.0', 'tool', '--x'] }), {
    target: { runner: 'npm exec', spec: 'pkg@1.0.0', name: 'pkg', range: '1.0.0', bin: 'tool', rest: ['--x'] },
  })
  assert.deepEqual(lockTarget({ command: 'npx', args: ['--package=pkg', 'other-bin'] }), {
    target: { runner: 'npx', spec: 'pkg', name: 'pkg', range: 'latest', bin: 'other-bin', rest: [] },
  })
})

test('nothing to lock: no runner, a remote server; refused by name: other runners, paths and URLs', () => {
  assert.equal(lockTarget({ command: 'node', args: ['x.js'] }), undefined)
  assert.equal(lockTarget({}), undefined)
  for (const [command, args, runner] of [
    ['bunx', ['pkg'], 'bunx'],
    ['pnpm', ['dlx', 'pkg'], 'pnpm dlx'],
    ['yarn', ['dlx', 'pkg'], 'yarn dlx'],
    ['uvx', ['pkg'], 'uvx'],
    ['pipx', ['run', 'pkg'], 'pipx run'],
  ] as const) {
    const r = lockTarget({ command, args: [...args] })
    assert.ok(r && 'refuse' in r, command)
    assert.match(r.refuse, new RegExp(`^${runner} is not supported by the lock yet`))
  }
  for (const pkg of ['./local', 'github:a/b', 'https://example.invalid/x.tgz']) {
    const r = lockTarget({ command: 'npx', args: [pkg] })
    assert.ok(r && 'refuse' in r, pkg)
  }
})
