/**
 * The host's watchdog as a process: it ends the trees it was told about when its stdin ends (the host
 * gone), never one it was told to forget, and never anything while the host's end stays open. Linux
 * (/proc, process groups).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, test } from 'node:test'
import { newTreeMarker, TREE_ENV } from '../../src/launch/tree.ts'
import { watchdogScript } from '../../src/launch/where.ts'
import { liveInGroup as live } from '../support/procs.ts'
import { waitFor } from '../support/wait.ts'

const LINUX = process.platform === 'linux'
const started: number[] = []
after(() => {
  for (const g of started) {
    try {
      process.kill(-g, 'SIGKILL')
    } catch {
      // gone, as it should be
    }
  }
})

/** A detached group (a shell, a helper that ignores SIGTERM) carrying `marker`. */
function tree(marker: string) {
  const child = spawn('sh', ['-c', "(trap '' TERM; while :; do sleep 1; done) & exec sleep 1000"], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [TREE_ENV]: marker },
  })
  child.unref()
  started.push(child.pid as number)
  return { group: child.pid as number, marker }
}

test('stdin ends: every listed tree is ended (SIGKILL for what ignores SIGTERM); a forgotten one is left', {
  skip: !LINUX && 'Linux',
}, async () => {
  const dog = spawn(process.execPath, [watchdogScript()], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
    env: {},
  })
  const a = tree(newTreeMarker())
  const b = tree(newTreeMarker())
  dog.stdin.write(`+${a.group} ${a.marker}\n+${b.group} ${b.marker}\n`)
  dog.stdin.write(`-${b.group} ${b.marker}\nnot a line\n`)
  await waitFor(() => live(a.group).length >= 2 && live(b.group).length >= 2, { message: 'the trees run' })
  // Open: nothing is ended.
  assert.equal(dog.exitCode, null)
  const exited = new Promise((r) => dog.once('exit', r))
  dog.stdin.end()
  await exited
  assert.deepEqual(live(a.group), [], 'the listed tree outlived the host')
  assert.ok(live(b.group).length >= 2, 'a forgotten tree was signalled')
  process.kill(-b.group, 'SIGKILL')
})
