// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config entries hold literal ${secret:NAME} references
/**
 * Issue 29 item 3, the trust review: one screen for a handful of servers (a
 * summary table; details only for what needs attention; `--verbose` for
 * all), what changed field by field for a changed server (code-loading env
 * values in full, others masked, `${secret:NAME}` as the reference), colour
 * only on a terminal without NO_COLOR, and per-server answers `y/n/a/q` on a
 * terminal. The bin on a real pseudo-terminal is test/e2e/cli-binary.test.ts.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { after, test } from 'node:test'
import { chooseEach } from '../../src/cli/prompt.ts'
import { runCli } from '../support/cli.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

const seven = [
  'servers:',
  ...['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `  ${n}: {command: node, args: [${n}.js]}`),
  '  g: {command: node, args: [g.js], env: {NODE_OPTIONS: "--require x.cjs", TOKEN: "tok-abc-123", MEMORY_FILE_PATH: /tmp/m.json, API: "${secret:API}"}}',
  '',
].join('\n')

function world(text = seven) {
  const project = makeProject({ '.dsh/mcp.yml': text })
  const home = makeTempDir()
  const o = { cwd: project.path, dshHome: home.join('.dsh'), home: home.path }
  return { project, o, store: () => readFileSync(join(home.join('.dsh'), 'mcp-trust.json'), 'utf8') }
}

test('seven servers: a summary table and details for the one that needs attention; --verbose details all', async () => {
  const { o } = world()
  const r = await runCli(['trust', '--all', '--yes'], o)
  assert.equal(r.code, 0, r.stderr)
  const lines = r.stdout.trimEnd().split('\n')
  assert.ok(lines.length < 30, `one screen (${lines.length} lines)\n${r.stdout}`)
  assert.match(r.stdout, /^NAME +STATUS +TRANSPORT +RUNS +ATTENTION$/m)
  assert.match(r.stdout, /^g +new +stdio +node g\.js +code-loading env$/m)
  assert.match(r.stdout, /^a +new +stdio +node a\.js +-$/m)
  assert.doesNotMatch(r.stdout, /^a$/m, 'no details for a server that needs no attention')
  assert.match(r.stdout, /! env NODE_OPTIONS='--require x\.cjs'/)
  assert.doesNotMatch(r.stdout, /MEMORY_FILE_PATH=/, 'a data path is not flagged')
  assert.doesNotMatch(r.stdout + r.stderr, /tok-abc-123|\/tmp\/m\.json/)
  const { o: o2 } = world()
  const v = await runCli(['trust', '--all', '--yes', '--verbose'], o2)
  for (const n of ['a', 'b', 'g']) assert.match(v.stdout, new RegExp(`^${n}\\n  state:`, 'm'))
})

test('a changed server says what changed field by field: code-loading values in full, others masked, secret references as references', async () => {
  const { project, o, store } = world()
  assert.equal((await runCli(['trust', '--all', '--yes'], o)).code, 0)
  const file = join(project.path, '.dsh/mcp.yml')
  writeFileSync(
    file,
    readFileSync(file, 'utf8')
      .replace('g.js', 'g2.js')
      .replace('x.cjs', 'y.cjs')
      .replace('tok-abc-123', 'tok-xyz-789')
      .replace('secret:API', 'secret:API2'),
  )
  const r = await runCli(['trust', 'g', '--yes'], o)
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /^g +changed /m)
  assert.match(r.stdout, /! changed since it was last trusted:/)
  assert.match(r.stdout, /args: \["g\.js"\] → \["g2\.js"\]/)
  assert.match(r.stdout, /env\.NODE_OPTIONS: --require x\.cjs → --require y\.cjs/)
  assert.match(r.stdout, /env\.TOKEN: changed \(value masked\)/)
  assert.match(r.stdout, /env\.API: \$\{secret:API\} → \$\{secret:API2\}/)
  assert.doesNotMatch(r.stdout + r.stderr + store(), /tok-abc-123|tok-xyz-789/)
})

test('colour on a terminal only, never with NO_COLOR', async () => {
  const { o } = world()
  const tty = await runCli(['trust', '--all', '--yes'], { ...o, tty: {}, env: { TERM: 'xterm' } })
  assert.match(tty.stdout, /\u001b\[33m!/)
  const { o: o2 } = world()
  const plain = await runCli(['trust', '--all', '--yes'], { ...o2, tty: {}, env: { TERM: 'xterm', NO_COLOR: '1' } })
  assert.doesNotMatch(plain.stdout, /\u001b\[/)
  assert.match(plain.stdout, /! env NODE_OPTIONS/)
})

test('per server on a terminal: y/n, then q keeps what was accepted; a accepts the rest', async () => {
  const three =
    'servers:\n  a: {command: node, args: [a.js]}\n  b: {command: node, args: [b.js]}\n  c: {command: node, args: [c.js]}\n'
  const { o, store } = world(three)
  const r = await runCli(['trust', '--all'], { ...o, tty: {}, env: { TERM: 'dumb' }, stdin: 'y\nn\nq\n' })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /Trust a\? \[y\/n\/a\/q\]/)
  assert.match(r.stderr, /trusted: a\n/)
  assert.deepEqual(Object.keys(JSON.parse(store()).projects[Object.keys(JSON.parse(store()).projects)[0]!].servers), [
    'a',
  ])
  const { o: o2, store: store2 } = world(three)
  const all = await runCli(['trust', '--all'], { ...o2, tty: {}, env: { TERM: 'dumb' }, stdin: 'n\na\n' })
  assert.match(all.stderr, /trusted: b, c\n/)
  assert.doesNotMatch(store2(), /"a"/)
  const { o: o3 } = world(three)
  const none = await runCli(['trust', '--all'], { ...o3, tty: {}, env: { TERM: 'dumb' }, stdin: 'q\n' })
  assert.equal(none.code, 1)
  assert.match(none.stderr, /nothing trusted/)
})

test('chooseEach: anything else asks again; end of input is q', async () => {
  const input = new PassThrough()
  const output = new PassThrough()
  let asked = ''
  output.on('data', (c) => {
    asked += String(c)
  })
  const pending = chooseEach(['x', 'y', 'z'], (n) => `Trust ${n}?`, { input, output })
  input.end('maybe\ny\n')
  assert.deepEqual([...(await pending)], ['x'])
  assert.match(asked, /answer y \(yes\), n \(no\), a \(this and all the rest\) or q \(quit\)/)
  assert.equal(asked.match(/Trust x\?/g)?.length, 2)
})
