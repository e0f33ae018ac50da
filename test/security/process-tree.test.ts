/**
 * A server's whole process tree ends with its mount, on a real host: after
 * an unmount (the entry removed), the plugin's dispose, and the hang-kill (a
 * server that never answers `initialize`, ended at `mountTimeoutMs`, and one
 * removed while still mounting), no process is left whose argv or env holds
 * the test's unique tag. The attacker's servers try to outlive it: one run
 * through `sh -c` without `exec` (the shell stays the parent), one that
 * starts a background helper, and one whose helper ignores SIGTERM (it
 * needs the group SIGKILL), and one whose helper leaves the process group
 * and session with `setsid` (found by the launcher's tree marker). And when
 * the host itself is killed outright (SIGKILL, run as its own process): the
 * launchers notice and end their trees. Linux (/proc).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { after, test } from 'node:test'
import { waitFor } from '../support/host.ts'
import { stdioFixtureShell } from '../support/fixture-config.ts'
import { reapAll, taggedPids } from '../support/procs.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

const tagged = taggedPids

const fixture = (name: string, hang: boolean) => stdioFixtureShell({ name, tools: ['t'], hang })
/** The three ways to outlive a server; every process carries the tag in its env. */
function servers(tag: string, hang = false): Record<string, unknown> {
  const env = { PROC_TAG: tag }
  return {
    noexec: { command: 'sh', args: ['-c', `${fixture('noexec', hang)}; echo after`], env },
    helper: { command: 'sh', args: ['-c', `sleep 1000 & exec ${fixture('helper', hang)}`], env },
    stubborn: {
      command: 'sh',
      args: ['-c', `(trap '' TERM; while :; do sleep 1; done) & exec ${fixture('stubborn', hang)}`],
      env,
    },
    // Leaves the process group and the session: only the launcher's tree marker finds it.
    escapee: { command: 'sh', args: ['-c', `setsid sleep 1000 & exec ${fixture('escapee', hang)}`], env },
  }
}
/** launcher + sh + fixture (noexec), launcher + sleep + fixture (helper), launcher + subshell + sleep + fixture (stubborn), launcher + setsid sleep + fixture (escapee). */
const AT_LEAST = 9

const worlds: RuntimeWorld[] = []
after(async () => {
  for (const w of worlds) {
    await w.dispose()
    reapAll(w.pids)
  }
  cleanupAll()
})

async function world(mountTimeoutMs: number): Promise<RuntimeWorld> {
  const w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs })
  worlds.push(w)
  return w
}

const gone = (tag: string, what: string) =>
  waitFor(() => tagged(tag).length === 0, {
    timeoutMs: 30_000,
    intervalMs: 50,
    message: `${what}: processes left behind (${tagged(tag).join(', ')})`,
  })

test('unmount: removing the entries ends every process of their trees', async () => {
  const w = await world(30_000)
  const tag = `tree-unmount-${randomBytes(6).toString('hex')}`
  const p = projectWith(servers(tag))
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  const states = w.mcp
    .snapshot()
    .projects.find((x) => x.root === p.path)
    ?.servers.map((s) => s.state)
  assert.deepEqual(states, ['mounted', 'mounted', 'mounted', 'mounted'])
  await waitFor(() => tagged(tag).length >= AT_LEAST, {
    timeoutMs: 30_000,
    message: `every tree is running (${tagged(tag).length})`,
  })
  writeFileSync(p.join('.dsh', 'mcp.yml'), friendly({}))
  await gone(tag, 'after unmount')
})

test('dispose: the plugin going away ends every process of every tree', async () => {
  const w = await world(30_000)
  const tag = `tree-dispose-${randomBytes(6).toString('hex')}`
  const p = projectWith(servers(tag))
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  await waitFor(() => tagged(tag).length >= AT_LEAST, {
    timeoutMs: 30_000,
    message: `every tree is running (${tagged(tag).length})`,
  })
  await w.stop()
  await gone(tag, 'after dispose')
})

test('hang-kill: a server that never answers is ended with its whole tree, at the timeout and when removed mid-mount', async () => {
  const w = await world(2000)
  const tag = `tree-hang-${randomBytes(6).toString('hex')}`
  const p = projectWith(servers(tag, true))
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  const rows = w.mcp.snapshot().projects.find((x) => x.root === p.path)?.servers ?? []
  for (const r of rows) assert.match(r.lastError ?? '', /within 2000 ms/, r.name)
  await gone(tag, 'after the timeout')

  // Removed while still mounting: a bound long enough that only the removal can end them.
  const v = await world(120_000)
  const tag2 = `tree-hang2-${randomBytes(6).toString('hex')}`
  const q = projectWith(servers(tag2, true))
  await v.host.createAgent({ cwd: q.path })
  await waitFor(() => tagged(tag2).length >= AT_LEAST, { timeoutMs: 30_000, message: 'every hung tree is running' })
  writeFileSync(q.join('.dsh', 'mcp.yml'), friendly({}))
  await gone(tag2, 'after removal mid-mount')
})

test("host killed with SIGKILL: the launchers end their servers' trees on their own", async () => {
  const tag = `tree-hostkill-${randomBytes(6).toString('hex')}`
  const p = projectWith(servers(tag))
  const home = makeTempDir('dsh-mcp-tree-home-')
  const child = spawn(
    process.execPath,
    [
      '--no-warnings',
      fileURLToPath(new URL('../fixtures/hosts/process-host-child.ts', import.meta.url)),
      home.path,
      p.path,
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  )
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    out += c
  })
  const exited = new Promise((r) => child.once('exit', r))
  await waitFor(() => out.includes('READY'), { timeoutMs: 60_000, message: 'the host child is ready' })
  await waitFor(() => tagged(tag).length >= AT_LEAST, {
    timeoutMs: 30_000,
    message: `every tree is running (${tagged(tag).length})`,
  })
  child.kill('SIGKILL')
  await exited
  await gone(tag, 'after the host was killed')
})
