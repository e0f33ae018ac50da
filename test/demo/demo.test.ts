/**
 * `npm run demo` is the product's main job: it must run on a real host, show
 * each agent only its own project's tools, pick up a live edit, and exit 0
 * leaving no server process behind.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const demo = fileURLToPath(new URL('../../demo/run.mjs', import.meta.url))

test('the demo shows per-project tools side by side and a live edit arriving', async () => {
  const { stdout } = await run(process.execPath, [demo], { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 })
  const table = stdout.slice(stdout.indexOf('agent in webshop'), stdout.indexOf('webshop agent calls'))
  const [left, right] = table
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .reduce<[string[], string[]]>(
      (acc, line) => {
        const [l, r] = line.trim().split(/\s{2,}/)
        if (l) acc[0].push(l)
        if (r) acc[1].push(r)
        return acc
      },
      [[], []],
    )
  assert.deepEqual(left, ['mcp__catalog__price', 'mcp__catalog__search_products', 'mcp__notes__remember'])
  assert.deepEqual(right, ['mcp__notes__remember', 'mcp__warehouse__list_tables', 'mcp__warehouse__run_query'])
  assert.match(stdout, /webshop agent calls mcp__catalog__price\s+→ \[webshop catalog\] price/)
  assert.match(stdout, /datalake agent calls mcp__catalog__price\s+→ unknown tool/)
  assert.match(stdout, /arrived after \d+ ms/)
  assert.match(stdout, /webshop agent now sees: .*mcp__reviews__top_reviews/)
  assert.doesNotMatch(stdout.slice(stdout.indexOf('datalake agent still sees')), /reviews/)
  const { stdout: ps } = await run('ps', ['-eo', 'args'])
  assert.doesNotMatch(ps, /demo\/example-server\.mjs/)
})
