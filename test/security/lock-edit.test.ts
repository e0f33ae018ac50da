/**
 * Attack: a pull request edits only `.dsh/mcp.lock` (issue 25, item 3). The victim trusted `fix` locked at
 * lock-fixture-server@1.0.0; the pull request re-locks it to 1.0.1 — the attacker's release — and the victim
 * runs `dsh-mcp prepare` as the docs say. Before trust covered the lock the trusted fingerprint did not move
 * and the host ran 1.0.1 (its marker line `1.0.1 <pid>`); now the row is `untrusted` (changed since trusted)
 * and nothing runs — no marker — until `dsh-mcp trust fix`. Real host (`trust: 'require'`), real registry on
 * 127.0.0.1 (verdaccio).
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { type LocalRegistry, startRegistry } from '../support/registry.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { reconcileTimes, serverOf } from '../support/trust.ts'

const rig = markerRig('lock-edit')
let reg: LocalRegistry | undefined
let w: RuntimeWorld | undefined
before(async () => {
  reg = await startRegistry()
  await reg.publishServer('1.0.0')
  w = await startWorld({ trust: 'require', debounceMs: 30, mountTimeoutMs: 60_000 })
})
after(async () => {
  await w?.dispose()
  await reg?.stop()
})

test('a lock edit to another version in a pull request runs nothing until trusted again', async () => {
  const ran = rig.marker('attacker-code-ran')
  const p = projectWith({
    fix: { command: 'npx', args: ['-y', 'lock-fixture-server'], env: { LOCK_FIXTURE_MARKER: ran } },
  })
  const cli = (...args: string[]) => runCli(args, { cwd: p.path, dshHome: w!.home.path, env: reg!.env })
  assert.equal((await cli('lock')).code, 0)
  const trusted = await cli('trust', 'fix', '--yes')
  assert.equal(trusted.code, 0, trusted.stderr)

  // The pull request's only change: the lock names the attacker's 1.0.1; the victim prepares it.
  await reg!.publishServer('1.0.1')
  assert.equal((await cli('lock', 'fix')).code, 0)
  assert.equal((await cli('prepare')).code, 0)

  await w!.host.createAgent({ cwd: p.path })
  await w!.mcp.whenIdle()
  await reconcileTimes(w!, 2)
  const row = serverOf(w!, p.path, 'fix')
  assert.equal(row.state, 'untrusted')
  assert.match(row.lastError ?? '', /^changed since trusted/)
  assert.equal(existsSync(ran), false, 'the edited lock ran code nobody trusted')
  const list = await cli('list')
  assert.match(list.stdout, /fix\s.*untrusted/)
})
