/**
 * The pure and file-level parts of lazy servers: lifecycle is tuning (no key), the cache file (0600 in 0700 whatever the
 * umask; missing, corrupt, foreign-version, other-key and linked files read
 * as "no cache", never an error), re-deriving public names, the lifecycle
 * policy of shared mounts, and delivery classes.
 */
import assert from 'node:assert/strict'
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { cacheFingerprint, mountKey, trustFingerprint } from '../../src/config/fingerprint.ts'
import { toOfficialConfig } from '../../src/config/official.ts'
import { EntrySchema } from '../../src/config/schema.ts'
import type { Placement } from '../../src/plan/desired.ts'
import { publicToolName } from '../../src/plan/tool-names.ts'
import {
  CACHE_VERSION,
  type CacheRecord,
  cachedTool,
  cachePath,
  readCache,
  toolsUnder,
  writeCache,
} from '../../src/lazy/cache.ts'
import { classifyFailure, deliveryText } from '../../src/lazy/delivery.ts'
import { lifecyclePolicy } from '../../src/lazy/policy.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

const entry = (o: Record<string, unknown>) => EntrySchema.parse({ command: 'node', args: ['s.js'], ...o })

test('lifecycle changes no cache key, no trust fingerprint, no mount key (key rules: cache-key.test.ts)', () => {
  const secret = new Uint8Array(32).fill(7)
  const key = (e: ReturnType<typeof entry>) =>
    cacheFingerprint(
      { name: 's', origin: '/p', launch: { ...toOfficialConfig('s', e, { root: '/p', platform: 'linux' }) } },
      secret,
    )
  const eager = entry({})
  const lazy = entry({ lifecycle: 'lazy', idleTimeoutMs: 5 })
  assert.equal(key(lazy), key(eager))
  assert.equal(trustFingerprint(lazy), trustFingerprint(eager), 'lifecycle is not a trust question')
  assert.equal(
    mountKey(toOfficialConfig('s', lazy, { root: '/p', platform: 'linux' })),
    mountKey(toOfficialConfig('s', eager, { root: '/p', platform: 'linux' })),
    'nor a remount',
  )
  assert.ok(
    !JSON.stringify(toOfficialConfig('s', lazy, { root: '/p', platform: 'linux' })).includes('lifecycle'),
    'never sent to the official client',
  )
})

const record = (key: string, server = 'srv'): CacheRecord => ({
  version: CACHE_VERSION,
  key,
  server,
  recordedAt: new Date(0).toISOString(),
  tools: [
    cachedTool(server, {
      name: publicToolName(server, 'echo'),
      description: 'Echo',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
    }),
    cachedTool(server, {
      name: publicToolName(server, 'read.file'),
      description: 'Read',
      parameters: { type: 'object' },
    }),
  ],
})

test('cache files: 0600 in a 0700 directory whatever the umask, atomic, read back', () => {
  const home = makeTempDir('dsh-mcp-cache-')
  const old = process.umask(0)
  try {
    assert.equal(writeCache(home.path, record('k1')), true)
  } finally {
    process.umask(old)
  }
  assert.equal(statSync(path.join(home.path, 'mcp-cache')).mode & 0o777, 0o700)
  assert.equal(statSync(cachePath(home.path, 'k1')).mode & 0o777, 0o600)
  assert.deepEqual(readCache(home.path, 'k1'), record('k1'))
  assert.ok(!JSON.stringify(record('k1')).includes('TOKEN'))
})

test('a missing, corrupt, foreign-version, other-key or linked cache file is no cache, never an error', () => {
  const home = makeTempDir('dsh-mcp-cache-')
  assert.equal(readCache(home.path, 'none'), undefined, 'missing (no directory)')
  writeCache(home.path, record('good'))
  const write = (key: string, text: string) => writeFileSync(cachePath(home.path, key), text)
  write('corrupt', '{"version": 1, "key": "corrupt", ')
  write('foreign', JSON.stringify({ ...record('foreign'), version: 99 }))
  write('other', JSON.stringify(record('somebody-else')))
  write('badtools', JSON.stringify({ ...record('badtools'), tools: [{ name: 3 }] }))
  write('empty', '')
  for (const k of ['corrupt', 'foreign', 'other', 'badtools', 'empty'])
    assert.equal(readCache(home.path, k), undefined, k)
  symlinkSync(cachePath(home.path, 'good'), cachePath(home.path, 'linked'))
  assert.equal(readCache(home.path, 'linked'), undefined, 'a symbolic link is not followed')
  mkdirSync(cachePath(home.path, 'dir'))
  assert.equal(readCache(home.path, 'dir'), undefined, 'a directory')
  // A planted link at the file's place is replaced, never written through.
  const victim = home.write('victim.txt', 'keep')
  symlinkSync(victim, cachePath(home.path, 'planted'))
  assert.equal(writeCache(home.path, record('planted')), true)
  assert.equal(readCache(home.path, 'planted')?.key, 'planted')
  assert.equal(statSync(victim).size, 4)
})

