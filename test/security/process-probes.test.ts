/**
 * `dsh-mcp doctor` and `dsh-mcp list --check` end a probed server's whole
 * process tree, on the real CLI: servers that try to outlive their probe —
 * one run through `sh -c` without `exec`, one with a background helper, one
 * whose helper leaves the process group and session with `setsid` — each
 * carrying the test's unique tag in its env. After the CLI exits — the
 * servers answered (success), never answered (timed out), or the CLI was
 * interrupted (SIGINT) — a scan of /proc finds no process with the tag.
 * Linux (/proc).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { after, test } from 'node:test'
import { BIN, runCli } from '../support/cli.ts'
import { cleanEnv, fixtureServer, type Sandbox, sandbox } from '../support/sandbox.ts'
import { killTagged, taggedPids } from '../support/procs.ts'
import { cleanupAll } from '../support/tmp.ts'
import { settles, waitFor } from '../support/wait.ts'

const tags: string[] = []
after(() => {
  for (const t of tags) killTagged(t)
  cleanupAll()
})

function newTag(what: string): string {
  const tag = `probe-${what}-${randomBytes(6).toString('hex')}`
  tags.push(tag)
  return tag
}

/** The fixture's command line, for `sh -c`. */
function line(name: string, flags: string[]): string {
  const f = fixtureServer(name, flags) as { command: string; args: string[] }
  return [f.command, ...f.args].map((a) => `'${a}'`).join(' ')
}

/** Three servers that leave helpers behind unless their whole tree is ended. */
function escapers(tag: string, flags: string[]): Record<string, Record<string, unknown>> {
  const env = { PROC_TAG: tag }
  return {
    noexec: { command: 'sh', args: ['-c', `${line('noexec', flags)}; echo after`], env },
    helper: { command: 'sh', args: ['-c', `sleep 1000 & exec ${line('helper', flags)}`], env },
    escapee: { command: 'sh', args: ['-c', `setsid sleep 1000 & exec ${line('escapee', flags)}`], env },
  }
}

const cli = (s: Sandbox, args: string[]) =>
  runCli(args, { cwd: s.project.path, dshHome: s.dshHome, home: s.home, env: { DSH_MCP_TRUST_ALL: '1' } })

for (const command of [
  ['doctor', '--json'],
  ['list', '--check', '--json'],
]) {
  const what = command.join(' ')

  test(`${what}: servers that answer leave no process of their trees`, async () => {
    const tag = newTag('ok')
    const s = sandbox(escapers(tag, []))
    const r = await cli(s, [...command, '--timeout', '20000'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.deepEqual(taggedPids(tag), [], 'left behind after success')
  })

  test(`${what}: timed-out servers leave no process of their trees`, async () => {
    const tag = newTag('timeout')
    const s = sandbox(escapers(tag, ['--hang']))
    const r = await cli(s, [...command, '--timeout', '1500'])
    assert.equal(r.code, 1, r.stdout + r.stderr)
    assert.match(r.stdout, /timeout|no answer/)
    assert.deepEqual(taggedPids(tag), [], 'left behind after the timeout')
  })

  test(`${what}: interrupted (SIGINT) while servers hang, nothing of their trees is left`, async () => {
    const tag = newTag('sigint')
    const s = sandbox(escapers(tag, ['--hang']))
    const child = spawn(process.execPath, [BIN, ...command, '--timeout', '60000'], {
      cwd: s.project.path,
      env: cleanEnv(s, { DSH_MCP_TRUST_ALL: '1' }),
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    // Every tree is up: sh + fixture, sleep + fixture, setsid sleep + fixture (no launcher in between).
    await waitFor(() => taggedPids(tag).length >= 6, { message: 'every probed tree is running' })
    child.kill('SIGINT')
    const code = await settles(exited, `${what} after SIGINT`)
    assert.equal(code, 130, stderr)
    assert.deepEqual(taggedPids(tag), [], 'left behind after SIGINT')
  })
}
