/** Public tool names (the official client's rule), raw names back, overlap and ownership by prefix. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { namesOverlap, ownerIndex, publicToolName, rawNameOf } from '../../src/plan/tool-names.ts'

describe('tool names', () => {
  it('mirrors the official rule: clean names verbatim, others normalized with a 12-hex hash within 64 chars', () => {
    assert.equal(publicToolName('github', 'list_issues'), 'mcp__github__list_issues')
    const dotted = publicToolName('fs', 'read.file')
    assert.match(dotted, /^mcp__fs__read_file_[0-9a-f]{12}$/)
    const long = publicToolName('a'.repeat(32), 'x'.repeat(80))
    assert.equal(long.length, 64)
    assert.ok(long.startsWith(`mcp__${'a'.repeat(32)}__`), 'the server prefix survives truncation')
    assert.notEqual(publicToolName('s', 'x'.repeat(80)), publicToolName('s', `${'x'.repeat(79)}y`))
  })
  it('recovers raw names exactly when clean, else the normalized stem', () => {
    assert.equal(rawNameOf('mcp__github__list_issues', 'github'), 'list_issues')
    assert.equal(rawNameOf('mcp__a__b__c', 'a'), 'b__c')
    assert.equal(rawNameOf(publicToolName('fs', 'read.file'), 'fs'), 'read_file')
  })
  it('overlap: equal names, or one is the other followed by "__"', () => {
    assert.ok(namesOverlap('a', 'a'))
    assert.ok(namesOverlap('a', 'a__b'))
    assert.ok(namesOverlap('a__b', 'a'))
    assert.ok(!namesOverlap('a', 'a_b'))
    assert.ok(!namesOverlap('a', 'ab'))
  })
  it('owner index: longest matching prefix, nothing for foreign names', () => {
    const idx = ownerIndex(['a', 'abc', 'docs_1a2b3c'])
    assert.equal(idx.ownerOf('mcp__a__x'), 'a')
    assert.equal(idx.ownerOf('mcp__abc__x'), 'abc')
    assert.equal(idx.ownerOf('mcp__docs_1a2b3c__read'), 'docs_1a2b3c')
    assert.equal(idx.ownerOf('mcp__other__x'), undefined)
    assert.equal(idx.ownerOf('read_file'), undefined)
  })
})
