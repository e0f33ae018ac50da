/**
 * The server log writer on real files: every secret is `***` before it is
 * written — whole, cut across two chunks, inside a very long line cut into
 * pieces, and every line of a multi-line (PEM) value; the file is 0600 and
 * its directory 0700 whatever the umask; a link planted at the log path or
 * at `mcp-logs/` is refused and its target untouched; at `maxBytes` the log
 * rotates to `.1` (one backup).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { MAX_LINE, openServerLog } from '../../src/launch/log-writer.ts'
import { makeTempDir } from '../support/tmp.ts'

const home = makeTempDir('dsh-mcp-logw-')
after(() => home.cleanup())
const SECRET = 'tok_9f8e7d6c5b4a'
const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----'
let n = 0
const file = () => path.join(home.path, `h${n++}`, 'mcp-logs', 'srv-000000000000.log')

test('secrets are redacted whole, across chunks, in long lines and line by line for multi-line values', () => {
  const f = file()
  const log = openServerLog(f, { secrets: [SECRET, PEM] })
  log.write(`plain ${SECRET} end\n`)
  log.write(`split tok_9f8e`)
  log.write(`7d6c5b4a across writes\n`)
  // A line longer than MAX_LINE is flushed in pieces; the secret straddles the first cut.
  log.write(`${'x'.repeat(MAX_LINE - 2)}${SECRET.slice(0, 6)}`)
  log.write(`${SECRET.slice(6)}${'y'.repeat(100)}`)
  log.write(`\n${PEM}\n`)
  for (const line of PEM.split('\n')) log.write(`key line: ${line}\n`)
  log.write(`no newline at the end ${SECRET}`)
  log.end()
  const text = readFileSync(f, 'utf8')
  assert.doesNotMatch(text, /tok_9f8e7d6c5b4a/)
  assert.doesNotMatch(text, /MIIEvQIBADANBgkqhkiG9w0BAQEFAASC|BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj/)
  assert.match(text, /plain \*\*\* end/)
  assert.match(text, /split \*\*\* across writes/)
  assert.match(text, /no newline at the end \*\*\*/)
  assert.equal(text.split('\n').filter((l) => l.includes('key line:')).length, 4)
  // No piece of the secret survives a piece boundary.
  for (let i = 0; i + 6 <= SECRET.length; i++)
    assert.ok(!text.includes(SECRET.slice(i, i + 6)), `fragment ${SECRET.slice(i, i + 6)}`)
  assert.match(text, /x\*\*\*y/, 'the long line keeps its redaction in place')
  assert.match(text, /^\d{4}-\d\d-\d\dT[\d:.]+Z server\| plain/m, "lines carry a time and the server's mark")
})

test('0600 file in a 0700 directory whatever the umask', () => {
  const old = process.umask(0)
  try {
    const f = file()
    const log = openServerLog(f, { secrets: [] })
    log.write('hello\n')
    log.end()
    assert.equal(statSync(f).mode & 0o777, 0o600)
    assert.equal(statSync(path.dirname(f)).mode & 0o777, 0o700)
  } finally {
    process.umask(old)
  }
})

test('a link planted at the log path or at mcp-logs/ is refused; its target is untouched', () => {
  const victim = home.join('victim.txt')
  writeFileSync(victim, 'original\n')
  // 1: the log file is a link.
  const f1 = file()
  mkdirSync(path.dirname(f1), { recursive: true, mode: 0o700 })
  symlinkSync(victim, f1)
  assert.throws(() => openServerLog(f1, { secrets: [] }), /symbolic link/)
  // 2: mcp-logs/ is a link to another directory.
  const f2 = file()
  const elsewhere = home.mkdir(`elsewhere${n}`)
  mkdirSync(path.dirname(path.dirname(f2)), { recursive: true })
  symlinkSync(elsewhere, path.dirname(f2))
  assert.throws(() => openServerLog(f2, { secrets: [] }), /symbolic link/)
  assert.equal(existsSync(path.join(elsewhere, path.basename(f2))), false)
  // 3: the backup path is a link: rotation renames over the link, never writes through it.
  const f3 = file()
  mkdirSync(path.dirname(f3), { recursive: true, mode: 0o700 })
  symlinkSync(victim, `${f3}.1`)
  const log = openServerLog(f3, { secrets: [], maxBytes: 200 })
  for (let i = 0; i < 10; i++) log.write(`${'z'.repeat(40)} ${i}\n`)
  log.end()
  assert.equal(readFileSync(victim, 'utf8'), 'original\n')
})

test('rotates at maxBytes to one backup', () => {
  const f = file()
  const log = openServerLog(f, { secrets: [SECRET], maxBytes: 500 })
  for (let i = 0; i < 40; i++) log.write(`line ${i} ${SECRET}\n`)
  log.end()
  assert.ok(statSync(f).size <= 500, 'the live file stays under the bound')
  assert.ok(statSync(`${f}.1`).size <= 500, 'so does the backup')
  assert.equal(existsSync(`${f}.2`), false, 'one backup only')
  const all = readFileSync(`${f}.1`, 'utf8') + readFileSync(f, 'utf8')
  assert.match(all, /line 39 \*\*\*/)
  assert.doesNotMatch(all, /tok_9f8e/)
  assert.equal(statSync(f).mode & 0o777, 0o600)
})
