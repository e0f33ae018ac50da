/** The trust command shown to users: each word shell-quoted only when it needs to be, so it pastes as shown. */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { shellWord, trustCommand } from '../../src/trust/command.ts'

test('plain words stay bare; anything else is single-quoted with embedded quotes escaped', () => {
  assert.equal(shellWord('/home/u/proj'), '/home/u/proj')
  assert.equal(shellWord('a b'), `'a b'`)
  assert.equal(shellWord(`it's`), `'it'\\''s'`)
  assert.equal(shellWord('$(touch x)'), `'$(touch x)'`)
  assert.equal(trustCommand('/p/my repo', 'gh'), `dsh-mcp trust -C '/p/my repo' gh`)
})

test('a real shell reads each quoted word back unchanged', () => {
  for (const word of ['a b', `it's`, '$(id)', '`id`', 'x;y', '*', '~', 'new\nline', '']) {
    const out = execFileSync('sh', ['-c', `printf %s ${shellWord(word)}`], { encoding: 'utf8' })
    assert.equal(out, word)
  }
})
