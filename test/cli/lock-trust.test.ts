/**
 * Trust covers the lock (issue 25, item 3), on a real host (`trust: 'require'`) against a real npm registry on
 * 127.0.0.1 (verdaccio, test/support/registry.ts): a server trusted while locked at 1.0.0 runs 1.0.0; `dsh-mcp
 * lock fix` after 1.0.1 moved `latest` changes only `.dsh/mcp.lock` — the watched lock makes the row `untrusted`
 * (changed since trusted) at once, the running 1.0.0 process stops and 1.0.1 never starts (its marker line never
 * appears, though it is prepared) until `dsh-mcp trust fix`, whose review shows the lock's old → new version and
 * integrity; then 1.0.1 runs.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { type LocalRegistry, startRegistry } from '../support/registry.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { reconcileTimes, serverOf } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

const rig = markerRig('lock-trust')
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

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('a lock edit alone makes a trusted locked server untrusted: it stops, the new version waits for trust', async () => {
  const ran = rig.marker('ran')
  const p = projectWith({
    fix: { command: 'npx', args: ['-y', 'lock-fixture-server'], env: { LOCK_FIXTURE_MARKER: ran } },
  })
  const cli = (...args: string[]) => runCli(args, { cwd: p.path, dshHome: w!.home.path, env: reg!.env })
  assert.equal((await cli('lock')).code, 0)
  assert.equal((await cli('prepare')).code, 0)
  const t1 = await cli('trust', 'fix', '--yes')
  assert.equal(t1.code, 0, t1.stderr)
  await w!.host.createAgent({ cwd: p.path })
  await waitFor(() => existsSync(ran) && serverOf(w!, p.path, 'fix').state === 'mounted', {
    message: 'the trusted locked server never mounted',
  })
  const first = readFileSync(ran, 'utf8')
  assert.match(first, /^1\.0\.0 \d+\n$/)
  const pid = Number(first.trim().split(' ')[1])

  // The pull request: only .dsh/mcp.lock changes (1.0.1, prepared — it would run if trust did not cover the lock).
  await reg!.publishServer('1.0.1')
  const relock = await cli('lock', 'fix')
  assert.equal(relock.code, 0, relock.stderr)
  assert.match(relock.stdout, /lock-fixture-server@1\.0\.1/)
  assert.equal((await cli('prepare')).code, 0)

  await waitFor(() => serverOf(w!, p.path, 'fix').state === 'untrusted', {
    message: 'the lock edit did not make the row untrusted',
  })
  assert.match(serverOf(w!, p.path, 'fix').lastError ?? '', /^changed since trusted/)
  await waitFor(() => !alive(pid), { message: 'the 1.0.0 process kept running' })
  await reconcileTimes(w!, 2)
  assert.equal(readFileSync(ran, 'utf8'), first, 'a server started after the lock edit without trust')
  const list = await cli('list')
  assert.match(list.stdout, /fix\s.*untrusted/)

  const review = await cli('trust', 'fix', '--yes')
  assert.equal(review.code, 0, review.stderr)
  assert.match(review.stdout, /changed since it was last trusted/)
  assert.match(review.stdout, /lock\.version: 1\.0\.0 → 1\.0\.1/)
  assert.match(review.stdout, /lock\.integrity: sha512-\S+ → sha512-\S+/)
  await waitFor(() => /\n1\.0\.1 \d+\n$/.test(readFileSync(ran, 'utf8')), {
    message: 're-trusted 1.0.1 never started',
  })
  await waitFor(() => serverOf(w!, p.path, 'fix').state === 'mounted', { message: 're-trusted 1.0.1 never mounted' })
})
