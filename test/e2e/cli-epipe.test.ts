/**
 * A reader that goes away ends `dsh-mcp` quietly: when its stdout (or
 * stderr) is a pipe whose reading end closes — `dsh-mcp list | head -1` —
 * every command exits with status 0 and prints no stack trace, whether the
 * pipe closed before the first write or in the middle of a large output.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, describe, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'
import { BIN } from '../support/cli.ts'
after(cleanupAll)

interface Closed {
  code: number | null
  signal: NodeJS.Signals | null
  /** What the stream left open received. */
  other: string
  /** Bytes read from the closed stream before it was closed. */
  read: number
}

/**
 * Run the CLI and close the reading end of its `closed` stream once `readFirst`
 * bytes arrived (0: right away, before the CLI can have written anything).
 */
function runClosing(
  args: string[],
  cwd: string,
  home: TempDir,
  closed: 'stdout' | 'stderr',
  readFirst = 0,
): Promise<Closed> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.path, DSH_HOME: home.join('.dsh') }
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const open = closed === 'stdout' ? child.stderr : child.stdout
  const shut = closed === 'stdout' ? child.stdout : child.stderr
  let other = ''
  let read = 0
  open.setEncoding('utf8')
  open.on('data', (d: string) => {
    other += d
  })
  if (readFirst === 0) shut.destroy()
  else {
    shut.on('data', (d: Buffer) => {
      read += d.length
      if (read >= readFirst) shut.destroy()
    })
  }
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, other, read })))
}

/** Exit 0, by status rather than a signal, and nothing that looks like an error report or stack trace. */
function assertQuiet(r: Closed): void {
  assert.equal(r.signal, null)
  assert.doesNotMatch(r.other, /EPIPE|Error|^\s+at /m)
  assert.equal(r.code, 0, r.other)
}

function servers(count: number, descriptionBytes = 40): string {
  let text = 'servers:\n'
  for (let i = 0; i < count; i++) {
    const description = `server ${i} of a large project `.repeat(Math.ceil(descriptionBytes / 30)).trim()
    text += `  s${i}:\n    command: node\n    args: [./tools/server-${i}.js, --port, "${4000 + i}"]\n    env: {LOG_LEVEL: info}\n    description: ${description}\n`
  }
  return text
}

describe('EPIPE ends the CLI quietly', () => {
  const home = makeTempDir()
  const project = makeProject({ '.dsh/mcp.yml': servers(20) })

  for (const args of [
    ['list'],
    ['list', '--json'],
    ['get', 's1', '--json'],
    ['--help'],
    ['--version'],
    ['schema'],
    ['export'],
  ]) {
    test(`dsh-mcp ${args.join(' ')} with stdout closed before it writes: exit 0, no stack trace`, async () => {
      assertQuiet(await runClosing(args, project.path, home, 'stdout'))
    })
  }

  test('dsh-mcp list --json | head -c 10 over 250 servers (the pipe closes mid-output): exit 0, no stack trace', async () => {
    // ~600 KB of JSON: many times a pipe's buffer, so the CLI is still writing when the reader leaves.
    const large = makeProject({ '.dsh/mcp.yml': servers(250, 2000) })
    const r = await runClosing(['list', '--json'], large.path, home, 'stdout', 10)
    assert.ok(r.read >= 10, `read ${r.read} bytes`)
    assert.equal(r.other, '', 'stderr is empty')
    assertQuiet(r)
  })

  test('stderr closed while a failing command reports its problem: exit 0, nothing on stdout', async () => {
    const broken = makeProject({ '.dsh/mcp.yml': 'servers:\n  a: {command: [oops\n' })
    const r = await runClosing(['validate'], broken.path, home, 'stderr')
    assert.equal(r.other, '', 'stdout is empty')
    assertQuiet(r)
  })
})
