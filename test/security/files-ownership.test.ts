/**
 * Issue 12 class 4 — files another user controls, as an attacker would plant
 * them (another uid: 65534; tests run as root, "another user" is any uid ≠
 * process.getuid()): a config file, its `.dsh/` directory or the project root
 * owned by another user, a world-writable file, a world-writable `.dsh/`
 * without the sticky bit, and a `.dsh/` planted in a shared parent directory
 * above where the agent starts. On a real host with `trust: 'all'` (so only
 * the file guard stands between the file and a spawn) no fixture ever runs
 * (marker files stay empty); the real CLI says why and how to allow it; the
 * explicit allow (`$DSH_HOME/mcp-safe-roots`, `DSH_MCP_SAFE_ROOTS`) mounts it.
 */
import assert from 'node:assert/strict'
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { mcpToolNames } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'
import { warnings } from '../support/trust.ts'
import { asRoot, markerRig, OTHER } from '../support/markers.ts'

const { marker, entry } = markerRig()

/** Each variant: a project (or start dir) whose config another user controls. */
function variants() {
  const made: { name: string; start: string; root: string; mark: string; why: RegExp }[] = []
  const add = (name: string, build: (m: string) => { start: string; root: string }, why: RegExp) => {
    const mark = marker(name)
    made.push({ name, ...build(mark), mark, why })
  }
  add(
    'file',
    (m) => {
      const p = makeProject({ '.dsh/mcp.yml': friendly({ file: entry('file', m) }) })
      chownSync(p.join('.dsh/mcp.yml'), OTHER, OTHER)
      return { start: p.path, root: p.path }
    },
    /mcp\.yml is owned by another user \(uid 65534\)/,
  )
  add(
    'dshdir',
    (m) => {
      const p = makeProject({ '.dsh/mcp.local.yml': friendly({ dshdir: entry('dshdir', m) }) })
      chownSync(p.join('.dsh'), OTHER, OTHER)
      return { start: p.path, root: p.path }
    },
    /\.dsh is owned by another user/,
  )
  add(
    'rootdir',
    (m) => {
      const p = makeProject({ '.mcp.json': JSON.stringify({ mcpServers: { rootdir: entry('rootdir', m) } }) })
      chownSync(p.path, OTHER, OTHER)
      return { start: p.path, root: p.path }
    },
    /is owned by another user \(uid 65534\)/,
  )
  add(
    'worldfile',
    (m) => {
      const p = makeProject({ '.dsh/mcp.yml': friendly({ worldfile: entry('worldfile', m) }) })
      chmodSync(p.join('.dsh/mcp.yml'), 0o666)
      return { start: p.path, root: p.path }
    },
    /mcp\.yml is writable by every user/,
  )
  add(
    'worlddir',
    (m) => {
      const p = makeProject({ '.dsh/mcp.yml': friendly({ worlddir: entry('worlddir', m) }) })
      chmodSync(p.join('.dsh'), 0o777)
      return { start: p.path, root: p.path }
    },
    /\.dsh is writable by every user/,
  )
  return made
}

test("another user's file, .dsh/, root, a world-writable file or .dsh/: never spawned on a real host; the CLI says why and how to allow", {
  skip: !asRoot && 'needs root to chown',
}, async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  // The control: an ordinary project in the same host runs (the rig would catch a spawn).
  const okMark = marker('ok')
  const ok = makeProject({ '.dsh/mcp.yml': friendly({ ok: entry('ok', okMark) }) })
  // A sticky world-writable .dsh/ (like /tmp) owned by the user is fine: each file's owner is judged.
  const stickyMark = marker('sticky')
  const sticky = makeProject({ '.dsh/mcp.yml': friendly({ sticky: entry('sticky', stickyMark) }) })
  chmodSync(sticky.join('.dsh'), 0o1777)
  const all = variants()
  const okAgent = (await w.host.createAgent({ cwd: ok.path })).agent
  const stickyAgent = (await w.host.createAgent({ cwd: sticky.path })).agent
  const agents = []
  for (const v of all) agents.push((await w.host.createAgent({ cwd: v.start })).agent)
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, okAgent), ['mcp__ok__t'])
  assert.deepEqual(mcpToolNames(w.host.ctx, stickyAgent), ['mcp__sticky__t'])
  assert.equal(readMarker(okMark).length, 1, 'the control server ran')
  for (const [i, v] of all.entries()) {
    assert.deepEqual(readMarker(v.mark), [], `${v.name}: nothing ran`)
    assert.deepEqual(mcpToolNames(w.host.ctx, agents[i]), [], `${v.name}: no tools`)
    assert.ok(
      warnings(w, 'refused:').some((l) => v.why.test(l)),
      `${v.name}: the host log says why`,
    )
    const list = await runCli(['list', '-C', v.start], { cwd: v.start, dshHome: w.home.path, home: w.home.path })
    assert.match(list.stderr, v.why, `${v.name}: list says why`)
    assert.match(list.stderr, /mcp-safe-roots.*DSH_MCP_SAFE_ROOTS/, `${v.name}: list says how to allow it`)
    assert.doesNotMatch(list.stdout, new RegExp(`\\b${v.name}\\b.*active`), `${v.name}: not listed as active`)
    const status = await runCli(['status', '-C', v.start], { cwd: v.start, dshHome: w.home.path, home: w.home.path })
    assert.match(status.stderr, v.why, `${v.name}: status says why`)
  }
  // Reloads do not change the answer.
  await w.mcp.reload()
  await w.mcp.whenIdle()
  for (const v of all) assert.deepEqual(readMarker(v.mark), [], `${v.name}: still nothing ran`)
})

