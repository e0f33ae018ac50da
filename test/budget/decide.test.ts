/** src/budget/decide.ts: which tools are offered and which deferred. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type BudgetInput, decideBudget } from '../../src/budget/decide.ts'

const tools = [
  { name: 'a', tokens: 100 },
  { name: 'b', tokens: 200 },
  { name: 'c', tokens: 300 },
  { name: 'd', tokens: 400 },
]
const base: BudgetInput = {
  tools,
  budget: 500,
  alwaysLoad: new Set(),
  revealed: new Set(),
  recent: [],
  searchTokens: 50,
}

test('budget 0 is off: everything offered', () => {
  const d = decideBudget({ ...base, budget: 0 })
  assert.equal(d.active, false)
  assert.deepEqual(d.offered, ['a', 'b', 'c', 'd'])
  assert.deepEqual(d.deferred, [])
  assert.equal(d.totalTokens, 1000)
})

test('while the tools fit nothing changes', () => {
  const d = decideBudget({ ...base, budget: 1000 })
  assert.equal(d.active, false)
  assert.deepEqual(d.deferred, [])
})

test('above the budget: alwaysLoad and revealed stay whatever they cost, recent ones while they fit', () => {
  const d = decideBudget({ ...base, alwaysLoad: new Set(['d']), revealed: new Set(['c']), recent: [] })
  assert.equal(d.active, true)
  assert.deepEqual(d.offered, ['c', 'd'])
  assert.deepEqual(d.deferred, ['a', 'b'])
  assert.equal(d.offeredTokens, 700)
})

test('recent tools, most recent first, fill what the search tool leaves of the budget', () => {
  const d = decideBudget({ ...base, recent: ['c', 'b', 'a'] })
  // 50 (search) + 300 (c) = 350; b would make 550 > 500; a makes 450.
  assert.deepEqual(d.offered, ['a', 'c'])
  assert.deepEqual(d.deferred, ['b', 'd'])
  assert.ok(d.offeredTokens + base.searchTokens <= base.budget)
})

test('names not among the tools are ignored (a dropped tool never comes back)', () => {
  const d = decideBudget({ ...base, alwaysLoad: new Set(['zz']), revealed: new Set(['gone']), recent: ['gone'] })
  assert.deepEqual(d.offered, [])
  assert.deepEqual(d.deferred, ['a', 'b', 'c', 'd'])
})
