/**
 * A checkout's directory name or server name can carry terminal controls
 * (OSC 52 clipboard write, ESC[2K, CR): the host's one-time notice on the
 * terminal and the agent's prompt section show them as visible escapes,
 * never raw.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { noticeText, promptText, terminalNotice } from '../../src/host/tell.ts'

const hostile = '/tmp/repo/pkg\u001b]52;c;cm0gLXJmIH4K\u0007\u001b[2K\rall good'
const explained = {
  root: hostile,
  active: 1,
  reasons: [
    { kind: 'needs-trust', name: 'x\u001b[31m', words: 'not trusted yet', fix: `dsh-mcp trust -C '${hostile}' x` },
  ],
} as unknown as Parameters<typeof noticeText>[0]
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

test('the terminal notice writes no raw control character from a root or a name', () => {
  const written: string[] = []
  const logged: string[] = []
  const sink = terminalNotice(
    { info: (_f: string, text: string) => void logged.push(text) } as never,
    { write: (s: string) => written.push(s) > 0 } as never,
  )
  sink(noticeText(explained))
  assert.equal(written.length, 1)
  assert.ok(!RAW.test(written[0]!.replace(/\n/g, '')), JSON.stringify(written[0]))
  assert.ok(written[0]!.includes('\\x1b]52;c;'), 'the escape is shown as text')
})

test("the agent's prompt section carries no raw control character", () => {
  const text = promptText(explained)
  assert.ok(!RAW.test(text.replace(/\n/g, '')), JSON.stringify(text))
})
