/**
 * Crash safety and concurrency of the writer, through real `dsh-mcp add`
 * processes: SIGKILL at random instants never leaves a truncated, empty or
 * half-edited file; 20 writers started at once lose no row; a lock left
 * behind by a killed writer is taken over once stale.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { parseConfigText } from '../../src/config/parse.ts'
import { cleanupAll } from '../support/tmp.ts'
import { spawnBin } from '../support/cli.ts'
import { type Env, makeEnv } from '../support/cli-env.ts'
after(cleanupAll)

const start = (env: Env, args: string[]) =>
  spawnBin(args, { cwd: env.project.path, dshHome: env.dshHome, home: env.home.path })

function names(text: string): string[] {
  const parsed = parseConfigText(text, { file: 'mcp.yml', format: 'friendly' })
  assert.equal(parsed.ok, true, `file parses: ${JSON.stringify(parsed.diagnostics)}\n${text}`)
  return parsed.entries.map((e) => e.name)
}

describe('atomic, locked writes', () => {
  test('SIGKILL at random instants (40 kills midway): the file always holds the old or the new content', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': '# kept comment\nservers:\n  base:\n    command: node\n' })
    const file = env.project.join('.dsh/mcp.yml')
    // How long an add takes here, to spread the kills over its whole life: the longest seen so far (a busy
    // machine stretches it), and the loop goes on until 40 runs were killed midway (at most 400 runs).
    assert.equal((await start(env, ['add', 'warm', 'node']).exited).code, 0)
    let span = 50
    let expected = names(readFileSync(file, 'utf8'))
    let killedMidway = 0
    let runs = 0
    for (let i = 0; killedMidway < 40 && i < 400; i++) {
      runs++
      const before = readFileSync(file, 'utf8')
      const started = performance.now()
      const child = start(env, ['add', `s${i}`, 'node', `server-${i}.js`, '-e', `N=${i}`])
      const delay = Math.floor(Math.random() * span)
      const timer = setTimeout(() => child.kill(), delay)
      const { signal } = await child.exited
      clearTimeout(timer)
      const text = readFileSync(file, 'utf8')
      const now = names(text)
      if (text === before) assert.deepEqual(now, expected)
      else {
        assert.deepEqual(now, [...expected, `s${i}`], 'the new content is complete')
        assert.ok(text.startsWith(before), 'the old content is kept byte for byte')
        expected = now
      }
      if (signal === 'SIGKILL') killedMidway++
      else span = Math.max(span, (performance.now() - started) * 1.2)
      // A writer killed while holding the lock leaves `<file>.lock`; the
      // stale-takeover test below covers it, here it would only slow the loop.
      if (existsSync(`${file}.lock`)) rmSync(`${file}.lock`, { recursive: true, force: true })
    }
    assert.equal(killedMidway, 40, `40 runs killed midway (${killedMidway} in ${runs} runs)`)
    assert.ok(readFileSync(file, 'utf8').startsWith('# kept comment\n'))
  })

  test('20 dsh-mcp add processes started at once: all 20 entries present, the file parses', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': 'servers:\n  base:\n    command: node   # first\n' })
    const children = Array.from({ length: 20 }, (_, i) => start(env, ['add', `c${i}`, 'node', `c${i}.js`]))
    const results = await Promise.all(children.map((c) => c.exited))
    assert.deepEqual(
      results.map((r) => r.code),
      Array.from({ length: 20 }, () => 0),
    )
    const got = names(env.read('.dsh/mcp.yml'))
    assert.equal(got[0], 'base')
    assert.deepEqual([...got.slice(1)].sort(), Array.from({ length: 20 }, (_, i) => `c${i}`).sort())
    assert.match(env.read('.dsh/mcp.yml'), /command: node {3}# first\n/)
    assert.equal(existsSync(env.project.join('.dsh/mcp.yml.lock')), false)
  })

  test('concurrent writers of different commands on the local file lose nothing', async () => {
    const env = makeEnv({
      '.dsh/mcp.yml': `servers:\n${Array.from({ length: 8 }, (_, i) => `  p${i}: {command: node}\n`).join('')}`,
    })
    const children = [
      ...Array.from({ length: 8 }, (_, i) => start(env, ['disable', `p${i}`])),
      ...Array.from({ length: 8 }, (_, i) => start(env, ['add', '-s', 'local', `l${i}`, 'node'])),
    ]
    const results = await Promise.all(children.map((c) => c.exited))
    assert.ok(results.every((r) => r.code === 0))
    const local = parseConfigText(env.read('.dsh/mcp.local.yml'), { file: 'l', format: 'friendly', allowPartial: true })
    assert.equal(local.ok, true)
    assert.equal(local.entries.length, 16)
    for (let i = 0; i < 8; i++) assert.equal(local.entries.find((e) => e.name === `p${i}`)?.entry?.enabled, false)
    assert.equal(env.read('.dsh/.gitignore'), 'mcp.local.yml\n')
  })

  test('a lock left by a killed writer is taken over once it is stale', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': 'servers: {}\n' })
    const lock = env.project.join('.dsh/mcp.yml.lock')
    mkdirSync(lock)
    const old = new Date(Date.now() - 60_000)
    utimesSync(lock, old, old)
    const r = await env.run(['add', 'after', 'node'])
    assert.equal(r.code, 0)
    assert.deepEqual(names(env.read('.dsh/mcp.yml')), ['after'])
    assert.equal(existsSync(lock), false)
  })
})
