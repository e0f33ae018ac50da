/**
 * File-system faults on a real host: for each fault the last good state is
 * kept while the file is broken (the working server is neither lost nor
 * restarted), the fix is picked up by the watcher alone, agents can still be
 * created, and nothing throws into the host (no unhandled rejection).
 *
 * Tests run as root, where `chmod 000` stops nothing; "cannot be read" is
 * produced with real unreadable files instead: a FIFO at the config path, a
 * dangling symlink, a symlink loop, and a directory in the file's place.
 * A deleted file (or a deleted `.dsh/`) is not broken, it is empty: its
 * servers are unmounted, and come back when the file does.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { statusFilePath } from '../../src/status/path.ts'
import type { Agent } from '../support/host.ts'
import { execTool, mcpToolNames, resultText, waitFor } from '../support/host.ts'
import { countLive, readMarker } from '../support/procs.ts'
import { friendly, type RuntimeWorld, stdioEntry } from '../support/runtime.ts'
import { makeProject, type TempDir } from '../support/tmp.ts'
import { statesOf, untilTools, useFaultWorld } from '../support/faults.ts'

let w: RuntimeWorld
useFaultWorld({ trust: 'all', debounceMs: 30 }, (world) => {
  w = world
})

interface Case {
  /** This case's tool names: `keep` and `keep` + `fresh` (server names are unique per case). */
  K: string[]
  KF: string[]
  project: TempDir
  file: string
  agent: Agent
  keepMarker: string
  keep: Record<string, unknown>
  fresh: Record<string, unknown>
  n: number
  /** Servers `{keepN}` and `{keepN, freshN}`. */
  only: Record<string, unknown>
  both: Record<string, unknown>
}

let seq = 0
/** A project whose `.dsh/mcp.yml` runs `keep`, an agent in it, everything mounted. */
async function setup(prefix = 'dsh-mcp-fs-'): Promise<Case> {
  const n = ++seq
  const keepMarker = w.home.join(`keep-${n}.log`)
  const keep = stdioEntry(`keep${n}`, { tools: ['k'], marker: keepMarker, pidfileDir: w.pids })
  const fresh = stdioEntry(`fresh${n}`, { tools: ['f'], pidfileDir: w.pids })
  const project = makeProject({ '.dsh/mcp.yml': friendly({ [`keep${n}`]: keep }) }, prefix)
  const agent = (await w.host.createAgent({ cwd: project.path })).agent
  await w.mcp.whenIdle()
  const K = [`mcp__keep${n}__k`]
  const KF = [`mcp__fresh${n}__f`, ...K]
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), K)
  const c: Case = {
    K,
    KF,
    n,
    project,
    file: project.join('.dsh', 'mcp.yml'),
    agent,
    keepMarker,
    keep,
    fresh,
    only: {},
    both: {},
  }
  c.only = { [`keep${n}`]: keep }
  c.both = { [`keep${n}`]: keep, [`fresh${n}`]: fresh }
  return c
}

/** After a fault: the plugin has reported `problem` for the file, and `keep` is still mounted, unrestarted. */
async function assertKept(c: Case, problem: RegExp): Promise<void> {
  await waitFor(
    () =>
      w.host
        .logsMatching(c.file)
        .some((l) => problem.test(l.text) && /keeping its last good version mounted/.test(l.text)),
    {
      message: `the fault is reported (${problem})`,
    },
  )
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, c.agent), c.K, 'the last good generation stays mounted')
  assert.equal(statesOf(w, c.project.path)[`keep${c.n}`], 'mounted')
  assert.equal(readMarker(c.keepMarker).length, 1, 'and was not restarted')
  const r = await execTool(w.host.ctx, c.agent, c.K[0]!, {})
  assert.equal(r.isError, false, resultText(r))
  // A new agent of the project can still be created and sees the kept tools.
  const other = await w.host.createAgent({ cwd: c.project.path })
  assert.deepEqual(mcpToolNames(w.host.ctx, other.agent), c.K)
  await other.dispose()
}

/** The fix (`keep` + `fresh`) is picked up by the watcher alone; `keep` is not restarted. */
async function assertRecovered(c: Case, message: string): Promise<void> {
  await untilTools(w, c.agent, c.KF, message)
  await w.mcp.whenIdle()
  assert.equal(readMarker(c.keepMarker).length, 1, 'the kept server was not restarted by the recovery')
}

test('config deleted and recreated (three times): servers leave with the file and return with it', async () => {
  const c = await setup()
  for (let i = 0; i < 3; i++) {
    unlinkSync(c.file)
    await untilTools(w, c.agent, [], `deletion ${i + 1} unmounts`)
    writeFileSync(c.file, friendly(c.both))
    await untilTools(w, c.agent, c.KF, `recreation ${i + 1} remounts`)
  }
  await w.mcp.whenIdle()
  assert.equal(readMarker(c.keepMarker).length, 4)
})

test('.dsh/ removed and restored: the watcher follows the directory back', async () => {
  const c = await setup()
  rmSync(c.project.join('.dsh'), { recursive: true })
  await untilTools(w, c.agent, [], 'removing .dsh/ unmounts')
  mkdirSync(c.project.join('.dsh'))
  await sleep(50) // let the new directory be noticed before the file lands in it (an editor's order)
  writeFileSync(c.file, friendly(c.both))
  await untilTools(w, c.agent, c.KF, 'restoring .dsh/mcp.yml remounts')
  // And again, with the directory and file appearing at once (git checkout).
  rmSync(c.project.join('.dsh'), { recursive: true })
  await untilTools(w, c.agent, [], 'second removal unmounts')
  c.project.write('.dsh/mcp.yml', friendly(c.only))
  await untilTools(w, c.agent, c.K, 'directory and file created together are seen')
})

