/**
 * Issue 12 class 5, tried as an attacker (or an accident): a trust store that
 * becomes invalid JSON, group- or world-writable, owned by another user, or
 * a symbolic link stops every project server that depends on it at once —
 * on the store's own change event (no reload is asked for here) — and
 * `list`/`status` say what is wrong and how to repair it; repairing it
 * brings the servers back. `dsh-mcp untrust` stops a running server within
 * the debounce. Marker files prove nothing is spawned while the store is bad.
 */
import assert from 'node:assert/strict'
import {
  chmodSync,
  chownSync,
  copyFileSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { test } from 'node:test'
import { readMarker } from '../support/procs.ts'
import { startWorld, stdioEntry, projectWith } from '../support/runtime.ts'
import { cli, reconcileTimes, serverOf, trustAll, untilTools } from '../support/trust.ts'
import { markerRig } from '../support/markers.ts'

const { pids, marker } = markerRig('store')

interface Breakage {
  name: string
  problem: RegExp
  breakIt(store: string): void
  repair(store: string): void
}

const saved = new Map<string, string>()
const BREAKAGES: Breakage[] = [
  {
    name: 'invalid JSON',
    problem:
      /is not valid JSON \(line \d+, column \d+\); repair it, or move it aside \(mv .* \S+\.bak\) and trust again/,
    breakIt: (f) => {
      saved.set(f, readFileSync(f, 'utf8'))
      writeFileSync(f, `${saved.get(f)!.slice(0, -3)},}\n`)
    },
    repair: (f) => writeFileSync(f, saved.get(f)!),
  },
  {
    name: 'group-writable',
    problem: /is writable by its group; run: chmod 600 /,
    breakIt: (f) => chmodSync(f, 0o660),
    repair: (f) => chmodSync(f, 0o600),
  },
  {
    name: 'world-writable',
    problem: /is writable by every user; run: chmod 600 /,
    breakIt: (f) => chmodSync(f, 0o606),
    repair: (f) => chmodSync(f, 0o600),
  },
  ...(process.getuid?.() === 0
    ? [
        {
          name: 'owned by another user',
          problem: /is owned by another user \(uid 54321\); remove it, or run chown \$\(id -u\) \S+ if it is yours/,
          breakIt: (f: string) => chownSync(f, 54321, 54321),
          repair: (f: string) => chownSync(f, 0, 0),
        },
      ]
    : []),
  {
    name: 'a symbolic link',
    problem: /is a symbolic link; replace it with a regular file/,
    breakIt: (f) => {
      copyFileSync(f, `${f}.real`)
      rmSync(f)
      symlinkSync(`${f}.real`, f)
    },
    repair: (f) => {
      rmSync(f)
      renameSync(`${f}.real`, f)
    },
  },
]

for (const b of BREAKAGES) {
  test(`a trust store that becomes ${b.name} stops its project's servers at once; list and status say how to repair; repaired, they come back`, async (t) => {
    const m = marker('s')
    const w = await startWorld({ trust: 'require', debounceMs: 20 })
    t.after(() => w.dispose())
    const p = projectWith({ s: stdioEntry('s', { tools: ['t'], marker: m, pidfileDir: pids }) })
    await trustAll(w, p.path)
    const agent = (await w.host.createAgent({ cwd: p.path })).agent
    await untilTools(w, agent, ['mcp__s__t'], 'trusted, it runs')
    assert.equal(readMarker(m).length, 1)
    const store = w.home.join('mcp-trust.json')

    b.breakIt(store)
    await untilTools(w, agent, [], `the store's own change event withdrew the server (${b.name})`)
    const s = serverOf(w, p.path, 's')
    assert.equal(s.state, 'untrusted')
    assert.match(s.lastError ?? '', b.problem)
    assert.match(s.lastError ?? '', /the trust store cannot be used/)
    const list = await cli(w, p.path, ['list', '--json'])
    const row = (
      JSON.parse(list.stdout) as { name: string; state: string; verdict: { tag: string; why: string } }[]
    ).find((r) => r.name === 's')!
    assert.equal(row.state, 'untrusted')
    assert.deepEqual([row.verdict.tag, row.verdict.why], ['needs-trust', 'store-problem'])
    assert.match(list.stderr, b.problem)
    const status = await cli(w, p.path, ['status'], { expectFail: true })
    assert.match(status.stdout + status.stderr, b.problem)
    // The CLI will not write trust over a store it cannot use.
    const retrust = await cli(w, p.path, ['trust', '--all', '--yes'], { expectFail: true })
    assert.notEqual(retrust.code, 0)
    assert.match(retrust.stderr, /refusing to write the trust store/)
    await reconcileTimes(w, 2)
    assert.equal(readMarker(m).length, 1, 'not spawned again while the store is bad')

    b.repair(store)
    await untilTools(w, agent, ['mcp__s__t'], 'repaired, the server is back')
    assert.equal(readMarker(m).length, 2)
  })
}

test('dsh-mcp untrust stops a running server within the debounce (no reload asked)', async (t) => {
  const m = marker('u')
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({
    a: stdioEntry('a', { tools: ['t'], marker: m, pidfileDir: pids }),
    b: stdioEntry('b', { tools: ['t'], pidfileDir: pids }),
  })
  await trustAll(w, p.path)
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await untilTools(w, agent, ['mcp__a__t', 'mcp__b__t'], 'both run')
  await cli(w, p.path, ['untrust', 'a'])
  await untilTools(w, agent, ['mcp__b__t'], 'untrust withdrew a')
  assert.equal(serverOf(w, p.path, 'a').state, 'untrusted')
  assert.equal(readMarker(m).length, 1)
})