test("discovery never crosses into another user's directory: a .dsh/ planted in a shared parent configures nothing below it", {
  skip: !asRoot && 'needs root to chown',
}, async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const variantsMade: { start: string; mark: string; label: string }[] = []
  for (const [label, file] of [
    ['local', '.dsh/mcp.local.yml'],
    ['project', '.dsh/mcp.yml'],
    ['legacy', '.mcp.json'],
  ] as const) {
    const shared = makeTempDir('dsh-mcp-shared-')
    const mark = marker(`planted-${label}`)
    const text =
      file === '.mcp.json'
        ? JSON.stringify({ mcpServers: { planted: entry('planted', mark) } })
        : friendly({ planted: entry('planted', mark) })
    // Even a planted file that looks like ours (owned by this user) is never reached: the parent is theirs.
    shared.write(file, text)
    chownSync(shared.path, OTHER, OTHER)
    const start = join(shared.path, 'x', 'y')
    mkdirSync(start, { recursive: true })
    variantsMade.push({ start, mark, label })
  }
  for (const v of variantsMade) {
    const agent = (await w.host.createAgent({ cwd: v.start })).agent
    await w.mcp.whenIdle()
    assert.deepEqual(mcpToolNames(w.host.ctx, agent), [], `${v.label}: no tools`)
    assert.deepEqual(readMarker(v.mark), [], `${v.label}: the planted server never ran`)
    const list = await runCli(['list', '-C', v.start], { cwd: v.start, dshHome: w.home.path, home: w.home.path })
    assert.equal(list.code, 0)
    assert.doesNotMatch(list.stdout + list.stderr, /planted/, `${v.label}: list never sees the planted file`)
  }
})

test('the explicit allow: a root listed in $DSH_HOME/mcp-safe-roots mounts; DSH_MCP_SAFE_ROOTS lifts it for the CLI; an allow list another user owns is ignored', {
  skip: !asRoot && 'needs root to chown',
}, async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const mark = marker('allowed')
  const p = makeProject({ '.dsh/mcp.yml': friendly({ allowed: entry('allowed', mark) }) })
  chownSync(p.join('.dsh/mcp.yml'), OTHER, OTHER)
  const opts = { cwd: p.path, dshHome: w.home.path, home: w.home.path }
  // An allow list planted by another user does not count.
  writeFileSync(w.home.join('mcp-safe-roots'), `${p.path}\n`)
  chownSync(w.home.join('mcp-safe-roots'), OTHER, OTHER)
  const refused = await runCli(['list', '--json', '-C', p.path], opts)
  assert.match(refused.stderr, /owned by another user/)
  assert.deepEqual(JSON.parse(refused.stdout), [])
  // The CLI with the env allow.
  const env = await runCli(['list', '--json', '-C', p.path], { ...opts, env: { DSH_MCP_SAFE_ROOTS: p.path } })
  assert.doesNotMatch(env.stderr, /refused/)
  assert.deepEqual(
    (JSON.parse(env.stdout) as { name: string }[]).map((r) => r.name),
    ['allowed'],
  )
  // The user's own allow list: the host mounts it.
  writeFileSync(w.home.join('mcp-safe-roots'), `# projects I share with the build user\n${p.path}\n`)
  chownSync(w.home.join('mcp-safe-roots'), 0, 0)
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__allowed__t'])
  assert.equal(readMarker(mark).length, 1, 'the allowed server ran once')
})
