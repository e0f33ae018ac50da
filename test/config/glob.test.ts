/**
 * The linear-time `tools` glob matcher: catastrophic patterns for a backtracking regular expression
 * still mean what they say, over-long patterns and brace explosions are refused, and a refused glob fails
 * closed. What those patterns cost is measured in bench row 8 (m), not here.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compileGlob, globProblem, MAX_ALTERNATIVES, MAX_GLOB_LENGTH } from '../../src/config/glob.ts'
import { admits } from '../../src/plan/filter.ts'

// Catastrophic for a backtracking regex, all within the length bound.
const HOSTILE = [
  `${'*a'.repeat(120)}b`,
  '+(a|aa)+b',
  `${'{*a,*a*}'.repeat(3)}b`,
  `${'?*'.repeat(100)}!`,
  `*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*0`,
]
const NAMES = ['a'.repeat(5000), `${'a'.repeat(4999)}c`, 'ab'.repeat(2500), 'x']

test('catastrophic patterns are accepted and decide every name (their cost is bench row 8 (m))', () => {
  for (const g of HOSTILE) assert.equal(globProblem(g), undefined, `${g.slice(0, 40)} is accepted`)
  for (const g of HOSTILE) {
    const filter = { include: [g], exclude: [g] }
    for (const n of NAMES) assert.equal(admits(filter, n), false, 'exclude wins over the same include')
    for (const n of NAMES) assert.equal(typeof compileGlob(g)!(n), 'boolean')
  }
  // And they still mean what they say.
  assert.equal(compileGlob(HOSTILE[0]!)!(`${'a'.repeat(150)}b`), true)
  assert.equal(compileGlob(HOSTILE[0]!)!('a'.repeat(150)), false)
  assert.equal(compileGlob('+(a|aa)+b')!('+(a|aa)+b'), true, 'extglob syntax is literal text')
})

test('too long or too many alternatives: refused, and a refused glob fails closed', () => {
  const long = `${'*a'.repeat(200)}b`
  assert.match(globProblem(long) ?? '', new RegExp(`at most ${MAX_GLOB_LENGTH}`))
  assert.match(globProblem('{a,b}'.repeat(7)) ?? '', new RegExp(`more than ${MAX_ALTERNATIVES} alternatives`))
  assert.match(globProblem('{{a,b},{c,d},{e,f},{g,h}}'.repeat(4)) ?? '', /alternatives/)
  assert.equal(globProblem('{a,b}'.repeat(6)), undefined, '64 alternatives are fine')
  assert.equal(admits({ include: [long] }, 'anything'), false, 'a refused include admits nothing')
  assert.equal(admits({ exclude: [long] }, 'anything'), false, 'a refused exclude hides everything')
})