test('public names re-derive under another effective name unless the official client hashed one', () => {
  const r = record('k', 'srv')
  assert.equal(toolsUnder(r, 'srv'), r.tools)
  assert.equal(r.tools[1]!.raw, undefined, 'a hashed name keeps no raw name')
  assert.equal(toolsUnder(r, 'srv-2'), undefined)
  const clean = { ...r, tools: [r.tools[0]!] }
  assert.deepEqual(
    toolsUnder(clean, 'srv-2')?.map((t) => t.name),
    ['mcp__srv-2__echo'],
  )
})

test('lifecycle policy: a shared mount is lazy only when every row is; 0 idle wins', () => {
  const p = (key: string, o: Partial<Placement> = {}): Placement => ({
    name: key,
    layer: 'project',
    file: 'f',
    verdict: { tag: 'runs', why: null, reason: null },
    key,
    ...o,
  })
  const policy = lifecyclePolicy(
    {
      global: [p('u', { layer: 'user' })],
      projects: new Map([
        [
          '/a',
          [
            p('k', { lifecycle: 'lazy', idleTimeoutMs: 100 }),
            p('m', { lifecycle: 'lazy', idleTimeoutMs: 0 }),
            p('x', { verdict: { tag: 'needs-trust', why: 'new', reason: null } }),
          ],
        ],
        [
          '/b',
          [
            p('k', { lifecycle: 'lazy', idleTimeoutMs: 300 }),
            p('m', { lifecycle: 'lazy', idleTimeoutMs: 50 }),
            p('e'),
            p('u', { lifecycle: 'lazy' }),
          ],
        ],
      ]),
    },
    { defaultLifecycle: 'eager', idleTimeoutMs: 1000 },
  )
  assert.deepEqual(policy.get('k'), { lazy: true, idleMs: 300 })
  assert.deepEqual(policy.get('m'), { lazy: true, idleMs: 0 })
  assert.equal(policy.get('e')?.lazy, false, 'the default')
  assert.equal(policy.get('u')?.lazy, false, 'one eager row keeps a shared mount eager')
  assert.equal(policy.has('x'), false)
  assert.equal(
    lifecyclePolicy({ global: [p('d')], projects: new Map() }, { defaultLifecycle: 'lazy', idleTimeoutMs: 7 }).get('d')
      ?.idleMs,
    7,
  )
})

test('delivery classes', () => {
  assert.equal(classifyFailure('unknown tool "mcp__a__b"', 'UNKNOWN_TOOL'), 'not_sent')
  assert.equal(classifyFailure('tool call aborted before dispatch', 'ABORTED_BEFORE_DISPATCH'), 'not_sent')
  assert.equal(classifyFailure('Not connected'), 'not_sent')
  assert.equal(classifyFailure('Streamable HTTP error: fetch failed'), 'not_sent')
  assert.equal(classifyFailure('MCP error -32001: Request timed out'), 'may_have_run')
  assert.equal(classifyFailure('MCP error -32000: Connection closed'), 'may_have_run')
  assert.equal(classifyFailure('This operation was aborted'), 'may_have_run')
  assert.equal(classifyFailure('MCP error -32602: Invalid arguments'), 'server_error')
  assert.equal(classifyFailure('[x] fail: something broke'), 'server_error')
  assert.match(deliveryText('not_sent', 'boom'), /^not_sent: boom \(.*safe to retry/)
  assert.match(deliveryText('may_have_run', 'boom'), /do not retry blindly/)
})
