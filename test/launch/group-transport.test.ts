/**
 * The direct stdio transport (host mounts and doctor's probes): the server leads its own group with the
 * marker; its stderr goes redacted into a private log opened on the first output only; a helper it leaves
 * dies when it exits on its own; `onTree` says when the tree starts and when nothing of it is left.
 * Linux (/proc, process groups).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { GroupStdioTransport } from '../../src/launch/group-transport.ts'
import { procStat } from '../../src/launch/procs.ts'
import { markedPids, newTreeMarker, type Tree } from '../../src/launch/tree.ts'
import { liveInGroup } from '../support/procs.ts'
import { waitFor } from '../support/wait.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

const LINUX = process.platform === 'linux'
after(() => cleanupAll())

function transport(script: string, log: string, events: [Tree, boolean][]) {
  return new GroupStdioTransport({
    file: '/bin/sh',
    argv0: 'sh',
    args: ['-c', script],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    baseEnv: {},
    marker: newTreeMarker(),
    secrets: ['sk-group-canary-7730'],
    log: { file: log },
    onTree: (t, alive) => events.push([t, alive]),
  })
}

test('own group, stderr redacted into the log, a helper ended with the server, onTree both ways', {
  skip: !LINUX && 'Linux',
}, async () => {
  const d = makeTempDir()
  const log = d.join('mcp-logs', 's.log')
  const events: [Tree, boolean][] = []
  const t = transport('sleep 1000 & echo "key sk-group-canary-7730 bad" >&2; sleep 0.3; exit 3', log, events)
  const closed = new Promise<void>((r) => {
    t.onclose = () => r()
  })
  await t.start()
  const pid = t.child?.pid as number
  assert.equal(procStat(pid).pgid, pid, 'the server leads its own group')
  assert.deepEqual(events[0]?.[1], true)
  await closed
  await waitFor(() => events.some(([, alive]) => !alive) || undefined, { message: 'onTree(false) never came' })
  const [tree] = events[0]!
  assert.deepEqual([...liveInGroup(tree.group!), ...markedPids(tree.marker)], [], 'the helper outlived its server')
  const text = readFileSync(log, 'utf8')
  assert.match(text, /server\| key \*\*\* bad/)
  assert.ok(!text.includes('sk-group-canary-7730'))
  await t.close()
})

test('a quiet server leaves no log file; close ends it', { skip: !LINUX && 'Linux' }, async () => {
  const d = makeTempDir()
  const log = d.join('mcp-logs', 'q.log')
  const events: [Tree, boolean][] = []
  const t = transport('exec sleep 1000', log, events)
  await t.start()
  await t.close()
  const [tree] = events[0]!
  assert.deepEqual([...liveInGroup(tree.group!), ...markedPids(tree.marker)], [])
  assert.equal(existsSync(log), false)
})
