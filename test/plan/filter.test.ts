/** Include/exclude globs on raw tool names: no filter admits all, include keeps matches, exclude wins. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { admits, isRestrictive, normalizedFilter } from '../../src/plan/filter.ts'

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

describe('normalized filters', () => {
  it('globs normalized like public tool names judge a name that only survives normalized', () => {
    const n = normalizedFilter({ include: ['get.item'], exclude: ['del.*'] })
    assert.ok(admits(n, 'get_item'))
    assert.ok(!admits(n, 'del_all'))
    assert.equal(normalizedFilter({}).include, undefined)
  })
  it('a filter with empty lists hides nothing', () => {
    assert.ok(!isRestrictive({ include: [], exclude: [] }))
    assert.ok(isRestrictive({ exclude: ['x'] }))
    assert.ok(isRestrictive({ include: ['x'] }))
  })
})
