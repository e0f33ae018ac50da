/**
 * Issue 12 class 2, tried as an attacker: a write command must trust only
 * what the user wrote. `dsh-mcp import` of a repository's own client files
 * (`.mcp.json`, `.vscode/mcp.json`, `.cursor/mcp.json`,
 * `.gemini/settings.json`) imports them untrusted and shows each command
 * line; into the user file (no trust needed) it refuses them. `dsh-mcp add`
 * leaves a row untrusted when a committed local file merges fields into it.
 * The proof is a real host over the same `$DSH_HOME` that never spawns the
 * imported servers (marker files), while what the user's own file outside
 * every repository (Codex's `~/.codex/config.toml`) or their own typed
 * `add` gives does run.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mcpToolNames } from '../support/host.ts'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, startWorld, stdioEntry } from '../support/runtime.ts'
import { makeProject } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
import { assertHeldBack, cli, reconcileTimes, serverOf, untilTools } from '../support/trust.ts'
import { markerRig } from '../support/markers.ts'

const { dir: marks, pids, marker } = markerRig('writes')
const fixtureArgs = (name: string, m: string) => stdioFixtureArgs({ name, tools: ['t'], marker: m, pidfileDir: pids })
const mcpServers = (name: string, m: string) =>
  JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: fixtureArgs(name, m) } } })

/** `dsh-mcp -C <root> <args>` (the root first: `add … -- <command…>` takes every word after `--`), asserting exit 0. */
async function cliAt(w: Awaited<ReturnType<typeof startWorld>>, root: string, args: string[]) {
  const r = await runCli(['-C', root, ...args], { cwd: w.hostDir.path, dshHome: w.home.path, home: w.home.path })
  assert.equal(r.code, 0, r.stderr)
  return r
}

const CLIENT_FILES = [
  ['claude', '.mcp.json', (n: string, m: string) => mcpServers(n, m)],
  ['cursor', '.cursor/mcp.json', (n: string, m: string) => mcpServers(n, m)],
  [
    'vscode',
    '.vscode/mcp.json',
    (n: string, m: string) =>
      JSON.stringify({ servers: { [n]: { type: 'stdio', command: process.execPath, args: fixtureArgs(n, m) } } }),
  ],
  ['gemini', '.gemini/settings.json', (n: string, m: string) => mcpServers(n, m)],
] as const

for (const [client, rel, text] of CLIENT_FILES) {
  test(`import of a repository's ${rel} never trusts it; the plan shows the command line; the host never spawns it`, async (t) => {
    const m = marker(client)
    const w = await startWorld({ trust: 'require', debounceMs: 20 })
    t.after(() => w.dispose())
    const p = makeProject({ [rel]: text('evil', m) })
    const r = await cli(w, p.path, ['import', '--from', client])
    assert.match(
      r.stdout,
      new RegExp(
        `add +evil +${rel.replace(/[./]/g, '\\$&')} +\\S*node\\S* --no-warnings \\S+stdio-server\\.ts --name evil`,
      ),
      'the plan shows the command line',
    )
    assert.match(r.stdout, /not trusted: read from a file inside the project/)
    assert.match(r.stderr, /not trusted \(from a file inside a repository or not yours\): evil;/)
    const list = JSON.parse((await cli(w, p.path, ['list', '--json'])).stdout) as { name: string; state: string }[]
    assert.equal(list.find((x) => x.name === 'evil')?.state, 'untrusted')
    await assertHeldBack(w, p.path, 'evil', m)
  })
}

test('import -s user refuses a repository entry (the user file needs no trust); a file of the user outside every repository is trusted and runs', async (t) => {
  const evil = m0('evil')
  const own = m0('own')
  function m0(n: string) {
    return marker(n)
  }
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = makeProject({ '.mcp.json': mcpServers('evil', evil) })
  let r = await cli(w, p.path, ['import', '--from', 'claude', '-s', 'user'])
  assert.match(r.stdout, /refused +evil/)
  assert.match(r.stderr, /Imported 0 servers/)
  // Codex's file lives under the user's home, outside every repository: the user's own.
  w.home.write(
    '.codex/config.toml',
    `[mcp_servers.own]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify(fixtureArgs('own', own))}\n`,
  )
  r = await cli(w, p.path, ['import', '--from', 'codex'])
  assert.doesNotMatch(r.stderr, /not trusted/)
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await untilTools(w, agent, ['mcp__own__t'], 'the user-owned import runs')
  assert.equal(readMarker(own).length, 1)
  assert.deepEqual(readMarker(evil), [], 'the refused repository entry never ran')
})

test('add trusts exactly what was typed: a committed local file merging NODE_OPTIONS in leaves it untrusted and unspawned', async (t) => {
  const m = marker('typed')
  const injected = marker('injected')
  const preload = marks.write(
    `evil-${Math.random().toString(36).slice(2)}.cjs`,
    `require('node:fs').appendFileSync(${JSON.stringify(injected)}, process.pid + ' start\\n')\n`,
  )
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = makeProject({ '.dsh/mcp.local.yml': friendly({ gh: { env: { NODE_OPTIONS: `--require ${preload}` } } }) })
  const r = await cliAt(w, p.path, ['add', 'gh', '--', process.execPath, ...fixtureArgs('gh', m)])
  assert.match(
    r.stderr,
    /note: "gh" is not trusted: \.dsh\/mcp\.local\.yml merges fields into it that were not written here/,
  )
  // Allowed path: a second server the user typed, with nothing merged in, is trusted and runs.
  const ok = marker('ok')
  await cliAt(w, p.path, ['add', 'plain', '--', process.execPath, ...fixtureArgs('plain', ok)])
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await untilTools(w, agent, ['mcp__plain__t'], 'the typed server runs')
  await reconcileTimes(w, 2)
  assert.deepEqual(readMarker(injected), [], 'the merged preload never ran')
  assert.deepEqual(readMarker(m), [])
  assert.equal(serverOf(w, p.path, 'gh').state, 'untrusted')
  assert.equal(readMarker(ok).length, 1)
})

test('add -s user of a server a committed local file overrides: the project row is untrusted, with a note', async (t) => {
  const m = marker('u')
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = makeProject({ '.dsh/mcp.local.yml': friendly({ u: { env: { EXTRA: '1' } } }) })
  const r = await cliAt(w, p.path, [
    'add',
    '-s',
    'user',
    'u',
    '--',
    ...[stdioEntry('u', { tools: ['t'], marker: m, pidfileDir: pids })].flatMap((e) => [
      e.command as string,
      ...(e.args as string[]),
    ]),
  ])
  assert.match(r.stderr, /note: "u" is not trusted: \.dsh\/mcp\.local\.yml merges fields into it/)
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  await reconcileTimes(w, 2)
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [])
  assert.equal(serverOf(w, p.path, 'u').state, 'untrusted')
})
