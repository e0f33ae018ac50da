/**
 * Issue 12 class 3 (review content; the reviewed lists themselves are unit-tested in
 * test/config/code-env.test.ts and runners.test.ts): the trust review shows everything that
 * decides what runs — the full command line, the resolved working
 * directory, the URL — and in full, flagged, every env var whose name can
 * load or redirect code (a reviewed constant, pinned here), while every
 * other value stays redacted; it warns on an unpinned package runner with
 * the exact pinned form. Tried as an attacker: a hidden `LD_PRELOAD`, a
 * `npx -y` of whatever a name resolves to today, and a review that nobody
 * confirmed — the host spawns nothing until the user says yes (markers).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mcpToolNames } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cli, reconcileTimes, serverOf, untilTools } from '../support/trust.ts'
import { markerRig } from '../support/markers.ts'

const { pids, marker } = markerRig('review')

test('the review shows code-loading env values in full and flagged, other values redacted, the cwd resolved, and the pinned form of npx -y', async (t) => {
  const w = await startWorld({ trust: 'require' })
  t.after(() => w.dispose())
  const p = projectWith({
    srv: {
      command: 'npx',
      args: ['-y', 'helpful-mcp'],
      cwd: 'tools',
      env: { LD_PRELOAD: '/tmp/evil.so', npm_config_registry: 'http://127.0.0.1:9/', API_TOKEN: 'sekrit-value-123' },
    },
    web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer hdr-secret-456' } },
  })
  const r = await cli(w, p.path, ['trust', '--all', '--yes', '--verbose'])
  const out = r.stdout
  assert.match(out, /command: +npx -y helpful-mcp\n/)
  assert.match(out, new RegExp(`cwd: +${p.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/tools\\n`))
  assert.match(out, /url: +http:\/\/127\.0\.0\.1:9\/mcp\n/)
  assert.match(out, /! env LD_PRELOAD=\/tmp\/evil\.so +\(can load or redirect code: shown in full\)/)
  assert.match(out, /! env npm_config_registry=http:\/\/127\.0\.0\.1:9\/ +\(can load or redirect code/)
  assert.match(out, /! npx fetches "helpful-mcp" as it is on the registry at each start/)
  assert.match(out, /pin an exact version instead: npx -y 'helpful-mcp@<version>'/)
  assert.doesNotMatch(out + r.stderr, /sekrit-value-123|hdr-secret-456/, 'other values stay redacted')
  assert.match(out, /env keys: +LD_PRELOAD, npm_config_registry, API_TOKEN/)
})

test('a review nobody confirmed trusts nothing: the host never spawns the server; confirmed, it runs', async (t) => {
  const m = marker('review')
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({
    s: stdioEntry('s', { tools: ['t'], marker: m, pidfileDir: pids, env: { NODE_OPTIONS: '--max-old-space-size=64' } }),
  })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  const refused = await cli(w, p.path, ['trust', 's'], { expectFail: true })
  assert.equal(refused.code, 1)
  assert.match(refused.stdout, /! env NODE_OPTIONS=--max-old-space-size=64/)
  assert.match(refused.stderr, /not trusting without confirmation/)
  await reconcileTimes(w, 2)
  assert.deepEqual(readMarker(m), [])
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [])
  assert.equal(serverOf(w, p.path, 's').state, 'untrusted')
  await cli(w, p.path, ['trust', 's', '--yes'])
  await untilTools(w, agent, ['mcp__s__t'], 'confirmed, it runs')
  assert.equal(readMarker(m).length, 1)
})
