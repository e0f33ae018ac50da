/**
 * Monorepos on a real host (docs/guide/monorepos.md): a three-level
 * repository (root, packages/a with packages/a/sub, packages/b). An agent in
 * packages/a sees the root's servers and a's own, an agent in packages/b
 * never sees a's; `disable:` in packages/a hides a root server from a's
 * agents only; a root server inherited by two packages mounts once (one
 * process, one effective name); editing the root file updates the packages'
 * agents live; a root server trusted once at the root runs in every package
 * with no second review.
 */
import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { after, test } from 'node:test'
import { execTool, mcpToolNames, resultText } from '../support/host.ts'
import { countLive, reapAll } from '../support/procs.ts'
import { friendly, startWorld, stdioEntry } from '../support/runtime.ts'
import { makeProject, makeTempDir, cleanupAll } from '../support/tmp.ts'
import { cli, serverOf, untilTools } from '../support/trust.ts'

after(() => cleanupAll())

const tools = (w: { host: { ctx: Parameters<typeof mcpToolNames>[0] } }, agent: Parameters<typeof mcpToolNames>[1]) =>
  mcpToolNames(w.host.ctx, agent)

test('packages inherit the root, see only their own siblings, disable per package, share the root mount, reload live', async (t) => {
  const w = await startWorld({ userFile: friendly({ glob: stdioEntry('glob', { tools: ['g1'] }) }) })
  const rootPids = makeTempDir('dsh-mcp-rootpids-')
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
    reapAll(rootPids.path)
  })
  const repo = makeProject({
    '.dsh/mcp.yml': friendly({
      shared: stdioEntry('shared', { tools: ['s1'], pidfileDir: rootPids.path }),
      noisy: stdioEntry('noisy', { tools: ['n1'], pidfileDir: w.pids }),
    }),
    'packages/a/.dsh/mcp.yml': JSON.stringify({
      disable: ['noisy', 'glob'],
      servers: { alpha: stdioEntry('alpha', { tools: ['a1'], pidfileDir: w.pids }) },
    }),
    'packages/a/sub/README': 'deep\n',
    'packages/b/.dsh/mcp.yml': friendly({ beta: stdioEntry('beta', { tools: ['b1'], pidfileDir: w.pids }) }),
  })
  const agentA = (await w.host.createAgent({ cwd: repo.join('packages/a/sub') })).agent
  const agentB = (await w.host.createAgent({ cwd: repo.join('packages/b') })).agent
  const agentRoot = (await w.host.createAgent({ cwd: repo.path })).agent
  await w.mcp.whenIdle()

  assert.deepEqual(
    tools(w, agentA),
    ['mcp__alpha__a1', 'mcp__shared__s1'],
    'a: own + inherited, noisy and glob disabled',
  )
  assert.deepEqual(tools(w, agentB), ['mcp__beta__b1', 'mcp__glob__g1', 'mcp__noisy__n1', 'mcp__shared__s1'])
  assert.deepEqual(tools(w, agentRoot), ['mcp__glob__g1', 'mcp__noisy__n1', 'mcp__shared__s1'])
  assert.equal((await execTool(w.host.ctx, agentB, 'mcp__alpha__a1', {})).isError, true, "b never reaches a's server")
  assert.equal(
    (await execTool(w.host.ctx, agentA, 'mcp__noisy__n1', {})).isError,
    true,
    'a never reaches what it disabled',
  )
  const call = await execTool(w.host.ctx, agentA, 'mcp__shared__s1', {})
  assert.equal(call.isError, false, resultText(call))

  // One mount for the root server, whichever package inherits it.
  assert.equal(countLive(rootPids.path), 1, 'the inherited root server runs once')
  const a = repo.join('packages/a')
  const b = repo.join('packages/b')
  for (const root of [a, b, repo.path]) assert.equal(serverOf(w, root, 'shared').effectiveName, 'shared')
  assert.equal(serverOf(w, a, 'noisy').state, 'disabled')
  assert.equal(serverOf(w, a, 'glob').state, 'disabled')
  assert.equal(serverOf(w, b, 'noisy').state, 'mounted')

  // Editing the root file reaches every package's agents live.
  repo.write(
    '.dsh/mcp.yml',
    friendly({
      shared: stdioEntry('shared', { tools: ['s1'], pidfileDir: rootPids.path }),
      noisy: stdioEntry('noisy', { tools: ['n1'], pidfileDir: w.pids }),
      fresh: stdioEntry('fresh', { tools: ['f1'], pidfileDir: w.pids }),
    }),
  )
  await untilTools(w, agentA, ['mcp__alpha__a1', 'mcp__fresh__f1', 'mcp__shared__s1'], 'a sees the root edit')
  await untilTools(
    w,
    agentB,
    ['mcp__beta__b1', 'mcp__fresh__f1', 'mcp__glob__g1', 'mcp__noisy__n1', 'mcp__shared__s1'],
    'b sees the root edit',
  )

  // inherit: false in packages/a cuts the root off for a only.
  repo.write('packages/a/.dsh/mcp.local.yml', 'inherit: false\nservers: {}\n')
  await untilTools(w, agentA, ['mcp__alpha__a1'], 'a inherits nothing (and its disable: still hides glob)')
  assert.deepEqual(tools(w, agentB), [
    'mcp__beta__b1',
    'mcp__fresh__f1',
    'mcp__glob__g1',
    'mcp__noisy__n1',
    'mcp__shared__s1',
  ])
  assert.equal(countLive(rootPids.path), 1, 'the root server still serves b and the root')
})

test('a root server trusted once at the root runs in every package with no second review; a package file of its own still asks', async (t) => {
  const w = await startWorld({ trust: 'require' })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const repo = makeProject({
    '.dsh/mcp.yml': friendly({ shared: stdioEntry('shared', { tools: ['s1'], pidfileDir: w.pids }) }),
    'packages/a/.dsh/mcp.yml': friendly({ alpha: stdioEntry('alpha', { tools: ['a1'], pidfileDir: w.pids }) }),
  })
  const a = repo.join('packages/a')
  await cli(w, repo.path, ['trust', 'shared', '--yes'])
  const agentA = (await w.host.createAgent({ cwd: a })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(tools(w, agentA), ['mcp__shared__s1'], 'the root trust covers the inherited row')
  assert.equal(serverOf(w, a, 'alpha').state, 'untrusted')
  assert.match(serverOf(w, a, 'alpha').verdict?.fix ?? '', /dsh-mcp trust -C .*packages\/a alpha/)

  // Trusting from the package: the package's own row under a, nothing asked again for the root's.
  await cli(w, a, ['trust', '--all', '--yes'])
  await untilTools(w, agentA, ['mcp__alpha__a1', 'mcp__shared__s1'], 'a trusted its own server')
})

test("a root file created after the package's agent started reaches it live; deleting it withdraws it", async (t) => {
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const repo = makeProject({
    'packages/a/.dsh/mcp.yml': friendly({ alpha: stdioEntry('alpha', { tools: ['a1'], pidfileDir: w.pids }) }),
  })
  const agentA = (await w.host.createAgent({ cwd: repo.join('packages/a') })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(tools(w, agentA), ['mcp__alpha__a1'])
  const file = repo.write('.dsh/mcp.yml', friendly({ late: stdioEntry('late', { tools: ['l1'], pidfileDir: w.pids }) }))
  await untilTools(w, agentA, ['mcp__alpha__a1', 'mcp__late__l1'], 'the new root file is inherited live')
  rmSync(file)
  await untilTools(w, agentA, ['mcp__alpha__a1'], 'the deleted root file is withdrawn live')
})
