/**
 * The one-line prompts of src/cli/prompt.ts (`confirm`, `choose`) over real
 * streams: what each writes, and what each answer and end of input resolve to.
 */
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { test } from 'node:test'
import { choose, confirm } from '../../src/cli/prompt.ts'

function streams(answer: string | null) {
  const input = new PassThrough()
  const output = new PassThrough()
  let written = ''
  output.on('data', (c: Buffer) => {
    written += c.toString('utf8')
  })
  if (answer === null) input.end()
  else input.end(`${answer}\n`)
  return { input, output, written: () => written }
}

test('choose: a listed number is its index; the menu numbers the choices', async () => {
  const s = streams(' 2 ')
  assert.equal(await choose('which file', ['a.yml', 'b.yml'], s), 1)
  assert.equal(s.written(), 'which file\n  1) a.yml\n  2) b.yml\nchoose 1-2: ')
})

test('choose: anything else, or end of input, is undefined', async () => {
  for (const answer of ['0', '3', '1.5', 'b.yml', '', null])
    assert.equal(await choose('which', ['a', 'b'], streams(answer)), undefined, `answer ${JSON.stringify(answer)}`)
})

test('confirm: y or yes is true; anything else, or end of input, is false', async () => {
  const s = streams('YES')
  assert.equal(await confirm('go?', s), true)
  assert.equal(s.written(), 'go? [y/N] ')
  assert.equal(await confirm('go?', streams(' y ')), true)
  for (const answer of ['n', 'yess', '', null]) assert.equal(await confirm('go?', streams(answer)), false)
})
