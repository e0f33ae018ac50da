/**
 * Issue 13 item 8 with the real CLI: a trust store with one stray comma, a
 * truncated one, one that is not a store, or one written by a newer version
 * is never replaced or wiped by `trust`, `untrust` or the trust `add`
 * records: the write is refused with a message saying how to repair it and
 * the file stays byte-identical. A good store is updated and keeps every
 * other project's records (the allowed path).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { friendly } from '../support/runtime.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

const GOOD = {
  version: 1,
  projects: {
    '/elsewhere/project': { servers: { keep: { fingerprint: 'sha256:abc', trustedAt: '2026-01-01T00:00:00.000Z' } } },
  },
}
const goodText = `${JSON.stringify(GOOD, null, 2)}\n`

const BROKEN: { name: string; text: string; why: RegExp }[] = [
  {
    name: 'a stray comma',
    text: goodText.replace('"sha256:abc",', '"sha256:abc",,'),
    why: /is not valid JSON \(line 7, column \d+\).*Repair it by hand.*mv .*mcp-trust\.json\.bak/,
  },
  { name: 'a trailing comma', text: goodText.replace(/\}\n$/, ',}\n'), why: /is not valid JSON/ },
  { name: 'a truncated file', text: goodText.slice(0, 40), why: /is not valid JSON/ },
  {
    name: 'a newer version',
    text: goodText.replace('"version": 1', '"version": 2'),
    why: /written by a newer dsh-mcp \(store version 2/,
  },
  { name: 'not a store', text: '["not", "a", "store"]\n', why: /is not a version 1 trust store/ },
]

for (const b of BROKEN) {
  test(`${b.name}: trust, untrust and add refuse to rewrite the store; it stays byte-identical`, async () => {
    const home = makeTempDir('dsh-mcp-home-')
    const store = home.write('mcp-trust.json', b.text)
    const before = readFileSync(store)
    const p = makeProject({ '.dsh/mcp.yml': friendly({ srv: { command: 'echo', args: ['hi'] } }) })
    const o = { cwd: p.path, dshHome: home.path, home: home.path }
    const trust = await runCli(['trust', '--all', '--yes', '-C', p.path], o)
    assert.equal(trust.code, 1, trust.stdout + trust.stderr)
    assert.match(trust.stderr, b.why)
    assert.deepEqual(readFileSync(store), before, 'trust left it byte-identical')
    // The store reads as holding no record for the project, so untrust has nothing to remove: it writes nothing.
    await runCli(['untrust', 'srv', '-C', p.path], o)
    await runCli(['untrust', '-C', p.path], o)
    assert.deepEqual(readFileSync(store), before, 'untrust left it byte-identical')
    const add = await runCli(['add', 'other', 'echo', 'x', '-C', p.path], o)
    assert.match(add.stderr, /could not record trust .*refusing to write the trust store/)
    assert.deepEqual(readFileSync(store), before, 'add left it byte-identical')
  })
}

test("a good store is updated in place and keeps other projects' records", async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const store = home.write('mcp-trust.json', goodText)
  const p = makeProject({ '.dsh/mcp.yml': friendly({ srv: { command: 'echo', args: ['hi'] } }) })
  const r = await runCli(['trust', '--all', '--yes', '-C', p.path], {
    cwd: p.path,
    dshHome: home.path,
    home: home.path,
  })
  assert.equal(r.code, 0, r.stderr)
  const after = JSON.parse(readFileSync(store, 'utf8'))
  assert.deepEqual(after.projects['/elsewhere/project'], GOOD.projects['/elsewhere/project'])
  assert.ok(after.projects[p.path]?.servers.srv, 'the new record is there')
})
