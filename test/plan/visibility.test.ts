/**
 * Deny sets per agent (pure). Filters: test/plan/filter.test.ts; the mount diff: test/plan/diff.test.ts.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Placement } from '../../src/plan/desired.ts'
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
