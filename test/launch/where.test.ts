/** Where the launcher is: this Node, and the launcher script beside the calling modules (`.ts` under src). */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { test } from 'node:test'
import { launcher } from '../../src/launch/where.ts'

test('the node binary is this one and the script exists; computed once', () => {
  const l = launcher()
  assert.equal(l.node, process.execPath)
  assert.match(l.script, /[/\\]launch[/\\]launcher\.(js|ts)$/)
  assert.ok(existsSync(l.script))
  assert.equal(launcher(), l)
})
