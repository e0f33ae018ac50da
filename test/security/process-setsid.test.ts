/**
 * Helpers outlive nothing (issue 24, item 8(e)), on a real host: a server
 * starts a plain background helper (same process group) and one that leaves
 * the group and the session with `setsid` (and a double fork through `sh`);
 * each writes its pid to a pidfile. Both are alive while the server runs
 * (the setsid one in a session of its own), and after the plugin's dispose
 * neither pid is alive: the group by its pgid, the setsid one by the tree
 * marker the launcher put in the tree's environment (launch/tree.ts). Also
 * after an unmount (the entry removed). Linux (/proc).
 *
 * The documented limit (docs/guide/trust.md): a helper that leaves the
 * session *and* drops the marker from its environment (`env -i`) is not
 * found.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { procStat } from '../../src/launch/procs.ts'
import { stdioFixtureShell } from '../support/fixture-config.ts'
import { markerRig } from '../support/markers.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { aliveNotZombie as alive } from '../support/procs.ts'
import { waitFor } from '../support/wait.ts'

const rig = markerRig('setsid')
const worlds: RuntimeWorld[] = []
after(async () => {
  for (const w of worlds) await w.dispose()
})

function servers(plain: string, escaped: string): Record<string, unknown> {
  const fixture = (name: string) => stdioFixtureShell({ name, tools: ['t'] })
  return {
    plain: { command: 'sh', args: ['-c', `sleep 1000 & echo $! > '${plain}'; exec ${fixture('plain')}`] },
    escaped: {
      command: 'sh',
      // setsid + a double fork: re-parented, in a new session and group (`$$$$`: the config writes `$$` as `$`).
      args: ['-c', `setsid sh -c 'echo $$$$ > "$0"; exec sleep 1000' '${escaped}' & exec ${fixture('escaped')}`],
    },
  }
}

const pidOf = (file: string) => Number(readFileSync(file, 'utf8').trim())

for (const how of ['dispose', 'unmount'] as const) {
  test(`${how}: a plain and a setsid helper are both gone`, async () => {
    const w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 30_000 })
    worlds.push(w)
    const plain = rig.marker('plain-pid')
    const escaped = rig.marker('setsid-pid')
    const p = projectWith(servers(plain, escaped))
    await w.host.createAgent({ cwd: p.path })
    await w.mcp.whenIdle()
    await waitFor(() => existsSync(plain) && existsSync(escaped) && pidOf(plain) > 0 && pidOf(escaped) > 0, {
      message: 'the helpers never wrote their pids',
    })
    const a = pidOf(plain)
    const b = pidOf(escaped)
    assert.ok(alive(a) && alive(b), 'both helpers run')
    // The setsid helper leads its own group: signalling the server's group cannot reach it.
    assert.equal(procStat(b).pgid, b, 'the setsid helper left the process group')
    assert.notEqual(procStat(a).pgid, a, 'the plain helper stayed in the group')
    if (how === 'dispose') await w.stop()
    else writeFileSync(p.join('.dsh', 'mcp.yml'), friendly({}))
    await waitFor(() => !alive(a) && !alive(b), {
      message: `after ${how}: left behind ${[a, b].filter(alive).join(', ')}`,
    })
  })
}
