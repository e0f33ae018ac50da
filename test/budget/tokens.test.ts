/**
 * src/budget/tokens.ts: the JSON the host sends per tool, and the token estimate held against a real
 * byte-pair tokenizer (o200k_base, gpt-tokenizer) over the recorded catalogs of real MCP servers.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { readCatalogs } from '../../bench/support/catalogs.ts'
import { estimateTokens, hostToolJson, toolTokens } from '../../src/budget/tokens.ts'

test('the host form of a tool is {type:function, function:{name, description, parameters}}', () => {
  const json = JSON.parse(hostToolJson({ name: 'a_b', description: 'd', parameters: { type: 'object' } }))
  assert.deepEqual(json, {
    type: 'function',
    function: { name: 'a_b', description: 'd', parameters: { type: 'object' } },
  })
  const bare = JSON.parse(hostToolJson({ name: 'x' }))
  assert.deepEqual(bare.function, { name: 'x', description: '', parameters: {} })
})

test('a schema that cannot be serialized is counted without it (no throw)', () => {
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  assert.ok(toolTokens({ name: 'x', description: 'y', parameters: cyclic }) > 0)
})

test('the estimate stays within 12% of o200k_base per real catalog and 20% per tool', () => {
  const catalogs = readCatalogs()
  assert.ok(catalogs.length >= 5, 'recorded catalogs are there')
  let tools = 0
  for (const c of catalogs) {
    let real = 0
    let est = 0
    for (const t of c.tools) {
      const json = hostToolJson({ name: t.name, description: t.description, parameters: t.inputSchema })
      const r = encode(json).length
      const e = estimateTokens(json)
      assert.ok(Math.abs(e - r) / r <= 0.2, `${c.server}/${t.name}: estimate ${e}, o200k ${r}`)
      real += r
      est += e
      tools++
    }
    assert.ok(Math.abs(est - real) / real <= 0.12, `${c.server}: estimate ${est}, o200k ${real}`)
  }
  assert.ok(tools >= 90)
})

test('plain text and non-Latin text are counted too', () => {
  assert.equal(estimateTokens(''), 0)
  const prose = 'Read the complete contents of a file from the file system.'
  const real = encode(prose).length
  assert.ok(Math.abs(estimateTokens(prose) - real) <= 3, `${estimateTokens(prose)} vs ${real}`)
  assert.ok(estimateTokens('读取文件的全部内容') >= 4)
})
