/**
 * `dsh-mcp remove a b c`: several names, one stderr line each, in order; a
 * missing name fails the run (exit 1) and the others are still removed.
 * `dsh-mcp validate --strict`: an unknown key (`arg:` for `args:`) is an
 * error (exit 1, "did you mean" kept); without `--strict` it stays a warning.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
after(cleanupAll)

const THREE =
  'servers:\n  a: {command: node, args: [a.js]}\n  b: {command: node, args: [b.js]}\n  c: {command: node, args: [c.js]}\n'

test('remove a b c: each removed, one line each', async () => {
  const p = makeProject({ '.dsh/mcp.yml': THREE })
  const r = await runCli(['remove', 'a', 'b', 'c'], { cwd: p.path, dshHome: makeTempDir().path })
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(r.stderr.trimEnd().split('\n'), [
    'Removed "a" from .dsh/mcp.yml',
    'Removed "b" from .dsh/mcp.yml',
    'Removed "c" from .dsh/mcp.yml',
  ])
  assert.doesNotMatch(readFileSync(p.join('.dsh/mcp.yml'), 'utf8'), /\b[abc]:/)
})

test('remove a nope c: the missing one fails the run (exit 1), the others are still removed', async () => {
  const p = makeProject({ '.dsh/mcp.yml': THREE })
  const r = await runCli(['remove', 'a', 'nope', 'c'], { cwd: p.path, dshHome: makeTempDir().path })
  assert.equal(r.code, 1)
  const lines = r.stderr.trimEnd().split('\n')
  assert.equal(lines.length, 3, r.stderr)
  assert.equal(lines[0], 'Removed "a" from .dsh/mcp.yml')
  assert.match(lines[1]!, /^dsh-mcp: no server "nope"/)
  assert.equal(lines[2], 'Removed "c" from .dsh/mcp.yml')
  const yml = readFileSync(p.join('.dsh/mcp.yml'), 'utf8')
  assert.match(yml, /\bb:/)
  assert.doesNotMatch(yml, /\b[ac]:/)
})

const TYPO = 'servers:\n  shell:\n    command: npx\n    arg: [-y, some-server]\n'

test('validate --strict: arg: for args: is an error, exit 1, with "did you mean"', async () => {
  const p = makeProject({ '.dsh/mcp.yml': TYPO })
  const o = { cwd: p.path, dshHome: makeTempDir().path }
  const loose = await runCli(['validate'], o)
  assert.equal(loose.code, 0, 'without --strict an unknown key is a warning')
  assert.match(loose.stderr, /warning: .*unknown key "arg"/)
  const strict = await runCli(['validate', '--strict'], o)
  assert.equal(strict.code, 1, strict.stderr)
  assert.match(
    strict.stderr,
    /^\.dsh\/mcp\.yml:4:5: error: servers\.shell\.arg: unknown key "arg" in a server entry; did you mean "args"\?$/m,
  )
  const named = await runCli(['validate', '--strict', '.dsh/mcp.yml'], o)
  assert.equal(named.code, 1, 'a named file too')
})
