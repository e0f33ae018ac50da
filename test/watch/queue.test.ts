/**
 * The reconcile queue and the debounce: one run at a time, edits during a run
 * coalesce into exactly one more, idle() waits for everything.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { debounce } from '../../src/watch/debounce.ts'
import { createQueue } from '../../src/watch/queue.ts'

const gate = () => {
  let open!: () => void
  const p = new Promise<void>((r) => {
    open = r
  })
  return { p, open }
}

describe('reconcile queue', () => {
  it('serializes runs and coalesces requests made during a run into one more', async () => {
    let active = 0
    let maxActive = 0
    let runs = 0
    const gates = [gate(), gate()]
    const q = createQueue(
      async () => {
        active++
        maxActive = Math.max(maxActive, active)
        const g = gates[runs++]
        if (g) await g.p
        active--
      },
      (e) => assert.fail(String(e)),
    )
    const first = q.request()
    const second = q.request()
    const third = q.request()
    assert.equal(runs, 1)
    gates[0]!.open()
    await first
    gates[1]!.open()
    await Promise.all([second, third])
    await q.idle()
    assert.equal(runs, 2, 'three requests, two runs')
    assert.equal(maxActive, 1)
    assert.equal(q.busy, false)
  })
  it('a failing run reports and does not wedge the queue', async () => {
    const errors: unknown[] = []
    let n = 0
    const q = createQueue(
      async () => {
        n++
        if (n === 1) throw new Error('boom')
      },
      (e) => errors.push(e),
    )
    await q.request()
    await q.request()
    assert.equal(n, 2)
    assert.equal(errors.length, 1)
  })
  it('after close, requests resolve and nothing runs', async () => {
    let n = 0
    const q = createQueue(
      async () => {
        n++
      },
      (e) => assert.fail(String(e)),
    )
    q.close()
    await q.request()
    await q.idle()
    assert.equal(n, 0)
  })
})

describe('debounce', () => {
  it('runs once after the quiet period; settled() waits for it', async (t) => {
    const keepAlive = setInterval(() => {}, 1000) // the debounce timer is unref'd by design
    t.after(() => clearInterval(keepAlive))
    let n = 0
    const d = debounce(() => n++, 20)
    d.trigger()
    d.trigger()
    assert.equal(d.pending, true)
    await d.settled()
    assert.equal(n, 1)
    assert.equal(d.pending, false)
    d.trigger()
    d.cancel()
    await d.settled()
    assert.equal(n, 1)
  })
})
