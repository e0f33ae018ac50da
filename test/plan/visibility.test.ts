/**
 * Deny sets, filters and the mount diff (pure).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Placement } from '../../src/plan/desired.ts'
import { diffMounts } from '../../src/plan/diff.ts'
import { admits, isRestrictive } from '../../src/plan/filter.ts'
import { denySet, ownership, toolsByKey, visibleOf } from '../../src/plan/visibility.ts'

const place = (
  name: string,
  key: string | undefined,
  tag: Placement['verdict']['tag'] = 'runs',
  filter?: Placement['filter'],
): Placement => ({
  name,
  layer: 'project',
  file: '/f',
  verdict: { tag, why: null, reason: null },
  ...(key ? { key } : {}),
  ...(filter ? { filter } : {}),
})

describe('tool filters', () => {
  it('no filter admits everything; include keeps matches; exclude wins', () => {
    assert.ok(admits(undefined, 'x'))
    assert.ok(!isRestrictive({}))
    const f = { include: ['read_*', 'list'], exclude: ['read_secret*'] }
    assert.ok(admits(f, 'read_file'))
    assert.ok(admits(f, 'list'))
    assert.ok(!admits(f, 'write_file'))
    assert.ok(!admits(f, 'read_secrets'))
    assert.ok(!admits({ exclude: ['*'] }, 'anything'))
    assert.ok(admits({ include: ['{a,b}?'] }, 'b1'))
  })
})

describe('deny sets', () => {
  const own = ownership(
    new Map<string, string | null>([
      ['alpha', 'kA'],
      ['beta', 'kB'],
      ['glob', 'kG'],
      ['old', null],
    ]),
  )
  const registered = [
    'mcp__alpha__a1',
    'mcp__alpha__drop_me',
    'mcp__beta__b1',
    'mcp__glob__g1',
    'mcp__old__o1',
    'mcp__hosts__h1',
    'read_file',
  ]

  it('denies other projects, unused globals and draining mounts; never touches tools we do not own', () => {
    const visible = visibleOf([place('alpha', 'kA'), place('glob', 'kG')])
    assert.deepEqual(denySet(registered, own, visible), ['mcp__beta__b1', 'mcp__old__o1'])
  })
  it('a shadowed global is not visible', () => {
    const visible = visibleOf([place('alpha', 'kA'), place('glob', 'kG', 'shadowed')])
    assert.ok(denySet(registered, own, visible).includes('mcp__glob__g1'))
  })
  it('filters deny excluded raw names of visible mounts', () => {
    const visible = visibleOf([place('alpha', 'kA', 'runs', { exclude: ['drop_*'] })])
    assert.deepEqual(denySet(registered, own, visible), [
      'mcp__alpha__drop_me',
      'mcp__beta__b1',
      'mcp__glob__g1',
      'mcp__old__o1',
    ])
  })
  it('only registered names are returned', () => {
    assert.deepEqual(denySet([], own, new Map()), [])
  })
  it('tool counts per key', () => {
    assert.deepEqual(
      [...toolsByKey(registered, own)].map(([k, v]) => [k, v.length]),
      [
        ['kA', 2],
        ['kB', 1],
        ['kG', 1],
      ],
    )
  })
})

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
})
