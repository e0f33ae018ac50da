/** /proc listing and signalling: a live child is listed with its parent and group; a gone pid is no error. */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { test } from 'node:test'
import { listProcs, procStat, sendSignal } from '../../src/launch/procs.ts'

test('a child is listed and stat-ed; signalled, it ends; a pid that is gone is not an error', async (t) => {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' })
  t.after(() => child.kill('SIGKILL'))
  const pid = child.pid!
  assert.deepEqual(
    listProcs((p) => p === pid),
    [pid],
  )
  const st = procStat(pid)
  assert.equal(st.ppid, process.pid)
  assert.equal(typeof st.pgid, 'number')
  assert.equal(sendSignal(pid, 0), true)
  const exited = once(child, 'exit')
  assert.equal(sendSignal(pid, 'SIGKILL'), true)
  await exited
  assert.equal(sendSignal(pid, 0), false)
  assert.deepEqual(
    listProcs((p) => p === pid),
    [],
  )
  assert.throws(() => procStat(pid))
})

test('a pick that throws (a process ending mid-read) skips that process', () => {
  const mine = listProcs((p) => {
    if (p !== process.pid) throw new Error('gone')
    return true
  })
  assert.deepEqual(mine, [process.pid])
})
