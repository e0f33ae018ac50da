/**
 * A bare `command` never resolves through a relative or empty PATH entry
 * (`.:/usr/bin`, `:/usr/bin`, `/usr/bin:`, `bin:/usr/bin`,
 * `node_modules/.bin:/usr/bin`), which would run a file of the repository
 * the server starts in. The repository holds an executable named like the
 * command — at its root, in `bin/` and in `node_modules/.bin/` — that writes
 * a marker file. On a real host (PATH from the entry's env) and through the
 * real CLI's `doctor` and `list --check` (PATH from the entry's env, and the
 * CLI's own PATH): the marker is never written, and doctor says "command not
 * found". The control — the same directory as an absolute PATH entry —
 * writes the marker, so the probe would see a run.
 */
import assert from 'node:assert/strict'
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { sandbox } from '../support/sandbox.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'

const COMMAND = 'dsh-mcp-planted-cmd'
const RELATIVE = [
  '.:/usr/bin:/bin',
  ':/usr/bin:/bin',
  '/usr/bin:/bin:',
  '/usr/bin::/bin',
  'bin:/usr/bin:/bin',
  'node_modules/.bin:/usr/bin:/bin',
  './bin:/usr/bin:/bin',
]

const marks = makeTempDir('dsh-mcp-path-marks-')
const worlds: RuntimeWorld[] = []
after(async () => {
  for (const w of worlds) await w.dispose()
  cleanupAll()
})

let seq = 0
/** Files of a repository that plants `COMMAND` where a relative PATH entry finds it; each writes `marker`. */
function planted(marker: string): Record<string, string> {
  const script = `#!/bin/sh\necho ran >> '${marker}'\n`
  return { [COMMAND]: script, [`bin/${COMMAND}`]: script, [`node_modules/.bin/${COMMAND}`]: script }
}
function makeExecutable(root: string): void {
  for (const f of [COMMAND, `bin/${COMMAND}`, `node_modules/.bin/${COMMAND}`]) chmodSync(`${root}/${f}`, 0o755)
}

test('host: a bare command with a relative or empty PATH entry never runs the repository file', async () => {
  const w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 5000 })
  worlds.push(w)
  for (const PATH of RELATIVE) {
    const marker = marks.join(`host-${++seq}.log`)
    const p = projectWith({ planted: { command: COMMAND, env: { PATH } } }, planted(marker))
    makeExecutable(p.path)
    await w.host.createAgent({ cwd: p.path })
    await w.mcp.whenIdle()
    const row = w.mcp.snapshot().projects.find((x) => x.root === p.path)?.servers[0]
    assert.notEqual(row?.state, 'mounted', PATH)
    assert.equal(existsSync(marker), false, `PATH=${PATH} ran the planted file`)
  }
  // Control: an absolute entry outside the checkout is what PATH says: it runs (one inside is refused: review-command.test.ts).
  const marker = marks.join(`host-control-${++seq}.log`)
  const outside = makeTempDir('dsh-mcp-path-outside-')
  for (const [f, text] of Object.entries(planted(marker))) outside.write(f, text)
  makeExecutable(outside.path)
  const p = projectWith({ control: { command: COMMAND, env: { PATH: `${outside.path}/bin:/usr/bin:/bin` } } })
  await w.host.createAgent({ cwd: p.path })
  await waitFor(() => existsSync(marker), { message: 'the control ran the file of an absolute PATH entry' })
})

for (const command of [['doctor'], ['list', '--check']]) {
  test(`${command.join(' ')}: a bare command with a relative or empty PATH entry is "command not found", never the repository file`, async () => {
    for (const PATH of RELATIVE) {
      for (const where of ['entry', 'cli'] as const) {
        const marker = marks.join(`cli-${++seq}.log`)
        const entry = where === 'entry' ? { command: COMMAND, env: { PATH } } : { command: COMMAND }
        const s = sandbox({ planted: entry })
        for (const [f, text] of Object.entries(planted(marker))) s.project.write(f, text)
        makeExecutable(s.project.path)
        const r = await runCli([...command, '--timeout', '10000'], {
          cwd: s.project.path,
          dshHome: s.dshHome,
          home: s.home,
          env: { DSH_MCP_TRUST_ALL: '1', ...(where === 'cli' ? { PATH: `${PATH}:${process.env.PATH ?? ''}` } : {}) },
        })
        assert.equal(r.code, 1, `${where} PATH=${PATH}: ${r.stdout}${r.stderr}`)
        assert.match(r.stdout, new RegExp(`command not found: ${COMMAND}`), `${where} PATH=${PATH}`)
        assert.equal(
          existsSync(marker),
          false,
          `${where} PATH=${PATH} ran the planted file: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`,
        )
      }
    }
  })
}
