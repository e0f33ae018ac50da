/** src/budget/search-tool.ts: the search tool's description, shape, arguments and answer. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  parseSearchArgs,
  SEARCH_TOOL_NAME,
  searchAnswer,
  searchToolDescription,
  searchToolShape,
} from '../../src/budget/search-tool.ts'

test('the description lists each server on one line, never its tool names', () => {
  const d = searchToolDescription([
    { name: 'github', description: 'Issues and\npull requests', deferred: 26 },
    { name: 'memory' },
  ])
  const lines = d.split('\n')
  assert.ok(lines.includes('- github: Issues and pull requests (26 more tools)'))
  assert.ok(lines.includes('- memory: MCP server'))
  assert.doesNotMatch(d, /create_issue/)
})

test('the shape: name, one required query, a bounded limit', () => {
  const s = searchToolShape('d')
  assert.equal(s.name, SEARCH_TOOL_NAME)
  assert.deepEqual(s.parameters.required, ['query'])
  assert.equal(s.parameters.properties.limit.maximum, 10)
})

test('arguments: query required; limit defaulted and clamped', () => {
  assert.deepEqual(parseSearchArgs({ query: 'read a file' }), { query: 'read a file', limit: 5 })
  assert.deepEqual(parseSearchArgs({ query: 'x', limit: 99 }), { query: 'x', limit: 10 })
  assert.deepEqual(parseSearchArgs({ query: 'x', limit: 0 }), { query: 'x', limit: 1 })
  assert.ok('error' in parseSearchArgs({}))
  assert.ok('error' in parseSearchArgs(null))
  assert.ok('error' in parseSearchArgs({ query: '  ' }))
})

test('the answer: one line per match and what became callable', () => {
  const hits = [{ name: 'fs_read_file', server: 'fs', summary: 'Read a file.', score: 1 }]
  const a = searchAnswer(hits, ['fs_read_file'])
  assert.match(a, /- fs_read_file \(fs\): Read a file\./)
  assert.match(a, /now available/)
  assert.match(searchAnswer(hits, []), /already available/)
  assert.match(searchAnswer([], []), /No matching tool/)
})
