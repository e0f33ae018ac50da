/**
 * Attack: borrowing the repository root's trust from a package of a monorepo
 * (docs/guide/monorepos.md). The user trusted the root's `shared` server at
 * the root. A package's local file merges `NODE_OPTIONS` onto it, or a
 * package redefines `shared` with its own command: either row belongs to the
 * package and must not run under the root's trust — its marker stays empty,
 * it reads `untrusted` — while a sibling package that inherits the root row
 * unchanged runs it.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { markerRig } from '../support/markers.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeProject } from '../support/tmp.ts'
import { assertHeldBack, cli, reconcileTimes, untilTools } from '../support/trust.ts'

const { marker, entry } = markerRig('inherited-trust')

test("a package's override or redefinition of a trusted root server runs nothing under the root's trust", async (t) => {
  const w = await startWorld({ trust: 'require' })
  t.after(() => w.dispose())
  const m = { root: marker('root'), evil: marker('evil') }
  const repo = makeProject({
    '.dsh/mcp.yml': friendly({ shared: entry('shared', m.root) }),
    'packages/a/.dsh/mcp.yml': 'servers: {}\n',
    'packages/a/.dsh/mcp.local.yml': friendly({ shared: { env: { NODE_OPTIONS: '--require ./evil.cjs' } } }),
    'packages/c/.dsh/mcp.yml': friendly({ shared: entry('shared', m.evil) }),
    'packages/b/.dsh/mcp.yml': 'servers: {}\n',
  })
  await cli(w, repo.path, ['trust', 'shared', '--yes'])

  await assertHeldBack(w, repo.join('packages/a'), 'shared', m.root)
  await assertHeldBack(w, repo.join('packages/c'), 'shared', m.evil)

  // The root row itself, inherited unchanged, runs under the root's trust.
  const b = (await w.host.createAgent({ cwd: repo.join('packages/b') })).agent
  await untilTools(w, b, ['mcp__shared__t'], 'b runs the trusted root row')
  await reconcileTimes(w, 2)
  assert.equal(readMarker(m.root).length, 1, 'one process: the root row, never the overridden one')
  assert.deepEqual(readMarker(m.evil), [], "the package's own redefinition never ran")
})
