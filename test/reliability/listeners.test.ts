/**
 * No listener grows with the number of projects or servers: 60 projects
 * watched by one real host, and `doctor` / `list --check` of the real CLI
 * bundle (a child process) over 20 servers, never make Node print
 * `MaxListenersExceededWarning` (captured with `process.on('warning')` for
 * the host, from stderr for the CLI, run on Node 20 like a user's `npm i -g`
 * — Node 22 no longer warns for AbortSignal); and, counted directly, the
 * file watcher holds as many listeners with 60 project directories as with
 * one, and the host's process listeners do not grow either.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { after, test } from 'node:test'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { runBin } from '../support/cli.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { watchFiles } from '../../src/watch/files.ts'
import { waitFor } from '../support/wait.ts'

/** The system Node (20 here: the CLI's floor), where AbortSignal still warns past 10 listeners; else this Node. */
const NODE20 = (() => {
  try {
    const v = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim()
    return v.startsWith('v20.') ? 'node' : process.execPath
  } catch {
    return process.execPath
  }
})()
after(() => cleanupAll())

test('the file watcher: listeners with 60 project directories = listeners with 1 (each directory added on its own)', async (t) => {
  const seen: string[] = []
  const w = watchFiles({ onChange: (f) => seen.push(f) })
  // The watcher never keeps the process alive on its own (persistent: false): the test does.
  const keep = setInterval(() => {}, 1000)
  t.after(async () => {
    clearInterval(keep)
    await w.close()
  })
  const files: string[] = []
  const add = async () => {
    const p = makeProject({ '.dsh/mcp.yml': 'servers: {}\n' })
    files.push(p.join('.dsh', 'mcp.yml'))
    w.setFiles(files)
    await w.ready()
    return p
  }
  await add()
  const one = w.listenerCount()
  let last = await add()
  for (let i = 2; i < 60; i++) last = await add()
  assert.equal(w.listenerCount(), one, 'listeners grew with the number of watched directories')
  // And the 60th directory is really watched.
  const { writeFileSync } = await import('node:fs')
  writeFileSync(last.join('.dsh', 'mcp.yml'), 'servers: {a: {command: x}}\n')
  await waitFor(() => seen.includes(last.join('.dsh', 'mcp.yml')), {
    timeoutMs: 30_000,
    message: 'an edit in the 60th directory was never reported',
  })
})

test('60 watched projects on a real host: no MaxListenersExceededWarning, listener counts flat', {
  timeout: 240_000,
}, async (t) => {
  const warnings: string[] = []
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`)
  process.on('warning', onWarning)
  t.after(() => process.off('warning', onWarning))
  const w = await startWorld({ debounceMs: 20 })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const counts = () => {
    const ctx = w.host.ctx as unknown as { emit?: unknown; listenerCount?: (e: string) => number }
    return {
      process: process.listenerCount('exit') + process.listenerCount('SIGINT') + process.listenerCount('SIGTERM'),
      ctx: typeof ctx.listenerCount === 'function' ? ctx.listenerCount('tools/change') : 0,
    }
  }
  const servers = (i: number) => (i % 20 === 0 ? { s: stdioEntry('s', { tools: [`p${i}`], pidfileDir: w.pids }) } : {})
  const first = projectWith(servers(0))
  await w.host.createAgent({ cwd: first.path })
  await w.mcp.whenIdle()
  const one = counts()
  for (let i = 1; i < 60; i++) {
    const p = projectWith(servers(i))
    await w.host.createAgent({ cwd: p.path })
  }
  await w.mcp.whenIdle()
  // A round of edits across the projects: every watched directory is live.
  await w.mcp.reload()
  await w.mcp.whenIdle()
  assert.equal(w.mcp.snapshot().projects.length >= 60, true, 'all 60 projects are known')
  assert.deepEqual(counts(), one, 'process and host listeners do not grow with the number of projects')
  assert.deepEqual(
    warnings.filter((x) => x.includes('MaxListenersExceeded')),
    [],
  )
})

test('doctor and list --check over 20 servers (real CLI bundle): no MaxListenersExceededWarning', {
  timeout: 240_000,
}, async (t) => {
  const http = await startHttpServer({ name: 'many', tools: ['m'] })
  t.after(() => http.close())
  const home = makeTempDir('dsh-mcp-listeners-home-')
  const entries: Record<string, unknown> = {}
  for (let i = 0; i < 20; i++) entries[`h${i}`] = { url: http.url }
  const p = makeProject({ '.dsh/mcp.yml': friendly(entries) })
  const opts = {
    cwd: p.path,
    dshHome: home.join('.dsh'),
    env: { DSH_MCP_TRUST_ALL: '1', NODE_OPTIONS: '--trace-warnings' },
  }
  for (const args of [
    ['doctor', '--timeout', '60000'],
    ['doctor', '--json', '--timeout', '60000'],
    ['list', '--check', '--timeout', '60000'],
  ]) {
    const r = await runBin(args, { ...opts, node: NODE20 })
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}\n${r.stderr}`)
    assert.doesNotMatch(
      r.stderr,
      /MaxListenersExceeded|memory leak/,
      `${args.join(' ')} printed a listener warning:\n${r.stderr}`,
    )
    if (args[1] === '--json')
      assert.equal(
        (JSON.parse(r.stdout) as { state: string }[]).filter((x) => x.state === 'ok').length,
        20,
        'all 20 were really probed',
      )
  }
})
