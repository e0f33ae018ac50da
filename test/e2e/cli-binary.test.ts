/**
 * Smoke tests of `bin/dsh-mcp.js` as a process, for what in-process runs
 * (test/support/cli.ts `runCli`) cannot show: the bin on the system's Node
 * 20 from the built bundle, a real pseudo-terminal (util-linux `script`) for
 * the trust question and the table width, and a real SIGINT reaching
 * `doctor`. EPIPE: cli-epipe.test.ts; the installed `.bin` link: pack.test.ts.
 */
import assert from 'node:assert/strict'
import { execFile, execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { after, describe, test } from 'node:test'
import { BIN, REPO, cliEnv, runBin } from '../support/cli.ts'
import { livePids } from '../support/procs.ts'
import { doctorFixture, fixtureServer, sandbox } from '../support/sandbox.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { settles, waitFor } from '../support/wait.ts'

after(cleanupAll)

describe('Node 20', () => {
  const cleanPath = ['-i', 'PATH=/usr/local/bin:/usr/bin:/bin']
  const node20 = () =>
    execFileSync('/usr/bin/env', [...cleanPath, 'sh', '-c', 'command -v node'], { encoding: 'utf8' }).trim()

  test('the system node is Node 20, not the Node 22 of node_modules', () => {
    const bin = node20()
    assert.notEqual(resolve(bin), resolve(process.execPath))
    assert.match(execFileSync(bin, ['--version'], { encoding: 'utf8' }), /^v20\./)
  })

  test('dsh-mcp --version works under it', () => {
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version
    const out = execFileSync('/usr/bin/env', [...cleanPath, 'node', 'bin/dsh-mcp.js', '--version'], {
      cwd: REPO,
      encoding: 'utf8',
    })
    assert.equal(out.trim(), version)
  })

  test('list, validate and trust work under it', async () => {
    const project = makeProject({ '.dsh/mcp.yml': 'servers:\n  a: {command: node, args: [a.js]}\n' })
    const home = makeTempDir()
    const o = { cwd: project.path, dshHome: home.join('.dsh'), node: node20() }
    const list = await runBin(['list', '--json'], o)
    assert.equal(list.code, 0, list.stderr)
    assert.equal(JSON.parse(list.stdout)[0].state, 'untrusted')
    assert.deepEqual(await runBin(['validate'], o), { code: 0, stdout: '', stderr: '' })
    const trust = await runBin(['trust', '--all', '--yes'], o)
    assert.equal(trust.code, 0, trust.stderr)
    assert.equal(JSON.parse((await runBin(['list', '--json'], o)).stdout)[0].state, 'active')
  })

  test('doctor connects to real servers under it', async () => {
    const s = sandbox({ good: fixtureServer('good'), crash: fixtureServer('crash', ['--crash']) })
    const r = await runBin(['doctor', '--json'], {
      cwd: s.project.path,
      dshHome: s.dshHome,
      home: s.home,
      env: { DSH_MCP_TRUST_ALL: '1' },
      node: node20(),
    })
    assert.equal(r.code, 1, r.stderr)
    assert.deepEqual(
      (JSON.parse(r.stdout) as { state: string }[]).map((x) => x.state),
      ['ok', 'failed'],
    )
  })
})

/** Run `command` on a pseudo-terminal, typing `answer`. */
function onTty(
  command: string,
  cwd: string,
  env: Record<string, string>,
  answer = '',
): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const p = execFile('script', ['-qec', command, '/dev/null'], { cwd, env, timeout: 30_000 }, (err, stdout) => {
      done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout.replace(/\r/g, '') })
    })
    p.stdin?.end(answer)
  })
}

describe('on a real terminal', () => {
  for (const [answer, code] of [
    ['y\n', 0],
    ['n\n', 1],
  ] as const) {
    test(`trust asks; answering ${JSON.stringify(answer.trim())} exits ${code}`, async () => {
      const project = makeProject({ '.dsh/mcp.yml': 'servers:\n  tool: {command: node, args: [t.js]}\n' })
      const home = makeTempDir()
      const env = cliEnv({ dshHome: home.join('.dsh'), home: home.path, env: { TERM: 'dumb' } })
      const r = await onTty(`'${process.execPath}' '${BIN}' trust tool`, project.path, env, answer)
      assert.equal(r.code, code, r.out)
      assert.match(r.out, /Trust this server\? \[y\/N\]/)
      assert.equal(existsSync(join(home.join('.dsh'), 'mcp-trust.json')), code === 0)
    })
  }

  test('trust asks per server (y/n/a/q): y, n, y trusts the first and the third', async () => {
    const project = makeProject({
      '.dsh/mcp.yml':
        'servers:\n  a: {command: node, args: [a.js]}\n  b: {command: node, args: [b.js]}\n  c: {command: node, args: [c.js]}\n',
    })
    const home = makeTempDir()
    const env = cliEnv({ dshHome: home.join('.dsh'), home: home.path, env: { TERM: 'dumb' } })
    const r = await onTty(`'${process.execPath}' '${BIN}' trust --all`, project.path, env, 'y\nn\ny\n')
    assert.equal(r.code, 0, r.out)
    assert.match(r.out, /Trust a\? \[y\/n\/a\/q\]/)
    assert.match(r.out, /trusted: a, c/)
    const store = readFileSync(join(home.join('.dsh'), 'mcp-trust.json'), 'utf8')
    assert.match(store, /"a"/)
    assert.doesNotMatch(store, /"b"/)
  })

  test('list fits a 70-column terminal', async () => {
    const project = makeProject({
      '.dsh/mcp.yml': `servers:\n  github:\n    command: npx\n    args: [-y, "@modelcontextprotocol/server-github", "${'y'.repeat(60)}"]\n`,
    })
    const home = makeTempDir()
    const r = await onTty(
      `stty cols 70 2>/dev/null; '${process.execPath}' '${BIN}' list --no-color`,
      project.path,
      cliEnv({ dshHome: home.join('.dsh'), home: home.path }),
    )
    const lines = r.out.trimEnd().split('\n')
    assert.match(lines[0]!, /NAME/)
    for (const line of lines) assert.ok(line.length <= 70, `${line.length} > 70: ${line}`)
  })
})

test('a real SIGINT stops doctor: every child reaped, exit 130', async () => {
  const s0 = sandbox({})
  const dir = join(s0.pids, 'sigint')
  const s = sandbox({
    h1: fixtureServer('h1', ['--hang', '--pidfile-dir', dir]),
    stubborn: doctorFixture('stubborn.ts', [dir]),
  })
  const child = spawn(process.execPath, [BIN, 'doctor', '--timeout', '60000'], {
    cwd: s.project.path,
    env: cliEnv({ dshHome: s.dshHome, home: s.home, env: { DSH_MCP_TRUST_ALL: '1' } }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString()
  })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  await waitFor(() => livePids(dir).length === 2, { message: 'both servers started' })
  child.kill('SIGINT')
  // `--timeout 60000`: exiting well before it is exiting on the signal.
  assert.equal(await settles(exited, 'doctor after SIGINT'), 130, stderr)
  assert.match(stderr, /interrupted/)
  assert.deepEqual(livePids(dir), [])
})
