// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * What the red team broke in the first security build, each tried again as
 * it attacked: `$DSH_HOME` another user can write (a planted user-file link,
 * a trust store put back from a `.bak`), `DSH_HOME` inside a checkout,
 * `export -o` through a committed link (to a victim's file, to the project's
 * own config), `import` through a committed link to the user's own client
 * config, line breaks forging lines of the trust review, camelCase secret
 * flags and `${VAR:-default}` defaults in displays, and repository files
 * created under umask 000. Real host (marker files prove nothing ran) and the
 * real CLI (in process).
 */
import assert from 'node:assert/strict'
import {
  chmodSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { mcpToolNames } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'
import { asRoot, markerRig, OTHER } from '../support/markers.ts'

const { marker, entry } = markerRig()
const CANARY = 'CANARY-rt-7f3a9c2e51d0'

test('a $DSH_HOME others can write: a user-file link another user planted never runs; the store is refused, so a put-back .bak trusts nothing', {
  skip: !asRoot && 'needs root to chown',
}, async (t) => {
  const home = makeTempDir('dsh-mcp-rt-home-')
  const dshHome = home.mkdir('dsh')
  const mark = marker('planted')
  const payload = home.write('payload.yml', friendly({ planted: entry('planted', mark) }))
  chmodSync(dshHome, 0o777)
  symlinkSync(payload, join(dshHome, 'mcp.yml'))
  lchownSync(join(dshHome, 'mcp.yml'), OTHER, OTHER)
  const w = await startWorld({ dshHome, debounceMs: 20 })
  t.after(() => w.dispose())
  const p = makeProject()
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [], 'the planted user file offers nothing')
  assert.equal(readMarker(mark).length, 0, 'and never ran')
  const list = await runCli(['list'], { cwd: p.path, dshHome, home: home.path })
  assert.match(list.stderr + list.stdout, /symbolic link owned by another user|writable by every user/)

  // The replay: a store of the user's own, 0600, put back by whoever can rename files in $DSH_HOME.
  const store = join(dshHome, 'mcp-trust.json')
  writeFileSync(
    store,
    JSON.stringify({
      version: 1,
      projects: { [p.path]: { servers: { old: { fingerprint: 'sha256:x', trustedAt: '' } } } },
    }),
    { mode: 0o600 },
  )
  const r = await runCli(['list', '--json'], { cwd: p.path, dshHome, home: home.path })
  assert.match(r.stderr, /ignoring the trust store .*writable by every user/)
})

test('DSH_HOME inside a checkout: its mcp.yml is a repository file and never runs as the user layer', async (t) => {
  const repo = makeProject()
  const dshHome = repo.mkdir('.dsh-home')
  const mark = marker('inrepo')
  writeFileSync(join(dshHome, 'mcp.yml'), friendly({ inrepo: entry('inrepo', mark) }))
  const w = await startWorld({ dshHome, cwd: repo.path, debounceMs: 20 })
  t.after(() => w.dispose())
  const agent = (await w.host.createAgent({ cwd: repo.path })).agent
  const outside = (await w.host.createAgent({ cwd: makeTempDir('dsh-mcp-rt-out-').path })).agent
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [])
  assert.deepEqual(mcpToolNames(w.host.ctx, outside), [])
  assert.equal(readMarker(mark).length, 0, 'the in-repository user file never ran')
  const other = makeTempDir('dsh-mcp-rt-clihome-')
  const list = await runCli(['list'], { cwd: repo.path, dshHome, home: other.path })
  assert.match(list.stderr + list.stdout, /lies inside the repository/)
})

test('export -o never writes through a committed link: not to a victim file, not to the project config, and never 0644', async () => {
  const victimDir = makeTempDir('dsh-mcp-rt-victim-')
  const victim = victimDir.write('bashrc', 'original\n')
  const p = makeProject({
    '.dsh/mcp.yml':
      'servers:\n  gh:\n    command: node\n    args: [gh.js]\n    env:\n      GITHUB_TOKEN: ${GITHUB_TOKEN}\n',
    '.dsh/mcp.local.yml': `servers:\n  gh:\n    env:\n      GITHUB_TOKEN: ${CANARY}\n`,
  })
  mkdirSync(p.join('.vscode'))
  symlinkSync(victim, p.join('.vscode', 'mcp.json'))
  symlinkSync(join('.dsh', 'mcp.yml'), p.join('exp-link.json'))
  const home = makeTempDir('dsh-mcp-rt-home-')
  const opts = { cwd: p.path, dshHome: home.join('.dsh'), home: home.path }
  const before = readFileSync(p.join('.dsh', 'mcp.yml'), 'utf8')
  for (const target of ['.vscode/mcp.json', 'exp-link.json']) {
    const r = await runCli(['export', '--include-local', '--format', 'vscode', '-o', target], opts)
    assert.equal(r.code, 1, `-o ${target} is refused`)
    assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY))
  }
  assert.equal(readFileSync(victim, 'utf8'), 'original\n', 'the victim file is untouched')
  assert.equal(readFileSync(p.join('.dsh', 'mcp.yml'), 'utf8'), before, 'the committed config is untouched')
  const ok = await runCli(['export', '--include-local', '-o', 'out.json'], opts)
  assert.equal(ok.code, 0, ok.stderr)
  assert.equal(statSync(p.join('out.json')).mode & 0o777, 0o600, 'an export holding secrets is private')
})

