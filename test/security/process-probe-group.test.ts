/**
 * doctor and `list --check` start a probed stdio server themselves — no
 * launcher process in between — in its own process group, and end that
 * whole group when the server never answers (issue 24, 8c). The fixture
 * (test/fixtures/doctor/grandparent.ts) starts a grandchild that ignores
 * SIGTERM and stdin, then never answers `initialize`; each records its pid,
 * process group and parent from /proc. After the probe returns (timed out,
 * or interrupted), no process of that group is alive — read from /proc —
 * and neither recorded pid is. Variants: `doctor`, `list --check`, the
 * probe engine itself, and `doctor` interrupted by SIGINT. Linux (/proc).
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { probe } from '../../src/doctor/probe.ts'
import { runCli, startCli } from '../support/cli.ts'
import { doctorFixture, type Sandbox, sandbox } from '../support/sandbox.ts'
import { cleanupAll } from '../support/tmp.ts'
import { settles, waitFor } from '../support/wait.ts'

const LINUX = process.platform === 'linux'
const groups: number[] = []
after(() => {
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL')
    } catch {
      // the group is gone, as it should be
    }
  }
  cleanupAll()
})

interface Identity {
  pid: number
  pgid: number
  ppid: number
}

function identity(dir: string, who: 'server' | 'grandchild'): Identity {
  const file = join(dir, who)
  assert.ok(existsSync(file), `the fixture's ${who} never started (${file})`)
  const [pid, pgid, ppid] = readFileSync(file, 'utf8').trim().split(' ').map(Number)
  return { pid: pid as number, pgid: pgid as number, ppid: ppid as number }
}

/** State and group of a process from /proc, or undefined when it is gone. */
function stat(pid: number): { state: string; pgid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] as string, pgid: Number(fields[2]) }
  } catch {
    return undefined
  }
}

/** Whether a process runs: present and not a zombie (dead, its parent not yet told — not running). */
function running(pid: number): boolean {
  const s = stat(pid)
  return s !== undefined && s.state !== 'Z' && s.state !== 'X'
}

/** Every running process of group `pgid`, from /proc. */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => stat(pid)?.pgid === pgid && running(pid))
}

/** The server led its own group, the grandchild was in it, the probing process started it directly; nothing of it is left. */
function assertGroupGone(dir: string, prober: number): void {
  const server = identity(dir, 'server')
  const grandchild = identity(dir, 'grandchild')
  groups.push(server.pgid)
  assert.equal(server.pgid, server.pid, 'the server leads its own process group')
  assert.equal(server.ppid, prober, 'the server was started by the probing process itself (no launcher)')
  assert.equal(grandchild.pgid, server.pgid, "the grandchild is in the server's group")
  assert.deepEqual(groupMembers(server.pgid), [], "a process of the server's group is alive")
  assert.equal(running(server.pid), false, 'the server runs')
  assert.equal(running(grandchild.pid), false, 'the grandchild runs')
}

function hanging(): { s: Sandbox; dir: string } {
  const s0 = sandbox({})
  const dir = join(s0.pids, 'grandparent')
  return { s: sandbox({ hang: doctorFixture('grandparent.ts', [dir]) }), dir }
}

const cli = (s: Sandbox, args: string[]) =>
  runCli(args, { cwd: s.project.path, dshHome: s.dshHome, home: s.home, env: { DSH_MCP_TRUST_ALL: '1' } })

for (const command of [['doctor'], ['list', '--check']]) {
  test(`${command.join(' ')}: a server that never answers leaves no process of its group`, {
    skip: !LINUX,
  }, async () => {
    const { s, dir } = hanging()
    const r = await cli(s, [...command, '--json', '--timeout', '8000'])
    assert.equal(r.code, 1, r.stdout + r.stderr)
    assert.match(r.stdout, /timeout/)
    assertGroupGone(dir, process.pid)
  })
}

test('the probe engine: a timed-out server leaves no process of its group', { skip: !LINUX }, async () => {
  const { dir } = hanging()
  const entry = doctorFixture('grandparent.ts', [dir]) as { command: string; args: string[] }
  const out = await probe(
    { transport: 'stdio', serverName: 'hang', command: entry.command, args: entry.args },
    { env: { PATH: process.env.PATH }, timeoutMs: 8000, secrets: [] },
  )
  assert.equal(out.state, 'timeout')
  assertGroupGone(dir, process.pid)
})

test('doctor interrupted (SIGINT) while the server hangs: no process of its group is left', {
  skip: !LINUX,
}, async () => {
  const { s, dir } = hanging()
  const run = startCli(['doctor', '--timeout', '60000'], {
    cwd: s.project.path,
    dshHome: s.dshHome,
    home: s.home,
    env: { DSH_MCP_TRUST_ALL: '1' },
  })
  await waitFor(() => existsSync(join(dir, 'server')), { message: 'the server and its grandchild run' })
  run.interrupt('SIGINT')
  const r = await settles(run.done, 'doctor after SIGINT')
  assert.equal(r.code, 130, r.stderr)
  assertGroupGone(dir, process.pid)
})
