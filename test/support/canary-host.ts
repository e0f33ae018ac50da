/**
 * Run test/fixtures/hosts/canary-host.ts (a real host in a child process):
 * `runCanaryHost({ dshHome, logFile, hostCwd, projects, wait, env })` starts
 * it with `CANARY_HOST_WAIT` = `wait` (`name=state` pairs), waits for
 * `READY`, closes its stdin so it disposes, asserts it exited 0 and returns
 * what it printed on its terminal (stdout, stderr) and its log file's text.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { settles, waitFor } from './wait.ts'

const HOST_SCRIPT = fileURLToPath(new URL('../fixtures/hosts/canary-host.ts', import.meta.url))

export interface CanaryHostRun {
  out: string
  err: string
  log: string
}

export async function runCanaryHost(o: {
  dshHome: string
  logFile: string
  hostCwd: string
  projects: string[]
  wait: string[]
  env: Record<string, string | undefined>
}): Promise<CanaryHostRun> {
  const env = { ...process.env, ...o.env, DSH_HOME: o.dshHome, CANARY_HOST_WAIT: o.wait.join(',') }
  const child = spawn(
    process.execPath,
    ['--no-warnings', HOST_SCRIPT, o.dshHome, o.logFile, o.hostCwd, ...o.projects],
    { env, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c
  })
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    err += c
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  await waitFor(() => out.includes('READY') || child.exitCode !== null, {
    timeoutMs: 90_000,
    message: 'the host is ready',
  })
  assert.ok(out.includes('READY'), `the host exited early:\n${out}\n${err}`)
  child.stdin.end()
  assert.equal(await settles(exited, 'the host exits'), 0, err)
  return { out, err, log: readFileSync(o.logFile, 'utf8') }
}
