/**
 * Issue 12 class 6: reconnect tuning from a repository file must not turn a
 * trusted server into a spawn loop. Decision: a repository layer's
 * `reconnect` is clamped (plan/verdict.ts `REPOSITORY_RECONNECT_LIMITS`: no
 * first delay below the official default of 500 ms, no more than 10
 * attempts, the ceiling never below the first delay); the user's own file is
 * not clamped. Proved with a real server that crashes at every start and a
 * marker line per spawn, waiting for the official client to give up.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { waitFor } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { makeProject } from '../support/tmp.ts'
import { cli, serverOf, trustAll } from '../support/trust.ts'
import { markerRig } from '../support/markers.ts'

const { pids, marker } = markerRig('reconnect')

const HOSTILE = { initialDelayMs: 1, maxDelayMs: 1, maxAttempts: 1e15 }
const crashing = (name: string, m: string, reconnect?: Record<string, number>) =>
  stdioEntry(name, { tools: ['t'], marker: m, pidfileDir: pids, crash: true, extra: reconnect ? { reconnect } : {} })

async function untilGaveUp(w: Awaited<ReturnType<typeof startWorld>>, attempts: number): Promise<void> {
  // The client's give-up line, as every log exporter shows it (plan/cause.ts: said plainly).
  const needle = `gave up after ${attempts} failed attempts`
  await waitFor(() => w.host.logsMatching(needle).length > 0, {
    timeoutMs: 90_000,
    message: `the host log never said "${needle}"`,
  })
}

test('a repository server with reconnect {1 ms, 1e15 attempts} is bounded: at most 1 + 10 spawns, then the client gives up', async (t) => {
  const m = marker('repo')
  const w = await startWorld({ trust: 'require' })
  t.after(() => w.dispose())
  const p = projectWith({ loop: crashing('loop', m, HOSTILE) })
  await trustAll(w, p.path)
  const list = await cli(w, p.path, ['list', '--json'])
  const row = (JSON.parse(list.stdout) as { name: string; issues: string[] }[]).find((r) => r.name === 'loop')!
  assert.ok(
    row.issues.some((i) => /reconnect from a repository file bounded/.test(i)),
    row.issues.join('; '),
  )
  await w.host.createAgent({ cwd: p.path })
  await untilGaveUp(w, 10)
  const spawns = readMarker(m).length
  assert.ok(spawns >= 2 && spawns <= 11, `spawned ${spawns} times`)
})

test('a local override that sets reconnect on a user server needs trust first, and once trusted is bounded the same way', async (t) => {
  const m = marker('override')
  const w = await startWorld({ trust: 'require', userFile: friendly({ u: crashing('u', m) }) })
  t.after(() => w.dispose())
  const p = makeProject({ '.dsh/mcp.local.yml': friendly({ u: { reconnect: HOSTILE } }) })
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  assert.equal(serverOf(w, p.path, 'u').state, 'untrusted', 'the override needs trust')
  const before = readMarker(m).length // the user's own server (global view) may crash-loop on the official defaults
  await cli(w, p.path, ['trust', 'u', '--yes'])
  await untilGaveUp(w, 10)
  const after = readMarker(m).length - before
  assert.ok(after >= 1, 'the trusted override did start')
  // The user's own (global) mount uses the official defaults (10 attempts) too: at most 2 × 11 spawns in all.
  assert.ok(readMarker(m).length <= 22, `spawned ${readMarker(m).length} times`)
})

test("the user's own file is not clamped: its reconnect settings apply as written", async (t) => {
  const m = marker('user')
  const w = await startWorld({
    trust: 'require',
    userFile: friendly({ mine: crashing('mine', m, { initialDelayMs: 1, maxDelayMs: 1, maxAttempts: 12 }) }),
  })
  t.after(() => w.dispose())
  await untilGaveUp(w, 12)
  assert.equal(readMarker(m).length, 13, 'one start and 12 reconnects, as the user wrote')
})