test('file replaced by a directory: last good kept; a file again recovers', async () => {
  const c = await setup()
  unlinkSync(c.file)
  mkdirSync(c.file)
  await assertKept(c, /is a directory/)
  rmSync(c.file, { recursive: true })
  writeFileSync(c.file, friendly(c.both))
  await assertRecovered(c, 'a regular file in place of the directory')
})

test('unreadable: a FIFO at the config path never blocks the host; last good kept; recovery', async () => {
  const c = await setup()
  unlinkSync(c.file)
  execFileSync('mkfifo', [c.file])
  await assertKept(c, /is not a regular file/)
  unlinkSync(c.file)
  writeFileSync(c.file, friendly(c.both))
  await assertRecovered(c, 'a regular file in place of the FIFO')
})

test('unreadable: a dangling symlink keeps the last good; creating its target recovers', async () => {
  const c = await setup()
  const target = c.project.join('shared', 'mcp.yml')
  unlinkSync(c.file)
  symlinkSync(target, c.file)
  await assertKept(c, /symbolic link to a file that does not exist/)
  c.project.write('shared/mcp.yml', friendly(c.both))
  await assertRecovered(c, 'the symlink target appears')
})

test('symlinked config: edits to the target apply; re-pointing the link applies', async () => {
  const c = await setup()
  const one = c.project.write('shared/one.yml', friendly(c.only))
  const two = c.project.write(
    'shared/two.yml',
    friendly({ ...c.only, two: stdioEntry('two', { tools: ['t'], pidfileDir: w.pids }) }),
  )
  unlinkSync(c.file)
  symlinkSync(path.relative(path.dirname(c.file), one), c.file)
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, c.agent), c.K)
  writeFileSync(one, friendly(c.both))
  await assertRecovered(c, 'an edit of the symlink target applies')
  const tmp = `${c.file}.tmp`
  symlinkSync(two, tmp)
  renameSync(tmp, c.file)
  await untilTools(w, c.agent, [...c.K, 'mcp__two__t'], 're-pointing the symlink applies')
  writeFileSync(two, friendly(c.only))
  await untilTools(w, c.agent, c.K, 'an edit of the new target applies')
  assert.equal(readMarker(c.keepMarker).length, 1)
})

test('symlink loop: last good kept, no throw; a regular file recovers', async () => {
  const c = await setup()
  const other = c.project.join('.dsh', 'loop.yml')
  unlinkSync(c.file)
  symlinkSync(other, c.file)
  symlinkSync(c.file, other)
  await assertKept(c, /too many levels of symbolic links/)
  unlinkSync(c.file)
  writeFileSync(c.file, friendly(c.both))
  await assertRecovered(c, 'a regular file in place of the loop')
})

test('editor-style atomic saves (temp + rename, and backup-rename + write) each apply', async () => {
  const c = await setup()
  const states = [c.both, c.only, c.both]
  const want = [c.KF, c.K, c.KF]
  for (let i = 0; i < states.length; i++) {
    const tmp = path.join(path.dirname(c.file), `.mcp.yml.${i}.swp`)
    writeFileSync(tmp, friendly(states[i]!))
    renameSync(tmp, c.file)
    await untilTools(w, c.agent, want[i]!, `atomic save ${i + 1} applies`)
  }
  // vim's default: rename the original to a backup, write a new file, delete the backup.
  renameSync(c.file, `${c.file}~`)
  writeFileSync(c.file, friendly(c.only))
  unlinkSync(`${c.file}~`)
  await untilTools(w, c.agent, c.K, 'backup-rename save applies')
  await w.mcp.whenIdle()
  assert.equal(readMarker(c.keepMarker).length, 1, 'the unchanged server was never restarted')
})

test('truncate-then-write: the empty moment keeps the last good; the written text applies', async () => {
  const c = await setup()
  writeFileSync(c.file, '')
  await assertKept(c, /file is empty/)
  writeFileSync(c.file, friendly(c.both))
  await assertRecovered(c, 'the text written after the truncation applies')
})

test('a project on a path with spaces and non-ASCII characters mounts, reloads and writes its status', async () => {
  const c = await setup('dsh mcp 项目 ünï cødé ')
  assert.match(c.project.path, / 项目 ünï cødé /)
  const cwdEntry = stdioEntry('where', { tools: ['cwd'], pidfileDir: w.pids })
  writeFileSync(c.file, friendly({ ...c.only, where: cwdEntry }))
  await untilTools(w, c.agent, [...c.K, 'mcp__where__cwd'], 'an edit applies')
  const r = await execTool(w.host.ctx, c.agent, 'mcp__where__cwd', {})
  assert.equal(resultText(r), `[where] cwd: ${c.project.path}`, 'the server runs in the project root')
  await w.mcp.whenIdle()
  const doc = JSON.parse(readFileSync(statusFilePath(w.home.path, c.project.path), 'utf8'))
  assert.equal(doc.root, c.project.path)
  assert.deepEqual(doc.servers.map((s: { name: string; state: string }) => `${s.name}:${s.state}`).sort(), [
    `keep${c.n}:mounted`,
    'where:mounted',
  ])
})

test('no fixture process is left by the faults once the plugin is gone', async () => {
  await w.stop()
  await waitFor(() => countLive(w.pids) === 0, { message: 'every fixture process exits' })
})
