/**
 * Concurrent hosts of one project each report (issue 29 item 3): every host writes its own status file
 * (`<hash>.<pid>.json`), `dsh-mcp status` shows every running host (newest first), a host that died is left out
 * while another runs, and the next host to start removes the files of hosts that are gone (a dead pid, or the
 * older pid-less name). Real hosts: one in this process (trust: all) and real hosts in child processes
 * (test/fixtures/hosts/canary-host.ts, trust: require), on one project.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { after, test } from 'node:test'
import { statusDir, statusFilePath } from '../../src/status/path.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { runCli } from '../support/cli.ts'
import { reapAll } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { settles, waitFor } from '../support/wait.ts'

after(() => cleanupAll())
const dir = makeTempDir('dsh-mcp-status-hosts-')
const pids = dir.mkdir('pids')
after(() => reapAll(pids))
const HOST = fileURLToPath(new URL('../fixtures/hosts/canary-host.ts', import.meta.url))

/** A real host in a child process, running until stopped: its pid, and how to stop or kill it. */
async function childHost(
  dshHome: string,
  project: string,
  wait: string,
): Promise<{ child: ChildProcess; pid: number }> {
  const hostCwd = dir.mkdir(`cwd-${Math.random().toString(36).slice(2)}`)
  const child = spawn(
    process.execPath,
    ['--no-warnings', HOST, dshHome, dir.join(`log-${Date.now()}`), hostCwd, project],
    { env: { ...process.env, DSH_HOME: dshHome, CANARY_HOST_WAIT: wait }, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c
  })
  child.stderr!.resume()
  await waitFor(() => out.includes('READY') || child.exitCode !== null, { message: 'the child host is ready' })
  assert.ok(out.includes('READY'), `the child host exited early:\n${out}`)
  return { child, pid: child.pid! }
}

const exited = (c: ChildProcess) =>
  c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r()))

test('two hosts of one project both report; a dead one is left out, then removed by the next host', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({ s: stdioEntry('s', { tools: ['t'], pidfileDir: pids }) })
  const root = canonicalRoot(p.path)
  const status = async () => {
    const r = await runCli(['status', '--json', '-C', p.path], { cwd: p.path, dshHome: w.home.path, home: w.home.path })
    assert.equal(r.code, 0, r.stderr)
    return JSON.parse(r.stdout).projects as { pid: number; host: string; servers: { name: string; state: string }[] }[]
  }
  // A file an older plugin wrote (no pid in its name) for a host long gone.
  mkdirSync(statusDir(w.home.path), { recursive: true, mode: 0o700 })
  const legacy = statusFilePath(w.home.path, root).replace(`.${process.pid}.json`, '.json')

  await w.host.createAgent({ cwd: p.path })
  await waitFor(async () => (await status()).some((h) => h.servers.some((s) => s.state === 'mounted')), {
    message: 'this process’s host reports s mounted',
  })
  writeFileSync(legacy, JSON.stringify({ version: 1, root, pid: 999_999_999, host: 'running', servers: [] }), {
    mode: 0o600,
  })

  const b = await childHost(w.home.path, p.path, 's=untrusted')
  t.after(async () => {
    b.child.kill('SIGKILL')
    await exited(b.child)
  })
  const both = await status()
  assert.deepEqual(both.map((h) => h.pid).sort(), [process.pid, b.pid].sort(), 'both running hosts report')
  assert.ok(both.every((h) => h.host === 'running'))
  const byPid = new Map(both.map((h) => [h.pid, h.servers.map((s) => `${s.name}=${s.state}`)]))
  assert.deepEqual(byPid.get(process.pid), ['s=mounted'])
  assert.deepEqual(byPid.get(b.pid), ['s=untrusted'])
  assert.equal(existsSync(legacy), false, 'the older pid-less file of a gone host was removed by the child host')
  const text = await runCli(['status', '-C', p.path], { cwd: p.path, dshHome: w.home.path, home: w.home.path })
  assert.match(text.stdout, /2 hosts are running in this project/)
  assert.match(text.stdout, new RegExp(`by pid ${b.pid} \\(running\\)`))
  assert.match(text.stdout, new RegExp(`by pid ${process.pid} \\(running\\)`))

  // B dies without a word: its file stays, and is left out while this host runs.
  b.child.kill('SIGKILL')
  await settles(exited(b.child), 'the child host died')
  const bFile = statusFilePath(w.home.path, root, b.pid)
  assert.ok(existsSync(bFile), 'a killed host leaves its file')
  assert.deepEqual(
    (await status()).map((h) => h.pid),
    [process.pid],
    'the dead host is left out',
  )

  // The next host to start removes it.
  const c = await childHost(w.home.path, p.path, 's=untrusted')
  t.after(async () => {
    c.child.kill('SIGKILL')
    await exited(c.child)
  })
  assert.equal(existsSync(bFile), false, 'the next host removed the dead host’s file')
  assert.deepEqual((await status()).map((h) => h.pid).sort(), [process.pid, c.pid].sort())
  c.child.stdin!.end()
  await settles(exited(c.child), 'the child host stops')
  // Stopped cleanly: left out while this host runs.
  assert.deepEqual(
    (await status()).map((h) => h.pid),
    [process.pid],
  )
})
