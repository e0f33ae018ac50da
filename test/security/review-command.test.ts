// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * Review truthfulness (issue 24, item 4): what the review shows is what runs.
 * - A bare `command` that resolves into the project checkout through an
 *   absolute PATH entry (`$PWD/node_modules/.bin`, an activated `.venv/bin`,
 *   direnv's `PATH_add bin`, a link outside that points into the checkout)
 *   never runs on a real host: the planted file's marker stays absent, the
 *   row is not mounted, the server log says why. The same for a user-layer
 *   server run for an agent of that project (the host started in it).
 * - `doctor` and `list --check` never run it either (the probe goes
 *   through the launcher, which refuses into a project-root cwd).
 * - `dsh-mcp get` (the review's block; `list` as an issue) shows the file a bare command
 *   resolves to, "REFUSED … inside the project checkout" for a planted one,
 *   and a `cwd` written with `${VAR}` / `${VAR:-/etc}` as the directory it
 *   expands to, or "depends on $VAR" when it is unset there — never as
 *   `<root>/${VAR:-/etc}`.
 */
import assert from 'node:assert/strict'
import { chmodSync, existsSync, readFileSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { serverLogFile } from '../../src/launch/spec.ts'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { sandbox } from '../support/sandbox.ts'
import { makeTempDir } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'

const rig = markerRig('review-cmd')
const worlds: RuntimeWorld[] = []
after(async () => {
  for (const w of worlds) await w.dispose()
})

const script = (marker: string) => `#!/bin/sh\necho ran >> '${marker}'\n`

/** Variants: the planted file (relative to the checkout), the command, the PATH entry (`$ROOT` = the checkout). */
const VARIANTS = [
  { file: 'node_modules/.bin/npx', command: 'npx', args: ['-y', 'pkg@1.2.3'], entry: '$ROOT/node_modules/.bin' },
  { file: '.venv/bin/python3', command: 'python3', args: ['-m', 'srv'], entry: '$ROOT/.venv/bin' },
  { file: 'bin/tool', command: 'tool', args: [], entry: '$ROOT/bin' },
  { file: 'node_modules/.bin/uvx', command: 'uvx', args: ['srv==1.0.0'], entry: '$LINK' },
]

function plant(root: string, file: string, marker: string): void {
  const p = path.join(root, file)
  chmodSync(p, 0o755)
  assert.equal(readFileSync(p, 'utf8'), script(marker))
}

test('host: a bare command resolving into the checkout through an absolute PATH entry never runs', async () => {
  const w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 60_000 })
  worlds.push(w)
  for (const v of VARIANTS) {
    const marker = rig.marker('planted')
    const p = projectWith({}, { [v.file]: script(marker) })
    plant(p.path, v.file, marker)
    // A link outside the checkout pointing into it is still the checkout.
    const link = path.join(makeTempDir('dsh-mcp-link-').path, 'bin')
    symlinkSync(path.join(p.path, path.dirname(v.file)), link)
    const entry = v.entry.replace('$ROOT', p.path).replace('$LINK', link)
    p.write(
      '.dsh/mcp.yml',
      friendly({ s: { command: v.command, args: v.args, env: { PATH: `${entry}:/usr/bin:/bin` } } }),
    )
    await w.host.createAgent({ cwd: p.path })
    await w.mcp.whenIdle()
    const row = w.mcp.snapshot().projects.find((x) => x.root === p.path)?.servers[0]
    assert.notEqual(row?.state, 'mounted', v.file)
    assert.equal(existsSync(marker), false, `${v.file} ran as ${v.command}`)
    const log = serverLogFile(w.home.path, p.path, 's')
    await waitFor(() => existsSync(log) && /inside the project checkout/.test(readFileSync(log, 'utf8')), {
      message: `${v.file}: the log never said why: ${row?.state} ${row?.lastError} ${existsSync(log) ? readFileSync(log, 'utf8') : 'no log'}`,
    })
  }
})

test('host: a user-layer server never resolves into the checkout of the project the host runs in', async () => {
  const marker = rig.marker('user-planted')
  const p = projectWith({}, { 'node_modules/.bin/npx': script(marker) })
  plant(p.path, 'node_modules/.bin/npx', marker)
  const w = await startWorld({
    trust: 'all',
    debounceMs: 30,
    mountTimeoutMs: 60_000,
    cwd: p.path,
    userFile: friendly({
      u: { command: 'npx', args: ['-y', 'pkg@1.2.3'], env: { PATH: `${p.path}/node_modules/.bin:/usr/bin:/bin` } },
    }),
  })
  worlds.push(w)
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  const log = serverLogFile(w.home.path, w.home.path, 'u')
  await waitFor(() => existsSync(log) && /inside the project checkout/.test(readFileSync(log, 'utf8')), {
    message: 'the user server log never said why',
  })
  assert.equal(existsSync(marker), false, "the user server ran the checkout's npx")
})

test('get: the review shows the resolved command (refused into the checkout) and the cwd it really runs in', async () => {
  const marker = rig.marker('cli-planted')
  const outside = makeTempDir('dsh-mcp-outside-')
  const s = sandbox({
    planted: { command: 'npx', args: ['-y', 'pkg@1.2.3'], env: { PATH: '${PWD_BIN}:/usr/bin:/bin' } },
    plain: { command: 'sh', args: ['-c', 'true'], env: { PATH: '/usr/bin:/bin' } },
    etc: { command: 'sh', cwd: '${CWD_VAR:-/etc}' },
    expanded: { command: 'sh', cwd: '${CWD_SET}' },
    unset: { command: 'sh', cwd: '${CWD_UNSET}/sub' },
  })
  s.project.write('node_modules/.bin/npx', script(marker))
  chmodSync(s.project.join('node_modules/.bin/npx'), 0o755)
  const env = { PWD_BIN: `${s.project.path}/node_modules/.bin`, CWD_SET: outside.path }
  const get = async (name: string) => {
    const r = await runCli(['get', name], { cwd: s.project.path, dshHome: s.dshHome, home: s.home, env })
    assert.equal(r.code, 0, r.stderr)
    return r.stdout
  }
  const planted = await get('planted')
  assert.match(planted, /runs: +npx → .*node_modules\/\.bin\/npx: REFUSED, inside the project checkout/)
  assert.match(await get('plain'), /runs: +sh → \/(usr\/)?bin\/sh\n/)
  const etc = await get('etc')
  assert.match(etc, /cwd: +\/etc {2}\(from "\$\{CWD_VAR:-\/etc\}", \$CWD_VAR as set here\)/)
  assert.doesNotMatch(etc, new RegExp(`${s.project.path}/\\$\\{`))
  assert.match(await get('expanded'), new RegExp(`cwd: +${outside.path} `))
  assert.match(await get('unset'), /cwd: +depends on \$CWD_UNSET \(unset here\): "\$\{CWD_UNSET\}\/sub"/)
  const list = await runCli(['list'], { cwd: s.project.path, dshHome: s.dshHome, home: s.home, env })
  assert.match(list.stdout, /npx resolves into the checkout \(.*node_modules\/\.bin\/npx\): refused at start/)
  assert.equal(existsSync(marker), false, 'the review ran the planted file')
})

for (const command of [['doctor'], ['list', '--check']]) {
  test(`${command.join(' ')}: a probe never runs a bare command that resolves into the checkout`, async () => {
    const marker = rig.marker('probe-planted')
    const s = sandbox({
      planted: { command: 'npx', args: ['-y', 'pkg@1.2.3'], env: { PATH: '${PWD_BIN}:/usr/bin:/bin' } },
    })
    s.project.write('node_modules/.bin/npx', script(marker))
    chmodSync(s.project.join('node_modules/.bin/npx'), 0o755)
    const r = await runCli([...command, '--timeout', '20000'], {
      cwd: s.project.path,
      dshHome: s.dshHome,
      home: s.home,
      env: { DSH_MCP_TRUST_ALL: '1', PWD_BIN: `${s.project.path}/node_modules/.bin` },
    })
    assert.equal(r.code, 1, `${r.stdout}${r.stderr}`)
    assert.equal(existsSync(marker), false, `${command.join(' ')} ran the checkout's npx`)
  })
}
