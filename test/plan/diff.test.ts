/** The mount diff: added keys mount, removed keys unmount, a changed config is one remount, the rest untouched. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { diffMounts, diffMountsDetail } from '../../src/plan/diff.ts'

describe('mount diff', () => {
  const id = (name: string, origin = '/a') => ({ name, origin })
  it('adds, removes and reports a changed config as one remount', () => {
    const current = new Map([
      ['k1', id('one')],
      ['k2', id('two')],
    ])
    const desired = new Map([
      ['k1', id('one')],
      ['k3', id('two')],
      ['k4', id('new')],
    ])
    const d = diffMounts(current, desired)
    assert.deepEqual(d.add, ['k3', 'k4'])
    assert.deepEqual(d.remove, ['k2'])
    assert.deepEqual(d.changed, [id('two')])
  })
  it('unchanged keys are untouched; retry remounts a key in place', () => {
    const current = new Map([['k1', id('one')]])
    assert.deepEqual(diffMounts(current, current), { add: [], remove: [], changed: [] })
    assert.deepEqual(diffMounts(current, current, new Set(['k1'])), { add: ['k1'], remove: ['k1'], changed: [] })
  })
  it('the detail names the removed keys that are the old side of a change', () => {
    const d = diffMountsDetail(
      new Map([
        ['old', id('s')],
        ['gone', id('g')],
      ]),
      new Map([['new', id('s')]]),
    )
    assert.deepEqual([...d.changedKeys], ['old'])
    assert.deepEqual(d.remove.sort(), ['gone', 'old'])
  })
})
