/**
 * The launcher as a process: stdout passed straight through, stderr into the server's log with every secret
 * of the spec redacted, the launch variable stripped, the server's exit code returned (127: nothing to run).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { LAUNCH_ENV, type LaunchSpec } from '../../src/launch/spec.ts'
import { launcher } from '../../src/launch/where.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

function run(command: string, args: string[], spec: LaunchSpec) {
  const l = launcher()
  const child = spawn(l.node, [l.script, command, ...args], {
    env: { PATH: '/usr/bin:/bin', [LAUNCH_ENV]: JSON.stringify(spec) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (b) => (out += b))
  child.stderr.on('data', (b) => (err += b))
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out, err })),
  )
}

test('stdout through, stderr to the log redacted, the launch spec not passed on, the exit code kept', async () => {
  const d = makeTempDir()
  const log = d.join('mcp-logs', 's.log')
  const script = `echo "to stdout: $${LAUNCH_ENV}-unset"; echo "token sk-canary-4821 failed" >&2; exit 3`
  const r = await run('sh', ['-c', script], { log, secrets: ['sk-canary-4821'], forward: false })
  assert.equal(r.code, 3)
  assert.equal(r.out, 'to stdout: -unset\n')
  assert.equal(r.err, '', 'nothing reaches the host terminal raw')
  const text = readFileSync(log, 'utf8')
  assert.ok(text.includes('token *** failed'))
  assert.ok(!text.includes('sk-canary-4821'))
})

test('a command found nowhere starts nothing and exits 127', async () => {
  const d = makeTempDir()
  const r = await run('no-such-command-xyz', [], { log: d.join('l.log'), secrets: [], forward: false })
  assert.equal(r.code, 127)
  assert.equal(r.out, '')
})
