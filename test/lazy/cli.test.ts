/**
 * The CLI side of lazy servers (the built `dsh-mcp` bundle, real files):
 * `add --lifecycle lazy --idle-timeout` writes the entry, `get` and `list`
 * show the lifecycle and the tool cache a host recorded, and bad flags are
 * usage errors that write nothing.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { toOfficialConfig } from '../../src/config/official.ts'
import { cacheKeyOf } from '../../src/plan/desired.ts'
import { ensureCacheSecret } from '../../src/lazy/secret.ts'
import { EntrySchema } from '../../src/config/schema.ts'
import { CACHE_VERSION, writeCache } from '../../src/lazy/cache.ts'
import { canonicalRoot } from '../../src/trust/store.ts'

import { makeEnv } from '../support/cli-env.ts'
import { cleanupAll } from '../support/tmp.ts'
after(() => cleanupAll())

test('add --lifecycle lazy --idle-timeout; get and list show the lifecycle and the tool cache', async () => {
  const env = makeEnv()
  const added = await env.run(['add', '--lifecycle', 'lazy', '--idle-timeout', '5000', 'lz', 'node', 'server.js'])
  assert.equal(added.code, 0, added.stderr)
  const text = env.read('.dsh/mcp.yml')
  assert.match(text, /lifecycle: lazy/)
  assert.match(text, /idleTimeoutMs: 5000/)

  let got = await env.run(['get', 'lz'])
  assert.equal(got.code, 0, got.stderr)
  assert.match(got.stdout, /lifecycle: +lazy, idle timeout 5000 ms/)
  assert.match(got.stdout, /tool cache: +none/)

  const entry = EntrySchema.parse({ command: 'node', args: ['server.js'], lifecycle: 'lazy', idleTimeoutMs: 5000 })
  const root = canonicalRoot(env.project.path)
  const row = { name: 'lz', scope: 'project' as const, file: `${root}/.dsh/mcp.yml` }
  const key = cacheKeyOf(
    row,
    root,
    env.dshHome,
    toOfficialConfig('lz', entry, { root, platform: 'linux' }),
    ensureCacheSecret(env.dshHome),
  )
  writeCache(env.dshHome, {
    version: CACHE_VERSION,
    key,
    server: 'lz',
    recordedAt: '2026-01-01T00:00:00.000Z',
    tools: [{ name: 'mcp__lz__echo', raw: 'echo', description: 'Echo', parameters: { type: 'object' } }],
  })
  got = await env.run(['get', 'lz'])
  assert.match(got.stdout, /tool cache: +1 tool\(s\), recorded 2026-01-01/)
  const json = JSON.parse((await env.run(['get', 'lz', '--json'])).stdout)
  assert.equal(json.lifecycle, 'lazy')
  assert.equal(json.idleTimeoutMs, 5000)
  assert.equal(json.cache.tools, 1)

  const list = await env.run(['list'])
  assert.match(list.stdout, /^NAME\s+SCOPE\s+STATE\s+TRANSPORT\s+TARGET\s+EFFECTIVE\s+LIFECYCLE\s+CACHE\s+ISSUES$/m)
  assert.match(list.stdout, /^lz .* lazy +1 tool\(s\)/m)

  const never = await env.run(['add', '--lifecycle', 'lazy', '--idle-timeout', '0', 'forever', 'node', 'f.js'])
  assert.equal(never.code, 0, never.stderr)
  assert.match((await env.run(['get', 'forever'])).stdout, /idle timeout never/)
})

test('bad --lifecycle and --idle-timeout values are usage errors and write nothing', async () => {
  const env = makeEnv()
  for (const args of [
    ['--lifecycle', 'sometimes'],
    ['--idle-timeout', '-1'],
    ['--idle-timeout', '1.5'],
    ['--idle-timeout', 'soon'],
  ]) {
    const before = env.snapshot()
    const r = await env.run(['add', ...args, 'x', 'node', 'x.js'])
    assert.notEqual(r.code, 0, `${args.join(' ')} accepted`)
    assert.match(r.stderr, /lifecycle|idle-timeout/)
    assert.deepEqual(env.snapshot(), before, `${args.join(' ')} wrote something`)
  }
})
