/**
 * Confirmation: `confirm()` on plain streams, and `dsh-mcp trust` on a real
 * pseudo-terminal (util-linux `script`): "y" trusts, "n" (or anything else)
 * trusts nothing and exits 1.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import { confirm } from '../../src/cli/prompt.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { BIN, ensureBuilt } from '../support/cli.ts'

before(ensureBuilt)
after(cleanupAll)

describe('confirm()', () => {
  for (const [answer, expected] of [
    ['y\n', true],
    ['YES\n', true],
    [' yes \n', true],
    ['n\n', false],
    ['\n', false],
    ['yep\n', false],
    ['', false],
  ] as const) {
    test(`${JSON.stringify(answer)} → ${expected}`, async () => {
      const input = new PassThrough()
      const output = new PassThrough()
      let asked = ''
      output.on('data', (c) => {
        asked += String(c)
      })
      const pending = confirm('Trust it?', { input, output })
      input.end(answer)
      assert.equal(await pending, expected)
      assert.equal(asked, 'Trust it? [y/N] ')
    })
  }
})

function onTty(command: string, cwd: string, env: Record<string, string>, answer: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const p = execFile('script', ['-qec', command, '/dev/null'], { cwd, env, timeout: 30_000 }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout })
    })
    p.stdin?.end(answer)
  })
}

describe('trust on a terminal', () => {
  for (const [answer, code] of [
    ['y\n', 0],
    ['n\n', 1],
  ] as const) {
    test(`answering ${JSON.stringify(answer.trim())} exits ${code}`, async () => {
      const project = makeProject({ '.dsh/mcp.yml': 'servers:\n  tool: {command: node, args: [t.js]}\n' })
      const home = makeTempDir()
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.path, DSH_HOME: home.join('.dsh'), TERM: 'dumb' }
      const r = await onTty(`'${process.execPath}' '${BIN}' trust tool`, project.path, env, answer)
      assert.equal(r.code, code, r.out)
      assert.match(r.out, /command: +node t\.js/)
      assert.match(r.out, /Trust this server\? \[y\/N\]/)
      const store = join(home.join('.dsh'), 'mcp-trust.json')
      if (code === 0) assert.match(readFileSync(store, 'utf8'), /"tool"/)
      else {
        assert.ok(!existsSync(store))
        assert.match(r.out, /nothing trusted/)
      }
    })
  }
})
