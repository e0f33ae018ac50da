/**
 * The bin's V8 code cache (bin/load-bundle.js), on the real bin and bundle:
 * the first successful run of a command writes `~/.cache/dsh-mcp/cli-<command>-…`
 * (0700 directory, 0600 file) and later runs answer the same from it; a
 * failed command writes none; a corrupt cache is replaced, a cache directory
 * that is a link or writable by others is neither read nor written through,
 * and nothing is made under a home another user owns.
 */
import assert from 'node:assert/strict'
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runBin as runCli } from '../support/cli.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

const YAML = 'servers:\n  a: {command: node, args: [a.js]}\n  b: {url: "https://example.test/mcp"}\n'

function setup() {
  const project = makeProject({ '.dsh/mcp.yml': YAML })
  const home = makeTempDir('dsh-mcp-code-cache-')
  const dshHome = home.mkdir('.dsh')
  return { project, home, opts: { cwd: project.path, dshHome, home: home.path } }
}

const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin')) : [])

test('the first list writes its cache (0700 dir, 0600 file); later runs print the same', async () => {
  const { home, opts } = setup()
  const first = await runCli(['list', '--json'], opts)
  assert.equal(first.code, 0, first.stderr)
  const dir = home.join('.cache', 'dsh-mcp')
  const files = cacheFiles(dir)
  assert.equal(files.length, 1, `cache files: ${files.join(', ')}`)
  assert.match(files[0]!, /^cli-list-v\d+\.\d+\.\d+-[a-z0-9]+-[0-9a-f]{8}\.bin$/)
  if (process.platform !== 'win32') {
    assert.equal(statSync(dir).mode & 0o777, 0o700)
    assert.equal(statSync(join(dir, files[0]!)).mode & 0o777, 0o600)
  }
  const written = statSync(join(dir, files[0]!)).mtimeMs
  for (let i = 0; i < 2; i++) {
    const again = await runCli(['list', '--json'], opts)
    assert.deepEqual(again, first)
  }
  assert.equal(statSync(join(dir, files[0]!)).mtimeMs, written, 'a used cache is not written again')
})

test('a failed command writes no cache', async () => {
  const { home, opts } = setup()
  const r = await runCli(['list', '--no-such-flag'], opts)
  assert.equal(r.code, 2)
  assert.equal(existsSync(home.join('.cache')), false)
})

test('a corrupt cache is not trusted: the output stays right and the file is replaced', async () => {
  const { home, opts } = setup()
  const good = await runCli(['list', '--json'], opts)
  const dir = home.join('.cache', 'dsh-mcp')
  const file = join(dir, cacheFiles(dir)[0]!)
  const text = readFileSync(file)
  const header = text.subarray(0, text.indexOf(10) + 1)
  writeFileSync(file, Buffer.concat([header, Buffer.from('not a V8 code cache at all')]))
  assert.deepEqual(await runCli(['list', '--json'], opts), good)
  assert.ok(statSync(file).size > 1000, 'the corrupt cache was replaced')
  writeFileSync(file, 'no header\n')
  assert.deepEqual(await runCli(['list', '--json'], opts), good)
  assert.ok(statSync(file).size > 1000, 'the headerless file was replaced')
})

test('a cache directory that is a link, or that others can write, is neither read nor written', {
  skip: process.platform === 'win32',
}, async () => {
  const { home, opts } = setup()
  const elsewhere = makeTempDir('dsh-mcp-code-cache-elsewhere-')
  mkdirSync(home.join('.cache'))
  symlinkSync(elsewhere.path, home.join('.cache', 'dsh-mcp'))
  const r = await runCli(['list', '--json'], opts)
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(readdirSync(elsewhere.path), [], 'nothing written through the link')
  assert.ok(lstatSync(home.join('.cache', 'dsh-mcp')).isSymbolicLink())

  const open = setup()
  const dir = open.home.join('.cache', 'dsh-mcp')
  mkdirSync(dir, { recursive: true })
  chmodSync(dir, 0o777)
  assert.equal((await runCli(['list', '--json'], open.opts)).code, 0)
  assert.deepEqual(cacheFiles(dir), [], 'nothing written into a directory others can write')
})

test('nothing is made under a home another user owns', {
  skip: typeof process.getuid !== 'function' || process.getuid() !== 0,
}, async () => {
  const { home, opts } = setup()
  chownSync(home.path, 65534, 65534)
  const r = await runCli(['list', '--json'], opts)
  assert.equal(r.code, 0, r.stderr)
  assert.equal(existsSync(home.join('.cache')), false)
})
