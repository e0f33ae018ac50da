/**
 * The host starts each stdio server itself — no launcher process in between
 * (issue 28, item 3) — and keeps every guarantee the launcher gave, on a
 * real host: the server is a direct child of the host process, leads its
 * own process group, carries the mount's tree marker and never the launch
 * spec ($DSH_MCP_LAUNCH) nor a variable the spec unsets; its stderr never
 * reaches the host's stderr, only its private log, redacted; a helper it
 * leaves in its group dies when the server exits on its own (the launcher
 * ended the group then); the host's watchdog (one process, not one per
 * server) runs apart from the host's process group with none of the tree's
 * marker; after the plugin's dispose nothing of the tree is left.
 * Linux (/proc).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { procStat } from '../../src/launch/procs.ts'
import { serverLogFile } from '../../src/launch/spec.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { watchdog } from '../../src/host/watchdog.ts'
import { stdioFixtureShell } from '../support/fixture-config.ts'
import { markerRig } from '../support/markers.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { aliveNotZombie as alive } from '../support/procs.ts'
import { waitFor } from '../support/wait.ts'

const LINUX = process.platform === 'linux'
const rig = markerRig('host-direct')
const worlds: RuntimeWorld[] = []
after(async () => {
  for (const w of worlds) await w.dispose()
})

const pidIn = (file: string) =>
  existsSync(file) && /^\d+\n?$/.test(readFileSync(file, 'utf8')) ? Number(readFileSync(file, 'utf8')) : undefined
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')

test('a mounted stdio server is the host’s own child, in its own group, marked, its stderr only in its log, redacted', {
  skip: !LINUX && 'Linux (/proc)',
}, async () => {
  const w = await startWorld({ debounceMs: 30, mountTimeoutMs: 30_000 })
  worlds.push(w)
  const serverPid = rig.marker('server-pid')
  const helperPid = rig.marker('helper-pid')
  const secret = 'sk-direct-canary-5531'
  const script = [
    // `$$$$`: the config writes `$$` as `$`.
    `echo $$$$ > '${serverPid}'`,
    `sleep 1000 & echo $! > '${helperPid}'`,
    'echo "token $API_TOKEN printed" >&2',
    `exec ${stdioFixtureShell({ name: 'direct', tools: ['t'] })}`,
  ].join('; ')
  const p = projectWith({ direct: { command: 'sh', args: ['-c', script], env: { API_TOKEN: secret } } })
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  const row = w.mcp.snapshot().projects.find((x) => x.root === p.path)?.servers[0]
  assert.equal(row?.state, 'mounted', row?.lastError ?? '')
  const pid = await waitFor(() => pidIn(serverPid), { message: 'the server never wrote its pid' })
  const helper = await waitFor(() => pidIn(helperPid), { message: 'the helper never started' })

  const st = procStat(pid)
  assert.equal(st.ppid, process.pid, 'the server’s parent is the host itself (no launcher process)')
  assert.equal(st.pgid, pid, 'the server leads its own process group')
  assert.equal(procStat(helper).pgid, pid, 'its helper is in that group')
  const env = environ(pid)
  assert.ok(
    env.some((e) => /^DSH_MCP_TREE=[0-9a-f]{8,64}$/.test(e)),
    'the tree marker is in the server’s environment',
  )
  assert.ok(!env.some((e) => e.startsWith('DSH_MCP_LAUNCH=')), 'the launch spec never reaches the server')

  const dog = watchdog().pid
  assert.ok(dog !== undefined, 'the host’s watchdog runs')
  assert.notEqual(procStat(dog).pgid, procStat(process.pid).pgid, 'the watchdog is not in the host’s process group')
  assert.ok(!environ(dog).some((e) => e.startsWith('DSH_MCP_TREE=')), 'the watchdog carries no tree’s marker')

  const log = serverLogFile(w.home.path, canonicalRoot(p.path), 'direct')
  const text = await waitFor(
    () => (existsSync(log) && readFileSync(log, 'utf8').includes('printed') ? readFileSync(log, 'utf8') : undefined),
    { message: 'the server’s stderr never reached its log' },
  )
  assert.match(text, /server\| token \*\*\* printed/)
  assert.ok(!text.includes(secret), 'the secret is stored raw')

  await w.stop()
  await waitFor(() => !alive(pid) && !alive(helper), { message: 'the server or its helper outlived the dispose' })
})

test('a helper the server leaves in its group dies when the server exits on its own', {
  skip: !LINUX && 'Linux (/proc)',
}, async () => {
  const w = await startWorld({ debounceMs: 30, mountTimeoutMs: 30_000 })
  worlds.push(w)
  const helperPid = rig.marker('helper-pid')
  const script = [
    `[ -s '${helperPid}' ] || { sleep 1000 & echo $! > '${helperPid}'; }`,
    `exec ${stdioFixtureShell({ name: 'leaver', tools: ['t'], exitAfterMs: 500 })}`,
  ].join('; ')
  const p = projectWith({
    leaver: { command: 'sh', args: ['-c', script], reconnect: { maxAttempts: 1, initialDelayMs: 50 } },
  })
  await w.host.createAgent({ cwd: p.path })
  const helper = await waitFor(() => pidIn(helperPid), { message: 'the helper never started' })
  // The plugin stays loaded: only the server's own exit can end the helper.
  await waitFor(() => !alive(helper), { message: 'the helper outlived its server' })
})
