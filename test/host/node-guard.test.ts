/**
 * `nodeProblem`: the one-line cause on a Node older than 22, nothing on 22
 * and later (src/host/node-guard.ts). The module evaluated on a real Node 20:
 * test/e2e/dsh-node20.test.ts.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { nodeProblem } from '../../src/host/node-guard.ts'

test('Node 20 and 18: one line naming the Node the host needs and the one running', () => {
  for (const v of ['20.20.2', 'v18.19.0']) {
    const line = nodeProblem(v)
    assert.ok(line)
    assert.doesNotMatch(line, /\n/)
    assert.match(
      line,
      /^dsh-project-mcp needs Node >= 22 \(the Node the dsh host needs\); this host runs on Node v(20|18)\./,
    )
  }
})

test('Node 22 and later: no problem', () => {
  for (const v of ['22.0.0', '22.23.3', 'v24.1.0', '30.0.0']) assert.equal(nodeProblem(v), undefined)
  assert.equal(nodeProblem(process.versions.node), undefined, 'the Node 22 these tests run on')
})
