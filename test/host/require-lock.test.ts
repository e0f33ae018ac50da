/**
 * The plugin option `requireLock` (issue 25, item 5) on a real host against a real npm registry on 127.0.0.1
 * (verdaccio): an unlocked `npx` repository server is refused (`refused`, why `not-locked`, fix `dsh-mcp lock
 * fix`) and nothing runs — neither npx nor the server (its marker never appears) — while a locked and prepared
 * one in the same host runs; `dsh-mcp status` shows the refusal with the command, and `dsh-mcp list` does with
 * `DSH_MCP_REQUIRE_LOCK=1`.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { type LocalRegistry, startRegistry } from '../support/registry.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { reconcileTimes, serverOf } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

const rig = markerRig('require-lock')
let reg: LocalRegistry | undefined
let w: RuntimeWorld | undefined
before(async () => {
  reg = await startRegistry()
  await reg.publishServer('1.0.0')
  w = await startWorld({ trust: 'all', requireLock: true, debounceMs: 30, mountTimeoutMs: 60_000 })
})
after(async () => {
  await w?.dispose()
  await reg?.stop()
})

test('requireLock: an unlocked npx server runs nothing and names dsh-mcp lock; a locked one runs', async () => {
  const unlockedRan = rig.marker('unlocked')
  const lockedRan = rig.marker('locked')
  const npx = (marker: string) => ({
    command: 'npx',
    args: ['-y', 'lock-fixture-server@1.0.0'],
    env: { LOCK_FIXTURE_MARKER: marker },
  })
  const p = projectWith({ fix: npx(unlockedRan) })
  const q = projectWith({ fix: npx(lockedRan) })
  const cli = (cwd: string, ...args: string[]) => runCli(args, { cwd, dshHome: w!.home.path, env: reg!.env })
  assert.equal((await cli(q.path, 'lock')).code, 0)
  assert.equal((await cli(q.path, 'prepare')).code, 0)

  await w!.host.createAgent({ cwd: p.path })
  await w!.host.createAgent({ cwd: q.path })
  await waitFor(() => existsSync(lockedRan) && serverOf(w!, q.path, 'fix').state === 'mounted', {
    message: 'the locked server never ran',
  })
  await reconcileTimes(w!, 2)
  const row = serverOf(w!, p.path, 'fix')
  assert.equal(row.state, 'invalid')
  assert.equal(row.verdict?.why, 'not-locked')
  assert.equal(row.verdict?.fix, 'dsh-mcp lock fix')
  assert.match(row.lastError ?? '', /requireLock: .*run: dsh-mcp lock fix$/)
  assert.equal(existsSync(unlockedRan), false, 'the unlocked server ran')
  const status = await cli(p.path, 'status')
  assert.match(status.stdout, /dsh-mcp lock fix/)
  // `list` knows no host option: DSH_MCP_REQUIRE_LOCK applies it there (and in the host) too.
  const list = await runCli(['list'], {
    cwd: p.path,
    dshHome: w!.home.path,
    env: { ...reg!.env, DSH_MCP_REQUIRE_LOCK: '1', DSH_MCP_TRUST_ALL: '1' },
  })
  assert.match(list.stdout, /fix\s.*invalid/)
  assert.match(list.stdout + list.stderr, /requireLock: .*dsh-mcp lock fix/)
  const plain = await cli(p.path, 'list')
  assert.doesNotMatch(plain.stdout + plain.stderr, /requireLock/)
})
