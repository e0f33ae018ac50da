/**
 * The trust gate on a real host: a fresh project's servers (local, project,
 * legacy) are never spawned and none of their tools reach an agent; one
 * warning per server says the exact command; trusting through the real CLI
 * mounts them live, untrusting or deleting the store takes them down live;
 * user-layer servers need no trust; a repository can never trust itself;
 * `DSH_MCP_TRUST_ALL=1` and `trust: 'all'` turn the gate off.
 */
import assert from 'node:assert/strict'
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { test } from 'node:test'
import * as plugin from '../../src/index.ts'
import type { ProjectMcp } from '../../src/index.ts'
import { runCli } from '../support/cli.ts'
import { createHost, mcpToolNames } from '../support/host.ts'
import { markerRig } from '../support/markers.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, projectWith, startWorld } from '../support/runtime.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'
import {
  assertHeldBack,
  cli,
  serverOf,
  statusStates,
  statusText,
  trustAll,
  untilTools,
  warnings,
  reconcileTimes,
} from '../support/trust.ts'
const { marker, entry } = markerRig()

test('a fresh project spawns nothing until trusted through the CLI; then it mounts live; untrust and a deleted store take it down live', async (t) => {
  const m = { alpha: marker('alpha'), loc: marker('loc'), leg: marker('leg'), u: marker('u') }
  const w = await startWorld({ trust: 'require', debounceMs: 20, userFile: friendly({ u: entry('u', m.u, ['u1']) }) })
  t.after(() => w.dispose())
  const legacy = entry('leg', m.leg, ['g1'])
  const p = makeProject(
    {
      '.dsh/mcp.yml': friendly({ alpha: entry('alpha', m.alpha, ['a1']) }),
      '.dsh/mcp.local.yml': friendly({ loc: entry('loc', m.loc, ['l1']) }),
      '.mcp.json': JSON.stringify({ mcpServers: { leg: { command: legacy.command, args: legacy.args } } }),
    },
    'dsh mcp project ',
  )
  const root = p.path
  const agent = (await w.host.createAgent({ cwd: root })).agent
  await w.mcp.whenIdle()

  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__u__u1'], 'only the user-layer server is offered')
  for (const n of ['alpha', 'loc', 'leg'] as const) assert.deepEqual(readMarker(m[n]), [], `${n} was never spawned`)
  assert.equal(readMarker(m.u).length, 1, 'the user layer needs no trust')
  const command = (n: string) => `dsh-mcp trust -C '${root}' ${n}`
  for (const n of ['alpha', 'loc', 'leg']) {
    const s = serverOf(w, root, n)
    assert.equal(s.state, 'untrusted')
    assert.equal(s.effectiveName, null)
    assert.ok(s.lastError?.includes(command(n)), s.lastError ?? '')
  }
  assert.deepEqual(statusStates(w, root).sort(), [
    ['alpha', 'untrusted'],
    ['leg', 'untrusted'],
    ['loc', 'untrusted'],
    ['u', 'mounted'],
  ])

  // One warning per server, with the exact command; further reconciles add none.
  const notTrusted = (n: string) => warnings(w, `"${n}"`).filter((l) => l.includes('is not trusted'))
  for (const n of ['alpha', 'loc', 'leg']) {
    assert.equal(notTrusted(n).length, 1, `one warning for ${n}`)
    assert.ok(notTrusted(n)[0]!.endsWith(command(n)), notTrusted(n)[0])
  }
  assert.match(notTrusted('loc')[0]!, /^local server "loc" \(\.dsh\/mcp\.local\.yml in /)
  assert.match(notTrusted('leg')[0]!, /^legacy server "leg" \(\.mcp\.json in /)
  p.write('.dsh/mcp.yml', readFileSync(p.join('.dsh/mcp.yml'), 'utf8'))
  await reconcileTimes(w, 3)
  for (const n of ['alpha', 'loc', 'leg']) assert.equal(notTrusted(n).length, 1, `still one warning for ${n}`)
  assert.equal(
    w.host.logs.filter((l) => l.text.includes('dsh-mcp trust')).length,
    3,
    'no other line repeats the command',
  )

  // Trust with the real CLI (same DSH_HOME): mounted without a restart.
  await trustAll(w, root)
  await untilTools(
    w,
    agent,
    ['mcp__alpha__a1', 'mcp__leg__g1', 'mcp__loc__l1', 'mcp__u__u1'],
    'trusted servers mount live',
  )
  for (const n of ['alpha', 'loc', 'leg', 'u'] as const) assert.equal(readMarker(m[n]).length, 1, `${n} spawned once`)
  assert.deepEqual(statusStates(w, root).sort(), [
    ['alpha', 'mounted'],
    ['leg', 'mounted'],
    ['loc', 'mounted'],
    ['u', 'mounted'],
  ])
  assert.equal(serverOf(w, root, 'alpha').lastError, null)

  // Untrust one server: it goes down at once and is warned about again.
  await cli(w, root, ['untrust', 'alpha'])
  await untilTools(w, agent, ['mcp__leg__g1', 'mcp__loc__l1', 'mcp__u__u1'], 'untrusted server unmounts live')
  assert.equal(serverOf(w, root, 'alpha').state, 'untrusted')
  assert.equal(notTrusted('alpha').length, 2)

  // Deleting the store withdraws all trust, live.
  rmSync(w.home.join('mcp-trust.json'))
  await untilTools(w, agent, ['mcp__u__u1'], 'a deleted store trusts nothing')
  await reconcileTimes(w, 2)
  for (const n of ['alpha', 'loc', 'leg'] as const) assert.equal(readMarker(m[n]).length, 1, `${n} not spawned again`)
  assert.deepEqual(statusStates(w, root).sort(), [
    ['alpha', 'untrusted'],
    ['leg', 'untrusted'],
    ['loc', 'untrusted'],
    ['u', 'mounted'],
  ])
})

/** The plugin on a bare host with `dshHome` wherever the test wants it. */
async function bootAt(
  dshHome: string,
  cwd: string,
): Promise<{ mcp: ProjectMcp; host: Awaited<ReturnType<typeof createHost>>; dispose(): Promise<void> }> {
  const host = await createHost({ cwd })
  await host.ctx.plugin(plugin, { dshHome, cwd, trust: 'require' })
  return { host, mcp: host.ctx.get('projectMcp') as ProjectMcp, dispose: () => host.dispose() }
}

test('a repository cannot trust itself: a valid store anywhere inside it, even as DSH_HOME, is never read as trust', async (t) => {
  const m = marker('self')
  const p = projectWith({ s: entry('s', m) })
  // A genuine store for this project, made outside it by the real CLI …
  const outside = makeTempDir('dsh-mcp-home-')
  const made = await runCli(['trust', '--all', '--yes', '-C', p.path], {
    cwd: p.path,
    dshHome: outside.path,
    home: outside.path,
  })
  assert.equal(made.code, 0, made.stderr)
  const good = outside.join('mcp-trust.json')
  // … planted all over the repository, including where DSH_HOME points.
  for (const rel of ['mcp-trust.json', '.dsh/mcp-trust.json', '.git/mcp-trust.json', 'home/mcp-trust.json']) {
    p.mkdir(rel.split('/').slice(0, -1).join('/') || '.')
    copyFileSync(good, p.join(rel))
    chmodSync(p.join(rel), 0o600)
  }
  const inRepo = await bootAt(p.join('home'), p.path)
  t.after(() => inRepo.dispose())
  await inRepo.host.createAgent({ cwd: p.path })
  await inRepo.mcp.whenIdle()
  await inRepo.mcp.reload()
  await inRepo.mcp.whenIdle()
  assert.deepEqual(readMarker(m), [], 'never spawned')
  assert.deepEqual(mcpToolNames(inRepo.host.ctx), [])
  const s = inRepo.mcp.snapshot().projects.find((x) => x.root === p.path)!.servers[0]!
  assert.equal(s.state, 'untrusted')
  const ignored = inRepo.host.logsMatching('the trust store is ignored')
  assert.equal(ignored.length, 1)
  assert.match(ignored[0]!.text, /inside the project/)
  await inRepo.dispose()

  // Control: the very same store, outside the repository, is trust.
  const control = await bootAt(outside.path, p.path)
  t.after(() => control.dispose())
  await control.host.createAgent({ cwd: p.path })
  await control.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(control.host.ctx), ['mcp__s__t'])
  assert.equal(readMarker(m).length, 1)
})

test('a symlink at $DSH_HOME/mcp-trust.json pointing into the repository is never read; replacing it with a real store trusts live', async (t) => {
  const m = marker('link')
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({ s: entry('s', m) })
  await trustAll(w, p.path)
  const store = w.home.join('mcp-trust.json')
  const planted = p.join('.dsh', 'mcp-trust.json')
  renameSync(store, planted)
  symlinkSync(planted, store)

  const agent = await assertHeldBack(w, p.path, 's', m)
  assert.equal(w.host.logsMatching('is a symbolic link').length, 1)
  const refused = await cli(w, p.path, ['trust', '--all', '--yes'], { expectFail: true })
  assert.notEqual(refused.code, 0, 'the CLI will not write through the link either')

  rmSync(store)
  await trustAll(w, p.path)
  await untilTools(w, agent, ['mcp__s__t'], 'a real store trusts live')
  assert.equal(readMarker(m).length, 1)
})

for (const gateOff of ['env DSH_MCP_TRUST_ALL=1', "plugin option trust: 'all'"] as const) {
  test(`${gateOff} mounts project servers without a store`, async (t) => {
    const byEnv = gateOff.startsWith('env')
    if (byEnv) {
      process.env.DSH_MCP_TRUST_ALL = '1'
      t.after(() => {
        delete process.env.DSH_MCP_TRUST_ALL
      })
    }
    const m = marker(byEnv ? 'env' : 'all')
    const w = await startWorld({ trust: byEnv ? 'require' : 'all' })
    t.after(() => w.dispose())
    const p = projectWith({ s: entry('s', m) })
    const agent = (await w.host.createAgent({ cwd: p.path })).agent
    await w.mcp.whenIdle()
    assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__s__t'])
    assert.equal(readMarker(m).length, 1)
    assert.equal(serverOf(w, p.path, 's').state, 'mounted')
    assert.deepEqual(statusStates(w, p.path), [['s', 'mounted']])
    assert.equal(existsSync(w.home.join('mcp-trust.json')), false)
    assert.ok(!statusText(w, p.path).includes('untrusted'))
    assert.equal(w.host.logsMatching('dsh-mcp trust').length, 0)
  })
}
