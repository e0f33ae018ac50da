/**
 * Confirmation: `confirm()` on plain streams, and `dsh-mcp trust` asking on
 * a terminal: "y" trusts, "n" (or anything else) trusts nothing and exits 1;
 * no terminal, no question. The bin on a real pseudo-terminal:
 * test/e2e/cli-binary.test.ts.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { after, describe, test } from 'node:test'
import { confirm } from '../../src/cli/prompt.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
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

describe('trust on a terminal', () => {
  for (const [answer, code] of [
    ['y\n', 0],
    ['n\n', 1],
  ] as const) {
    test(`answering ${JSON.stringify(answer.trim())} exits ${code}`, async () => {
      const project = makeProject({ '.dsh/mcp.yml': 'servers:\n  tool: {command: node, args: [t.js]}\n' })
      const home = makeTempDir()
      const run = await runCli(['trust', 'tool', '--verbose'], {
        cwd: project.path,
        dshHome: home.join('.dsh'),
        home: home.path,
        env: { TERM: 'dumb' },
        stdin: answer,
        tty: {},
      })
      const r = { code: run.code, out: run.stdout + run.stderr }
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

test('no terminal on stdin: no question, exit 1, nothing trusted', async () => {
  const project = makeProject({ '.dsh/mcp.yml': 'servers:\n  tool: {command: node, args: [t.js]}\n' })
  const home = makeTempDir()
  const r = await runCli(['trust', 'tool'], {
    cwd: project.path,
    dshHome: home.join('.dsh'),
    home: home.path,
    stdin: 'y\n',
  })
  assert.equal(r.code, 1)
  assert.match(r.stderr, /no terminal to ask on; pass --yes/)
  assert.doesNotMatch(r.stderr, /\[y\/N\]/)
  assert.ok(!existsSync(join(home.join('.dsh'), 'mcp-trust.json')))
})
