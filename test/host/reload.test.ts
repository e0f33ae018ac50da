/**
 * Hot reload on a real host: edits to a project's files apply live, by
 * resolved config — added mounts, removed unmounts, changed remounts,
 * tuning-only changes reconnect nothing, and bad input never costs a
 * working server.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { statusFilePath } from '../../src/status/path.ts'
import { after, test } from 'node:test'
import { mcpToolNames, waitFor } from '../support/host.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

/** `${NAME}` without a template-looking literal in the source. */
const ref = (name: string) => '$'.concat('{', name, '}')
const escapeRe = (s: string) => s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')

test('editing a project file adds, removes and changes servers live; unrelated servers are not restarted', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const m = (n: string) => w.home.join(`marker-${n}.log`)
  const entry = (n: string, tools: string[], extra?: Record<string, unknown>) =>
    stdioEntry(n, { tools, marker: m(n), pidfileDir: w.pids, ...(extra ? { extra } : {}) })
  const a = projectWith({ one: entry('one', ['x']), two: entry('two', ['t']) })
  const file = a.join('.dsh', 'mcp.yml')
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  const names = () => mcpToolNames(w.host.ctx, agent)
  assert.deepEqual(names(), ['mcp__one__x', 'mcp__two__t'])
  const until = (want: string[], message: string) =>
    waitFor(() => JSON.stringify(names()) === JSON.stringify(want), {
      ctx: w.host.ctx,
      events: ['tools/change'],
      message,
    })

  writeFileSync(file, friendly({ one: entry('one', ['x']), two: entry('two', ['t']), three: entry('three', ['z']) }))
  await until(['mcp__one__x', 'mcp__three__z', 'mcp__two__t'], 'added server appears')

  writeFileSync(file, friendly({ one: entry('one', ['x']), three: entry('three', ['z']) }))
  await until(['mcp__one__x', 'mcp__three__z'], 'removed server disappears')

  writeFileSync(file, friendly({ one: entry('one', ['x', 'y']), three: entry('three', ['z']) }))
  await until(['mcp__one__x', 'mcp__one__y', 'mcp__three__z'], 'changed server is remounted')
  await w.mcp.whenIdle()
  assert.equal(readMarker(m('one')).length, 2, 'the changed server was restarted once')
  assert.equal(readMarker(m('three')).length, 1, 'an unrelated server was not restarted')
  assert.equal(readMarker(m('two')).length, 1)

  // Tuning only: a tools filter and a description never reconnect.
  writeFileSync(
    file,
    friendly({
      one: entry('one', ['x', 'y'], { tools: { exclude: ['x'] }, description: 'tuned' }),
      three: entry('three', ['z']),
    }),
  )
  await until(['mcp__one__y', 'mcp__three__z'], 'filter applies without a reconnect')
  await w.mcp.whenIdle()
  assert.equal(readMarker(m('one')).length, 2, 'tuning-only change did not reconnect')
  assert.equal(readMarker(m('three')).length, 1)
})

test('a broken edit keeps the previous tools and reports file:line:col once; fixing it recovers; an invalid entry skips only itself', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const marker = w.home.join('marker-keep.log')
  const keep = stdioEntry('keep', { tools: ['k'], marker, pidfileDir: w.pids })
  const a = projectWith({ keep })
  const file = a.join('.dsh', 'mcp.yml')
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__keep__k'])

  writeFileSync(file, 'servers:\n  keep: {command: node\n  other: [\n')
  await waitFor(() => w.host.logsMatching(`${file}:`).length > 0, { message: 'parse error logged' })
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__keep__k'], 'last good generation stays mounted')
  assert.equal(readMarker(marker).length, 1, 'and was not restarted')
  assert.match(w.host.logsMatching(`${file}:`)[0]!.text, new RegExp(`${escapeRe(file)}:\\d+:\\d+`))
  await w.mcp.reload()
  await w.mcp.whenIdle()
  assert.equal(w.host.logsMatching(`${file}:`).length, 1, 'the same error is logged once')

  // Fixed, with one invalid entry (command and url together) beside a new valid one.
  writeFileSync(
    file,
    friendly({
      keep,
      bad: { command: 'node', url: 'http://127.0.0.1:1/mcp' },
      fresh: stdioEntry('fresh', { tools: ['f'], pidfileDir: w.pids }),
    }),
  )
  await waitFor(() => mcpToolNames(w.host.ctx, agent).includes('mcp__fresh__f'), {
    ctx: w.host.ctx,
    events: ['tools/change'],
  })
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__fresh__f', 'mcp__keep__k'])
  assert.equal(readMarker(marker).length, 1)
  const servers = w.mcp.snapshot().projects.find((p) => p.root === a.path)!.servers
  const bad = servers.find((s) => s.name === 'bad')!
  assert.equal(bad.state, 'invalid')
  assert.match(bad.lastError ?? '', /mcp\.yml:\d+:\d+/)
})

test('a missing variable skips only that server, naming server, field and variable but no value', async (t) => {
  process.env.DSH_MCP_TEST_SECRET = 'sup3r-secret-value'
  t.after(() => {
    delete process.env.DSH_MCP_TEST_SECRET
  })
  const w = await startWorld()
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const a = projectWith({
    needs: stdioEntry('needs', { tools: ['n'], env: { TOKEN: ref('DSH_MCP_TEST_UNSET_VAR') } }),
    has: stdioEntry('has', {
      tools: ['h'],
      pidfileDir: w.pids,
      env: { TOKEN: ref('DSH_MCP_TEST_SECRET'), PLAIN: 'literal-secret' },
    }),
  })
  const agent = (await w.host.createAgent({ cwd: a.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__has__h'])
  const skip = w.host.logsMatching('DSH_MCP_TEST_UNSET_VAR')
  assert.equal(skip.length, 1)
  assert.match(skip[0]!.text, /"needs"/)
  assert.match(skip[0]!.text, /env\.TOKEN/)
  const needs = w.mcp
    .snapshot()
    .projects.find((p) => p.root === a.path)!
    .servers.find((s) => s.name === 'needs')!
  assert.equal(needs.state, 'skipped', 'a missing variable reads skipped, as in list')
  assert.match(needs.lastError ?? '', /DSH_MCP_TEST_UNSET_VAR/)
  const all = w.host.logs.map((l) => l.text).join('\n')
  assert.ok(!all.includes('sup3r-secret-value'), 'an expanded secret never reaches a log line')
  assert.ok(!all.includes('literal-secret'))
  const statusFile = statusFilePath(w.home.path, a.path)
  const status = readFileSync(statusFile, 'utf8')
  assert.ok(!status.includes('sup3r-secret-value') && !status.includes('literal-secret'), 'nor the status file')
  const doc = JSON.parse(status)
  assert.equal(doc.version, 1)
  assert.equal(doc.root, a.path)
  assert.equal(doc.pid, process.pid)
  assert.deepEqual(
    doc.servers.map(
      (s: { name: string; state: string; effectiveName: string | null; toolCount: number; layer: string }) => [
        s.name,
        s.layer,
        s.state,
        s.effectiveName,
        s.toolCount,
      ],
    ),
    [
      ['needs', 'project', 'skipped', null, 0],
      ['has', 'project', 'mounted', 'has', 1],
    ],
  )
})
