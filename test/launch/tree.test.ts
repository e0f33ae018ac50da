/**
 * A marked process tree: a helper that left the group (setsid) is still found by its marker and ended with
 * the group; an unmarked process is never touched.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import { endTree, markedPids, newTreeMarker, TREE_ENV, treeAlive } from '../../src/launch/tree.ts'
import { waitFor } from '../support/wait.ts'

test('markers are 24 hex digits, never repeated; a malformed id finds nothing', () => {
  const a = newTreeMarker()
  assert.match(a, /^[0-9a-f]{24}$/)
  assert.notEqual(a, newTreeMarker())
  assert.deepEqual(markedPids('not hex!'), [])
  assert.deepEqual(markedPids(undefined), [])
})

test('the group and a setsid helper carrying the marker both end; a bystander does not', async (t) => {
  const marker = newTreeMarker()
  const env = { ...process.env, [TREE_ENV]: marker }
  const leader = spawn('sh', ['-c', 'setsid sleep 600 & sleep 600'], { env, detached: true, stdio: 'ignore' })
  const bystander = spawn('sleep', ['600'], { stdio: 'ignore' })
  t.after(() => {
    for (const p of [...markedPids(marker), leader.pid!, bystander.pid!]) {
      try {
        process.kill(p, 'SIGKILL')
      } catch {}
    }
  })
  await waitFor(() => markedPids(marker).length >= 3, { message: 'the shell, its sleep and the setsid helper' })
  const tree = { group: leader.pid!, marker }
  assert.equal(treeAlive(tree), true)
  await endTree(tree, 2000)
  assert.equal(treeAlive(tree), false)
  assert.deepEqual(markedPids(marker), [])
  assert.doesNotThrow(() => process.kill(bystander.pid!, 0), 'the unmarked process lives')
})