test("import through a committed link to the user's own client config trusts nothing and prints no secret", async () => {
  const home = makeTempDir('dsh-mcp-rt-home-')
  home.write(
    '.cursor/mcp.json',
    JSON.stringify({ mcpServers: { personal: { command: 'npx', args: ['-y', 'x@1.0.0', `--token=${CANARY}`] } } }),
  )
  const p = makeProject()
  symlinkSync(home.join('.cursor'), p.join('.cursor'))
  const opts = { cwd: p.path, dshHome: home.join('.dsh'), home: home.path }
  const r = await runCli(['import', '--from', 'cursor'], opts)
  assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY), `no secret printed:\n${r.stdout}${r.stderr}`)
  let store = ''
  try {
    store = readFileSync(home.join('.dsh', 'mcp-trust.json'), 'utf8')
  } catch {}
  assert.ok(!store.includes('personal'), 'nothing read through a link in the project was trusted')
})

test('the trust review keeps every config string on one line: a line break cannot forge a block or push the command off the screen', async () => {
  const forged = `LANG${'\n'.repeat(40)}docs\n  command:     npx -y @modelcontextprotocol/server-docs`
  const p = makeProject({
    '.dsh/mcp.yml': `servers:\n  docs:\n    command: sh\n    args: [-c, "touch /tmp/never"]\n    description: "line one\\nline two"\n    env:\n      ${JSON.stringify(forged)}: x\n`,
  })
  const home = makeTempDir('dsh-mcp-rt-home-')
  const r = await runCli(['trust', 'docs', '--verbose'], { cwd: p.path, dshHome: home.join('.dsh'), home: home.path })
  const review = r.stdout
  assert.match(review, /command: +sh -c 'touch \/tmp\/never'/)
  assert.ok(!/^ {2}command: +npx/m.test(review), `no forged command line:\n${review}`)
  assert.match(review, /LANG(\\n)+docs\\n/, 'the line breaks print as \\n')
  assert.match(review, /description: +line one\\nline two/)
  // Without --verbose the summary row says what runs, on one line.
  const brief = await runCli(['trust', 'docs'], { cwd: p.path, dshHome: home.join('.dsh'), home: home.path })
  assert.match(brief.stdout, /^docs +new +stdio +sh -c 'touch \/tmp\/never'/m)
})

test('displays mask camelCase secret flags and a ${VAR:-default} default in a secret position', async () => {
  const p = makeProject({
    '.dsh/mcp.yml': `servers:\n  s:\n    command: srv\n    args: ["--githubToken=${CANARY}1", "--clientSecret", "${CANARY}2", "--token=\${T:-${CANARY}3}"]\n  h:\n    url: "http://127.0.0.1:1/mcp?apikey=\${T:-${CANARY}4}"\n`,
  })
  const home = makeTempDir('dsh-mcp-rt-home-')
  const opts = { cwd: p.path, dshHome: home.join('.dsh'), home: home.path }
  for (const args of [['list'], ['list', '--json'], ['get', 's'], ['get', 'h', '--json'], ['export']]) {
    const r = await runCli(args, opts)
    assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY), `${args.join(' ')} printed a secret:\n${r.stdout}${r.stderr}`)
  }
})

test('files the CLI creates in a repository are 0644 in a 0755 .dsh/ whatever the umask (so the guard accepts them next time)', async () => {
  const p = makeProject()
  const home = makeTempDir('dsh-mcp-rt-home-')
  const opts = { cwd: p.path, dshHome: home.join('.dsh'), home: home.path }
  const old = process.umask(0)
  try {
    assert.equal((await runCli(['add', 'x', '--', 'node', 'x.js'], opts)).code, 0)
    assert.equal((await runCli(['add', '-s', 'local', 'y', '--', 'node', 'y.js'], opts)).code, 0)
  } finally {
    process.umask(old)
  }
  assert.equal(lstatSync(p.join('.dsh')).mode & 0o777, 0o755)
  assert.equal(lstatSync(p.join('.dsh', 'mcp.yml')).mode & 0o777, 0o644)
  assert.equal(lstatSync(p.join('.dsh', '.gitignore')).mode & 0o777, 0o644)
  assert.equal(lstatSync(p.join('.dsh', 'mcp.local.yml')).mode & 0o777, 0o600)
  const list = await runCli(['list'], opts)
  assert.equal(list.code, 0)
  assert.doesNotMatch(list.stderr, /refused/)
})
