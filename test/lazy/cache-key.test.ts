/**
 * The tool-cache key and its secret (config/fingerprint.ts `cacheFingerprint`,
 * plan/desired.ts `cacheKeyOf`, lazy/secret.ts): one entry per effective
 * server — name, origin (the project for any repository contribution, the
 * user layer only without one), the full launch with values — as a keyed
 * hash under a per-user secret that is 0600, created without following
 * links, and refused when linked, hard-linked, loose or foreign.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { canonicalJson, cacheFingerprint } from '../../src/config/fingerprint.ts'
import type { Row } from '../../src/config/layers.ts'
import { credentialsAsHeader, toOfficialConfig } from '../../src/config/official.ts'
import { EntrySchema } from '../../src/config/schema.ts'
import { cacheKeyOf } from '../../src/plan/desired.ts'
import { CACHE_VERSION, type CacheRecord, readCache, writeCache } from '../../src/lazy/cache.ts'
import { cacheSecretPath, ensureCacheSecret, readCacheSecret } from '../../src/lazy/secret.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

const secret = new Uint8Array(32).fill(1)
const launch = (o: Record<string, unknown>, root = '/p', name = 's') =>
  credentialsAsHeader(
    toOfficialConfig(name, EntrySchema.parse({ command: 'node', args: ['s.js'], ...o }), { root, platform: 'linux' }),
  )
const key = (name: string, origin: string, l: ReturnType<typeof launch>, s = secret) =>
  cacheFingerprint({ name, origin, launch: { ...l } }, s)

test('env and header values are in the key: one binary pointed at two databases keys twice', () => {
  const a = key('db', '/p', launch({ env: { DATABASE_URL: 'postgres://one' } }))
  assert.notEqual(key('db', '/p', launch({ env: { DATABASE_URL: 'postgres://two' } })), a, 'an env value')
  assert.notEqual(key('db', '/p', launch({ env: { OTHER: 'postgres://one' } })), a, 'an env name')
  assert.notEqual(key('db', '/p', launch({ env: { DATABASE_URL: 'postgres://one' }, args: ['t.js'] })), a, 'args')
  assert.notEqual(key('db', '/p', launch({ env: { DATABASE_URL: 'postgres://one' }, cwd: 'sub' })), a, 'cwd')
  const http = (o: Record<string, unknown>) =>
    credentialsAsHeader(
      toOfficialConfig('h', EntrySchema.parse({ url: 'http://127.0.0.1:1/mcp', ...o }), {
        root: '/p',
        platform: 'linux',
      }),
    )
  const h = key('h', '/p', http({ headers: { Authorization: 'Bearer a' } }))
  assert.notEqual(key('h', '/p', http({ headers: { Authorization: 'Bearer b' } })), h, 'a header value')
  assert.notEqual(
    key('h', '/p', http({ url: 'http://u:one@127.0.0.1:1/mcp' })),
    key('h', '/p', http({ url: 'http://u:two@127.0.0.1:1/mcp' })),
    'URL userinfo',
  )
})

test('the same launch under another name or origin keys apart; tuning does not move a key', () => {
  const l = launch({})
  const a = key('s', '/p', l)
  assert.notEqual(key('t', '/p', l), a, 'another name')
  assert.notEqual(key('s', '/q', l), a, 'another origin')
  assert.equal(
    key('s', '/p', launch({ toolCallTimeoutMs: 5000, failOnStartupError: true })),
    a,
    'tuning is not identity',
  )
  assert.equal(key('s', '/p', { ...l, serverName: 'renamed' }), a, 'the name is the written name, given once')
})

test('a keyed hash under the per-user secret, never a plain hash of the launch', () => {
  const l = launch({ env: { TOKEN: 'sk-canary-0123456789' } })
  const a = key('s', '/p', l)
  assert.match(a, /^[0-9a-f]{64}$/)
  assert.notEqual(key('s', '/p', l, new Uint8Array(32).fill(2)), a, 'another user secret, another key')
  const fields = ['transport', 'command', 'args', 'cwd', 'env', 'url', 'headers', 'oauth'] as const
  const plain = Object.fromEntries(fields.map((f) => [f, (l as Record<string, unknown>)[f] ?? null]))
  for (const text of [canonicalJson(l), canonicalJson({ v: 2, name: 's', origin: '/p', launch: plain })])
    assert.notEqual(createHash('sha256').update(text).digest('hex'), a)
  assert.throws(() => key('s', '/p', l, new Uint8Array(4)), /too short/)
})

test('origin: the project for any repository contribution (a partial override of a user server), else the user layer', () => {
  const home = '/home/u/.dsh'
  const l = launch({})
  const userRow: Pick<Row, 'name' | 'scope' | 'file' | 'sources'> = {
    name: 's',
    scope: 'user',
    file: `${home}/mcp.yml`,
  }
  const overridden: typeof userRow = {
    ...userRow,
    sources: [
      { scope: 'user', file: `${home}/mcp.yml` },
      { scope: 'local', file: '/a/.dsh/mcp.local.yml', keys: ['env'] },
    ],
  }
  const globalKey = cacheKeyOf(userRow, null, home, l, secret)
  assert.equal(cacheKeyOf(userRow, '/a', home, l, secret), globalKey, 'a plain user row is one server everywhere')
  assert.equal(cacheKeyOf(userRow, '/b', home, l, secret), globalKey)
  assert.notEqual(cacheKeyOf(overridden, '/a', home, l, secret), globalKey, 'an override keys to its project')
  const projectRow = { name: 's', scope: 'project' as const, file: '/a/.dsh/mcp.yml' }
  assert.notEqual(cacheKeyOf(projectRow, '/a', home, l, secret), cacheKeyOf(projectRow, '/b', home, l, secret))
})

test('the secret file: created 0600 in a 0700 directory, stable, shared by a second reader', () => {
  const home = makeTempDir().path
  const old = process.umask(0)
  let s: Uint8Array
  try {
    s = ensureCacheSecret(home)
  } finally {
    process.umask(old)
  }
  assert.equal(s.length, 32)
  const file = cacheSecretPath(home)
  assert.equal(statSync(file).mode & 0o777, 0o600)
  assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700)
  assert.equal(statSync(file).nlink, 1)
  assert.deepEqual(ensureCacheSecret(home), s)
  assert.deepEqual(readCacheSecret(home), s)
  assert.match(readFileSync(file, 'utf8'), /^[0-9a-f]{64}\n$/)
})

test('a linked, hard-linked, loose, foreign-content or missing secret is no secret; ensure replaces it without writing through', () => {
  const mk = () => {
    const home = makeTempDir().path
    mkdirSync(path.join(home, 'mcp-cache'), { mode: 0o700 })
    return { home, file: cacheSecretPath(home) }
  }
  const good = `${'ab'.repeat(32)}\n`
  assert.equal(readCacheSecret(mk().home), undefined, 'missing')

  const sym = mk()
  const target = path.join(makeTempDir().path, 'planted')
  writeFileSync(target, good, { mode: 0o600 })
  symlinkSync(target, sym.file)
  assert.equal(readCacheSecret(sym.home), undefined, 'a symbolic link')
  const made = ensureCacheSecret(sym.home)
  assert.notDeepEqual(Buffer.from(made).toString('hex'), 'ab'.repeat(32))
  assert.equal(readFileSync(target, 'utf8'), good, 'never written through the link')

  const hard = mk()
  const outside = path.join(makeTempDir().path, 'repo-file')
  writeFileSync(outside, good, { mode: 0o600 })
  linkSync(outside, hard.file)
  assert.equal(readCacheSecret(hard.home), undefined, 'a hard link (someone else may write it)')
  ensureCacheSecret(hard.home)
  assert.equal(readFileSync(outside, 'utf8'), good, 'the other name is untouched')

  const loose = mk()
  writeFileSync(loose.file, good)
  chmodSync(loose.file, 0o644)
  assert.equal(readCacheSecret(loose.home), undefined, 'readable by others')

  const junk = mk()
  writeFileSync(junk.file, 'not a secret\n', { mode: 0o600 })
  assert.equal(readCacheSecret(junk.home), undefined, 'foreign content')

  const dirLink = makeTempDir().path
  symlinkSync(makeTempDir().path, path.join(dirLink, 'mcp-cache'))
  assert.throws(() => ensureCacheSecret(dirLink), /symbolic link/, 'the directory is never a link')
})

test('a hard-linked cache record is no cache (its other name could be a repository file)', () => {
  const home = makeTempDir().path
  const key = 'a'.repeat(64)
  const rec: CacheRecord = { version: CACHE_VERSION, key, server: 's', recordedAt: 'now', tools: [] }
  assert.ok(writeCache(home, rec))
  assert.deepEqual(readCache(home, key), rec)
  linkSync(path.join(home, 'mcp-cache', `${key}.json`), path.join(makeTempDir().path, 'repo-file.json'))
  assert.equal(readCache(home, key), undefined)
})
