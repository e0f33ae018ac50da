/** src/budget/search.ts and synonyms.ts: the index over tool metadata, on the recorded real catalogs. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { catalogEntries } from '../../bench/support/catalogs.ts'
import { createToolIndex } from '../../src/budget/search.ts'
import { expandQuery } from '../../src/budget/synonyms.ts'

const index = createToolIndex(catalogEntries())
const top = (q: string, k = 3) => index.search(q, k).map((h) => h.name)

test('names, descriptions and parameters are searched', () => {
  assert.equal(top('read text file')[0], 'filesystem_read_text_file')
  assert.ok(top('merge pull request').includes('github_merge_pull_request'))
  // a parameter name: maps_distance_matrix has `origins` and `destinations`
  assert.ok(top('origins destinations').includes('google-maps_maps_distance_matrix'))
})

test('server names are searched (and camelCase / dashes split)', () => {
  const hits = index.search('slack', 10)
  assert.ok(hits.length >= 8)
  assert.ok(hits.every((h) => h.server === 'slack'))
  assert.ok(top('resource links').includes('everything_get-resource-links'))
})

test('a query naming a tool exactly ranks it first', () => {
  assert.equal(top('search_nodes')[0], 'memory_search_nodes')
  assert.equal(top('github_create_issue')[0], 'github_create_issue')
})

test('everyday wording reaches tool wording (synonyms)', () => {
  assert.deepEqual(expandQuery(['folder', 'PR', 'nothing']), ['directory', 'pull', 'request'])
  assert.ok(top('make a new folder').includes('filesystem_create_directory'))
  assert.ok(top('remember that Bob likes tea').some((n) => n.startsWith('memory_')))
})

test('results carry a one-line summary and the server; k bounds them; junk finds nothing', () => {
  const [hit] = index.search('screenshot', 1)
  assert.equal(hit?.name, 'puppeteer_puppeteer_screenshot')
  assert.equal(hit?.server, 'puppeteer')
  assert.equal(hit?.summary, 'Take a screenshot of the current page or a specific element')
  assert.equal(index.search('file', 2).length, 2)
  assert.deepEqual(index.search('', 5), [])
  assert.deepEqual(index.search('the of and', 5), [])
  assert.deepEqual(index.search('file', 0), [])
  assert.deepEqual(index.search('qqqqzzzz', 5), [])
})

test('duplicate public names: the first entry wins', () => {
  const i = createToolIndex([
    { name: 'x', raw: 'x', server: 's1', description: 'first' },
    { name: 'x', raw: 'x', server: 's2', description: 'second' },
  ])
  assert.equal(i.size, 1)
  assert.equal(i.search('x', 5)[0]?.server, 's1')
})
