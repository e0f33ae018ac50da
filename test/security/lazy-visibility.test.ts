/**
 * Lazy servers must not open a visibility hole: a foreign agent (another
 * project) never sees a cached tool, not even inside the `tools/change` of
 * the registration that adds it — when the server goes dormant at agent
 * start, when it comes back after an idle release, and when a failed start
 * parks it again. Each variant checks the foreign view on every registry
 * change, and the marker file proves the foreign agent's calls start nothing.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { execTool, mcpToolNames } from '../support/host.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { projectWith } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { type LazyWorld, lazyWorld, waitRow, waitTools, warm } from '../support/lazy.ts'

after(() => cleanupAll())

/** Record every foreign-visible `mcp__lz__` name, checked inside each `tools/change`. */
function watchForeign(w: LazyWorld, stranger: Agent): string[] {
  const leaks: string[] = []
  w.host.ctx.on('tools/change', () => {
    for (const n of mcpToolNames(w.host.ctx, stranger)) if (n.startsWith('mcp__lz__')) leaks.push(n)
  })
  return leaks
}

/** The fixture steered by a control file (crash or not): one launch, so one cache key. */
const entry = (marker: string, pids: string, control: string, crash: boolean, extra: Record<string, unknown> = {}) => {
  writeFileSync(control, JSON.stringify({ crash }))
  return {
    command: process.execPath,
    args: stdioFixtureArgs({ name: 'lz', tools: ['echo', 'add'], marker, pidfileDir: pids, control }),
    lifecycle: 'lazy',
    toolCallTimeoutMs: 10_000,
    ...extra,
  }
}

test('a foreign agent never sees cached tools: at dormant registration, after an idle release, after a failed start', async (t) => {
  const home = makeTempDir('dsh-mcp-lazy-sec-')
  const pids = home.mkdir('pids')
  const marker = home.join('spawns.log')
  const control = home.join('control.json')
  const project = projectWith({ lz: entry(marker, pids, control, false, { idleTimeoutMs: 300 }) })
  t.after(() => reapAll(pids))
  await warm(home, project.path, 'lz')
  const w = await lazyWorld(home)
  t.after(() => w.dispose())
  // The stranger exists first: every later registration must be denied to it inside its own tools/change.
  const stranger = (await w.host.createAgent({ cwd: projectWith({}).path })).agent
  await w.mcp.whenIdle()
  const leaks = watchForeign(w, stranger)

  // 1. Dormant registration at agent start.
  const owner = (await w.host.createAgent({ cwd: project.path })).agent
  await waitTools(w, owner, ['mcp__lz__add', 'mcp__lz__echo'], 'cached tools never offered')
  assert.deepEqual(leaks, [], 'dormant registration leaked')
  const spawned = readMarker(marker).length
  assert.equal((await execTool(w.host.ctx, stranger, 'mcp__lz__echo', { text: 'x' })).isError, true)
  assert.equal(readMarker(marker).length, spawned, "the stranger's call started nothing")

  // 2. Back after an idle release.
  await execTool(w.host.ctx, owner, 'mcp__lz__echo', { text: 'wake' })
  await waitRow(w, project.path, 'lz', (s) => s.state === 'dormant', 'never released')
  await waitTools(w, owner, ['mcp__lz__add', 'mcp__lz__echo'], 'cached tools did not come back')
  assert.deepEqual(leaks, [], 're-registration after the release leaked')

  // 3. Parked again after a failed start.
  entry(marker, pids, control, true)
  // Dormant since step 2: its next start (same launch, same cache key) fails.
  await waitTools(w, owner, ['mcp__lz__add', 'mcp__lz__echo'], 'cached tools missing')
  assert.match(JSON.stringify((await execTool(w.host.ctx, owner, 'mcp__lz__echo', { text: 'x' })).content), /not_sent/)
  await waitTools(w, owner, ['mcp__lz__add', 'mcp__lz__echo'], 'cached tools did not come back after the failed start')
  assert.deepEqual(leaks, [], 're-registration after a failed start leaked')
  assert.deepEqual(mcpToolNames(w.host.ctx, stranger), [])
})
