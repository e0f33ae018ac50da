/**
 * Issue 12 class 3 (second half) — control characters in config strings
 * cannot forge or hide terminal lines. A hostile repository puts ANSI erase
 * and carriage returns (`\x1b[2K\r`), an OSC 8 hyperlink, SGR conceal
 * (`\x1b[8m`), C1 CSI (`\x9b`), bidi overrides and U+2028 into the command,
 * arguments, description, cwd, an env key, an unknown key and the project's
 * own directory name. Every read command of the real CLI (with colour forced
 * on, so our own colour still works), the trust review and the real host's
 * log lines show them as visible escapes: no raw control character survives
 * except our own SGR colour codes; `--json` keeps every value exact.
 */
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { jsonTerminalSafe, terminalSafe } from '../../src/config/terminal-safe.ts'
import { runCli } from '../support/cli.ts'
import { readMarker, reapAll } from '../support/procs.ts'
import { friendly, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

const ERASE = '\u001b[2K\r'
const LINK = '\u001b]8;;https://evil.test/\u0007click me\u001b]8;;\u0007'
const CONCEAL = '\u001b[8mhidden\u001b[0m'
const BIDI = '\u202eexe.txt\u202c\u2066x\u2069'
const FORGED = `${ERASE}✔ all servers trusted and verified`
const HOSTILE = [ERASE, LINK, CONCEAL, BIDI, '\u009b31m', 'a\u2028b', '\u007f', FORGED]

/** A friendly file whose strings hold the raw characters (DEL, C1, U+2028 written as JSON escapes: YAML forbids them raw). */
const fileOf = (servers: Record<string, unknown>) => jsonTerminalSafe(friendly(servers))

/** Our own colour codes (styleText): the only escapes allowed in coloured output. */
const OURS = /\u001b\[(?:3[0-9]|39|1|22|2|90|9[0-7])m/g
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

function assertSafe(what: string, text: string): void {
  const left = text.replace(OURS, '')
  const m = RAW.exec(left)
  assert.equal(
    m,
    null,
    `${what}: raw U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at …${JSON.stringify(left.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 20))}`,
  )
}

test('terminalSafe: every hostile shape becomes visible text; printable text is unchanged', () => {
  assert.equal(terminalSafe(ERASE), '\\x1b[2K\\r')
  assert.equal(terminalSafe(LINK), '\\x1b]8;;https://evil.test/\\x07click me\\x1b]8;;\\x07')
  assert.equal(terminalSafe(BIDI), '\\u202eexe.txt\\u202c\\u2066x\\u2069')
  assert.equal(terminalSafe('\u009b31m a\u2028b \u007f'), '\\x9b31m a\\u2028b \\x7f')
  assert.equal(terminalSafe('ok: ü 漢字 😀\tline\nnext'), 'ok: ü 漢字 😀\tline\nnext')
  for (const h of HOSTILE) assertSafe('terminalSafe', terminalSafe(h))
})

test('every read command and the trust review of the real CLI escape config strings (colour forced on); --json keeps the values', async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const base = makeTempDir('dsh-mcp-esc-')
  // The project directory's own name carries an erase sequence.
  const root = join(base.path, `proj${ERASE}fake`)
  mkdirSync(join(root, '.git'), { recursive: true })
  mkdirSync(join(root, '.dsh'))
  const server = {
    command: `echo${CONCEAL}`,
    args: HOSTILE,
    description: `docs ${FORGED}`,
    cwd: `sub${LINK}`,
    env: { [`KEY${ERASE}`]: 'v' },
    [`bogus${ERASE}key`]: 1,
  }
  const { writeFileSync } = await import('node:fs')
  writeFileSync(join(root, '.dsh', 'mcp.yml'), fileOf({ hostile: server, [`bad${ERASE}name`]: { command: 'x' } }))
  const o = { cwd: root, dshHome: home.path, home: home.path, env: { FORCE_COLOR: '1' } }
  const commands = [
    ['list'],
    ['list', '--json'],
    ['get', 'hostile'],
    ['get', 'hostile', '--json'],
    ['validate'],
    ['doctor'],
    ['doctor', '--json'],
    ['status'],
    ['trust', 'hostile'],
    ['get', `nope${ERASE}`],
  ]
  for (const args of commands) {
    const r = await runCli([...args, '-C', root], o)
    assertSafe(`${args.join(' ')} stdout`, r.stdout)
    assertSafe(`${args.join(' ')} stderr`, r.stderr)
    if (args[0] === 'list' && args.length === 1) assert.match(r.stdout, OURS, 'our own colour still works')
  }
  const get = await runCli(['get', 'hostile', '--json', '-C', root], o)
  const view = JSON.parse(get.stdout) as { args?: string[]; entry?: { args?: string[] } }
  const args = view.args ?? view.entry?.args
  assert.deepEqual(args, HOSTILE, 'JSON carries the exact values')
  const review = await runCli(['trust', 'hostile', '-C', root], o)
  assert.ok(
    review.stdout.includes('\\x1b[2K\\r') || review.stderr.includes('\\x1b[2K\\r'),
    'the review shows the erase sequence as text',
  )
})

test('the real host logs config strings escaped', async (t) => {
  const marks = makeTempDir('dsh-mcp-marks-')
  const pids = marks.mkdir('pids')
  t.after(() => reapAll(pids))
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const base = makeTempDir('dsh-mcp-esc-')
  const root = join(base.path, `p${ERASE}x`)
  mkdirSync(join(root, '.git'), { recursive: true })
  const mark = marks.join('h.log')
  const e = stdioEntry('h', { marker: mark, pidfileDir: pids, extraArgs: HOSTILE })
  const { writeFileSync } = await import('node:fs')
  mkdirSync(join(root, '.dsh'))
  writeFileSync(join(root, '.dsh', 'mcp.yml'), fileOf({ h: e, [`bad${ERASE}`]: { command: `x${LINK}` } }))
  await w.host.createAgent({ cwd: root })
  await w.mcp.whenIdle()
  assert.deepEqual(readMarker(mark), [], 'untrusted: nothing ran')
  const lines = w.host.logs.filter((l) => l.name === 'dsh-project-mcp').map((l) => l.text)
  assert.ok(
    lines.some((l) => l.includes('\\x1b[2K\\r')),
    `the log shows the sequence as text:\n${lines.join('\n')}`,
  )
  for (const l of lines) assertSafe('host log', l)
})
