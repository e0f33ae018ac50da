/**
 * `dsh-mcp tokens [--json]` (src/cli/commands/tokens.ts): per server the tool count and schema tokens from
 * the tool cache a host recorded, the total against the default budget; nothing started, no host.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { readCatalogs } from '../../bench/support/catalogs.ts'
import { toolTokens } from '../../src/budget/tokens.ts'
import { toOfficialConfig } from '../../src/config/official.ts'
import { EntrySchema } from '../../src/config/schema.ts'
import { CACHE_VERSION, writeCache } from '../../src/lazy/cache.ts'
import { ensureCacheSecret } from '../../src/lazy/secret.ts'
import { cacheKeyOf } from '../../src/plan/desired.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { makeEnv } from '../support/cli-env.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

test('tokens: recorded servers show tools and schema tokens, an unrecorded one says so; --json has the same numbers', async () => {
  const env = makeEnv()
  for (const name of ['gh', 'fresh']) assert.equal((await env.run(['add', name, 'node', `${name}.js`])).code, 0)
  const root = canonicalRoot(env.project.path)
  const github = readCatalogs().find((c) => c.server === 'github')!
  const tools = github.tools.map((t) => ({
    name: `mcp__gh__${t.name}`,
    raw: t.name,
    description: t.description,
    parameters: t.inputSchema as Record<string, unknown>,
  }))
  const entry = EntrySchema.parse({ command: 'node', args: ['gh.js'] })
  const key = cacheKeyOf(
    { name: 'gh', scope: 'project', file: `${root}/.dsh/mcp.yml` },
    root,
    env.dshHome,
    toOfficialConfig('gh', entry, { root, platform: 'linux' }),
    ensureCacheSecret(env.dshHome),
  )
  writeCache(env.dshHome, { version: CACHE_VERSION, key, server: 'gh', recordedAt: '2026-01-01T00:00:00.000Z', tools })
  const expected = tools.reduce((n, t) => n + toolTokens(t), 0)
  assert.ok(expected > 2000)

  const text = await env.run(['tokens'])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /^SERVER\s+SCOPE\s+STATE\s+TOOLS\s+TOKENS$/m)
  assert.match(text.stdout, new RegExp(`^gh\\s+project\\s+active\\s+26\\s+${expected}$`, 'm'))
  assert.match(text.stdout, /^fresh\s+project\s+active\s+-\s+not recorded$/m)
  assert.match(text.stdout, /above the default toolBudget \(2000\)/)
  assert.match(text.stdout, /1 server not recorded yet/)

  const json = JSON.parse((await env.run(['tokens', '--json'])).stdout)
  assert.equal(json.root, root)
  assert.equal(json.budget, 2000)
  assert.deepEqual(
    json.servers.map((s: { name: string; tools: number | null; tokens: number | null }) => [s.name, s.tools, s.tokens]),
    [
      ['fresh', null, null],
      ['gh', 26, expected],
    ],
  )
  assert.deepEqual(json.total, { tools: 26, tokens: expected, unrecorded: 1 })
})
