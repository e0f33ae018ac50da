/**
 * Effective names and tool ownership (pure): a name is kept unless a held
 * name overlaps it; suffixes derive from the origin, fit 32 chars, and never
 * overlap by prefix; ownership by prefix is unambiguous.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { assignNames, MAX_SERVER_NAME_LENGTH, suffixedName } from '../../src/plan/names.ts'
import { namesOverlap } from '../../src/plan/tool-names.ts'

const req = (key: string, name: string, origin = '/p', priority = 1) => ({ key, name, origin, priority })

describe('effective names', () => {
  it('keeps the written name when nothing holds it', () => {
    assert.deepEqual([...assignNames(new Map(), [req('k1', 'github')])], [['k1', 'github']])
  })
  it('a held name never changes, even if the same key is requested again', () => {
    const out = assignNames(new Map([['k1', 'github_abcdef']]), [req('k1', 'github')])
    assert.equal(out.get('k1'), 'github_abcdef')
  })
  it('a conflicting config gets a deterministic suffix from its origin', () => {
    const held = new Map([['k1', 'docs']])
    const a = assignNames(held, [req('k2', 'docs', '/work/b')]).get('k2')!
    const again = assignNames(held, [req('k3', 'docs', '/work/b')]).get('k3')!
    const other = assignNames(held, [req('k4', 'docs', '/work/c')]).get('k4')!
    assert.match(a, /^docs_[0-9a-f]{6}$/)
    assert.equal(a, again, 'same origin, same suffix: independent of which other projects are open')
    assert.notEqual(a, other)
  })
  it('suffixed names fit 32 characters and contain no "__"', () => {
    const long = 'x'.repeat(32)
    const s = suffixedName(long, '/r')
    assert.ok(s.length <= MAX_SERVER_NAME_LENGTH)
    assert.match(s, /^[A-Za-z0-9_-]{1,32}$/)
    assert.ok(!suffixedName('a__b__', '/r').includes('__'))
  })
  it('prefix-overlapping names are treated as taken, so ownership stays unambiguous', () => {
    const out = assignNames(new Map([['k1', 'a']]), [req('k2', 'a__b', '/r')])
    const name = out.get('k2')!
    assert.ok(!namesOverlap('a', name), name)
    const out2 = assignNames(new Map([['k1', 'a__b']]), [req('k2', 'a', '/r')])
    assert.ok(!namesOverlap('a__b', out2.get('k2')!))
  })
  it('names still held by a draining fork are avoided', () => {
    const out = assignNames(new Map([['\0draining:0', 'gh']]), [req('k9', 'gh', '/p')])
    assert.notEqual(out.get('k9'), 'gh')
  })
  it('new names go user layer first, then by name and origin, whatever the request order', () => {
    const reqs = [req('kp', 'gh', '/z'), req('ku', 'gh', '/home/.dsh', 0), req('ka', 'gh', '/a')]
    const one = assignNames(new Map(), reqs)
    const two = assignNames(new Map(), [...reqs].reverse())
    assert.equal(one.get('ku'), 'gh')
    assert.deepEqual([...one].sort(), [...two].sort())
    assert.equal(new Set(one.values()).size, 3)
  })
})
