/**
 * Issue 13 items 4 and 7 — repository files that are symbolic links out of
 * the repository. Reading (item 4): `.dsh/mcp.yml`, `.dsh/` itself,
 * `.mcp.json` and a relative `.dsh/mcp.local.yml` pointing at a file
 * elsewhere (a stand-in for `/etc/shadow` holding a canary line and a server
 * that would touch a marker) are refused unread on a real host and by the
 * real CLI: nothing runs, and the canary appears in no host log line, status
 * file or CLI output. A link that stays inside the repository still works.
 * Writing (item 7): `add`, `remove`, `enable`, `disable` never write through
 * `.dsh/mcp.yml`, `.dsh/mcp.local.yml`, `.dsh/.gitignore` or `.dsh` linked
 * elsewhere: exit 1 naming the link and its target, the target
 * byte-identical, no lock directory beside it. The local file and
 * `.dsh/.gitignore` are refused as links even inside the repository (a link
 * to a committed file would take the secrets there).
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { runCli } from '../support/cli.ts'
import { mcpToolNames } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { friendly, startWorld } from '../support/runtime.ts'
import { makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'
import { statusFilePath } from '../../src/status/path.ts'
import { markerRig } from '../support/markers.ts'

const { marker, entry } = markerRig()

const CANARY = `CANARY${randomBytes(6).toString('hex')}`

/** A "secret" file outside every repository: one valid server that would run, then a line that breaks the parse and would be quoted. */
function secretFile(dir: TempDir, name: string, mark: string, json = false): string {
  const body = json
    ? `{"mcpServers": ${JSON.stringify({ [name]: entry(name, mark) })}, "${CANARY}": `
    : `${friendly({ [name]: entry(name, mark) })}${CANARY}: [unclosed\n`
  return dir.write(`${name}-secret`, body)
}

test('links out of the repository are refused unread: nothing runs, the canary reaches no log, status file or CLI output; a link inside works', async (t) => {
  const w = await startWorld({ debounceMs: 20 })
  t.after(() => w.dispose())
  const outside = makeTempDir('dsh-mcp-outside-')
  const cases: { name: string; root: string; mark: string; file: string }[] = []
  const add = (name: string, file: string, plant: (p: TempDir, mark: string) => void) => {
    const p = makeProject()
    const mark = marker(name)
    plant(p, mark)
    cases.push({ name, root: p.path, mark, file })
  }
  add('yml', '.dsh/mcp.yml', (p, m) => {
    p.mkdir('.dsh')
    symlinkSync(secretFile(outside, 'yml', m), p.join('.dsh/mcp.yml'))
  })
  add('dshdir', '.dsh/mcp.yml', (p, m) => {
    const d = outside.mkdir('dshdir-dir')
    symlinkSync(secretFile(outside, 'dshdir', m), join(d, 'mcp.yml'))
    symlinkSync(d, p.join('.dsh'))
  })
  add('legacy', '.mcp.json', (p, m) => symlinkSync(secretFile(outside, 'legacy', m, true), p.join('.mcp.json')))
  add('localrel', '.dsh/mcp.local.yml', (p, m) => {
    p.mkdir('.dsh')
    const target = secretFile(outside, 'localrel', m)
    symlinkSync(
      join('..', '..', outside.path.split('/').at(-1)!, target.split('/').at(-1)!),
      p.join('.dsh/mcp.local.yml'),
    )
  })
  // The allowed path: a link that stays inside the repository.
  const inMark = marker('inside')
  const inside = makeProject({ 'config/mcp.yml': friendly({ inside: entry('inside', inMark) }) })
  inside.mkdir('.dsh')
  symlinkSync(join('..', 'config', 'mcp.yml'), inside.join('.dsh/mcp.yml'))

  const insideAgent = (await w.host.createAgent({ cwd: inside.path })).agent
  const agents = []
  for (const c of cases) agents.push((await w.host.createAgent({ cwd: c.root })).agent)
  await w.mcp.whenIdle()
  assert.deepEqual(mcpToolNames(w.host.ctx, insideAgent), ['mcp__inside__t'])
  assert.equal(readMarker(inMark).length, 1, 'a link inside the repository runs')

  const seen: string[] = w.host.logs.map((l) => l.text)
  for (const [i, c] of cases.entries()) {
    assert.deepEqual(readMarker(c.mark), [], `${c.name}: nothing ran`)
    assert.deepEqual(mcpToolNames(w.host.ctx, agents[i]), [], `${c.name}: no tools`)
    assert.ok(
      seen.some((l) => l.includes('refused:') && l.includes('is a symbolic link to') && l.includes(c.name)),
      `${c.name}: the host log names the link`,
    )
    const file = statusFilePath(w.home.path, c.root)
    if (existsSync(file)) seen.push(readFileSync(file, 'utf8'))
    const o = { cwd: c.root, dshHome: w.home.path, home: w.home.path }
    for (const args of [
      ['list'],
      ['list', '--json'],
      ['get', c.name],
      ['validate'],
      ['doctor'],
      ['doctor', '--json'],
      ['status'],
      ['validate', c.file],
    ]) {
      const r = await runCli([...args, '-C', c.root], o)
      seen.push(r.stdout, r.stderr)
      if (args[0] === 'list' && args.length === 1)
        assert.match(r.stderr, /refused: .* is a symbolic link to .*, outside the project/, `${c.name}: list says why`)
    }
  }
  for (const text of seen) assert.ok(!text.includes(CANARY), `the canary leaked: ${text.slice(0, 300)}`)
})

/** A planter: `link` inside the project is a symlink to a new file `name` (with `content`) outside it; returns that file. */
const linkedFile =
  (name: string, content: string, link: string) =>
  (p: TempDir, o: TempDir): string => {
    const t = o.write(name, content)
    p.mkdir('.dsh')
    symlinkSync(t, p.join(link))
    return t
  }

const WRITES: { name: string; args: string[]; plant: (p: TempDir, outside: TempDir) => string }[] = [
  {
    name: 'add through .dsh/mcp.yml',
    args: ['add', 'evil', 'echo', 'hi'],
    plant: linkedFile('bashrc', '# my shell config\n', '.dsh/mcp.yml'),
  },
  {
    name: 'add -s local through .dsh/mcp.local.yml',
    args: ['add', '-s', 'local', 'evil', 'echo', 'hi'],
    plant: linkedFile('profile', 'export A=1\n', '.dsh/mcp.local.yml'),
  },
  {
    name: 'add -s local through .dsh/.gitignore',
    args: ['add', '-s', 'local', 'evil', 'echo', 'hi'],
    plant: linkedFile('authorized_keys', 'ssh-ed25519 AAAA user\n', '.dsh/.gitignore'),
  },
  {
    name: 'add through .dsh linked elsewhere',
    args: ['add', 'evil', 'echo', 'hi'],
    plant: (p, o) => {
      const d = o.mkdir('elsewhere')
      symlinkSync(d, p.join('.dsh'))
      return join(d, 'mcp.yml')
    },
  },
  {
    name: 'remove through .dsh/mcp.yml',
    args: ['remove', 'srv'],
    plant: (p, o) => {
      const t = o.write('victim.yml', friendly({ srv: { command: 'echo' } }))
      p.mkdir('.dsh')
      symlinkSync(t, p.join('.dsh/mcp.yml'))
      return t
    },
  },
  {
    name: 'disable through .dsh/mcp.yml',
    args: ['disable', 'srv'],
    plant: (p, o) => {
      const t = o.write('victim2.yml', friendly({ srv: { command: 'echo' } }))
      p.mkdir('.dsh')
      symlinkSync(t, p.join('.dsh/mcp.yml'))
      return t
    },
  },
  {
    name: 'enable -s local through .dsh/mcp.local.yml',
    args: ['enable', '-s', 'local', 'srv'],
    plant: (p, o) => {
      p.write('.dsh/mcp.yml', friendly({ srv: { command: 'echo', enabled: false } }))
      const t = o.write('victim3.yml', '# not yours\n')
      symlinkSync(t, p.join('.dsh/mcp.local.yml'))
      return t
    },
  },
]

for (const v of WRITES) {
  test(`${v.name}: refused naming the link and its target; the target is byte-identical`, async () => {
    const home = makeTempDir('dsh-mcp-home-')
    const outside = makeTempDir('dsh-mcp-outside-')
    const p = makeProject()
    const target = v.plant(p, outside)
    const before = existsSync(target) ? readFileSync(target) : undefined
    const listing = readdirSync(outside.path, { recursive: true }).sort()
    const r = await runCli([...v.args, '-C', p.path], { cwd: p.path, dshHome: home.path, home: home.path })
    assert.equal(r.code, 1, `exit 1\n${r.stdout}\n${r.stderr}`)
    assert.match(r.stderr, /symbolic link to /, r.stderr)
    assert.ok(r.stderr.includes(outside.path), `the target is named: ${r.stderr}`)
    if (before === undefined) assert.ok(!existsSync(target), 'nothing created through the link')
    else assert.deepEqual(readFileSync(target), before, 'target byte-identical')
    assert.deepEqual(
      readdirSync(outside.path, { recursive: true }).sort(),
      listing,
      'no lock or temp file beside the target',
    )
  })
}

// The local file holds secrets: a link to a committed file inside the repository would put them there, and git reads
// no `.gitignore` that is a link (so the local file would not be ignored either).
const INSIDE: { name: string; link: string; target: string; content: string }[] = [
  {
    name: 'add -s local through .dsh/mcp.local.yml linked to a committed file',
    link: '.dsh/mcp.local.yml',
    target: 'docs/NOTES.md',
    content: 'servers: {}\n',
  },
  {
    name: 'add -s local through .dsh/.gitignore linked to a source file',
    link: '.dsh/.gitignore',
    target: 'src/index.js',
    content: "console.log('app')\n",
  },
]

for (const v of INSIDE) {
  test(`${v.name}: refused, the secret written nowhere`, async () => {
    const home = makeTempDir('dsh-mcp-home-')
    const p = makeProject({ [v.target]: v.content })
    p.mkdir('.dsh')
    symlinkSync(join('..', v.target), p.join(v.link))
    const r = await runCli(['add', '-s', 'local', 'gh', 'node', 'srv.js', '-e', 'GITHUB_TOKEN=ghp_insideLinkCanary'], {
      cwd: p.path,
      dshHome: home.path,
      home: home.path,
    })
    assert.equal(r.code, 1, `exit 1\n${r.stdout}\n${r.stderr}`)
    assert.equal(
      r.stderr,
      `dsh-mcp: refusing to write ${v.link}: it is a symbolic link (to ../${v.target}); the local file holds secrets and must be a regular file git ignores, so dsh-mcp never writes it through a link (remove the link)\n`,
    )
    assert.equal(readFileSync(p.join(v.target), 'utf8'), v.content, 'the linked file is untouched')
    for (const f of readdirSync(p.path, { recursive: true, withFileTypes: true })) {
      if (f.isFile())
        assert.ok(
          !readFileSync(join(f.parentPath, f.name), 'utf8').includes('ghp_insideLinkCanary'),
          `${f.name} holds no secret`,
        )
    }
    assert.ok(!existsSync(p.join('.dsh', 'mcp.local.yml.lock')), 'nothing locked')
  })
}

test('a local file the repository committed is refused: git tracks it whatever .gitignore says; an untracked one is written', async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const p = makeProject({ '.dsh/mcp.local.yml': 'servers: {}\n', 'README.md': '# app\n' })
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      cwd: p.path,
      stdio: 'pipe',
    }).toString()
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', 'plant')
  const add = ['add', '-s', 'local', 'gh', 'node', 'srv.js', '-e', 'GITHUB_TOKEN=ghp_trackedCanary', '-C', p.path]
  const r = await runCli(add, { cwd: p.path, dshHome: home.path, home: home.path })
  assert.equal(r.code, 1, `exit 1\n${r.stdout}\n${r.stderr}`)
  assert.equal(
    r.stderr,
    'dsh-mcp: refusing to write .dsh/mcp.local.yml: git tracks it, so the secrets it holds would be committed; run git rm --cached .dsh/mcp.local.yml (your copy stays), then try again\n',
  )
  assert.equal(readFileSync(p.join('.dsh/mcp.local.yml'), 'utf8'), 'servers: {}\n')
  assert.equal(git('status', '--porcelain'), '', 'nothing changed in the checkout')
  // Untracked (as `git rm --cached` leaves it): written, and ignored from then on.
  git('rm', '-q', '--cached', '.dsh/mcp.local.yml')
  const ok = await runCli(add, { cwd: p.path, dshHome: home.path, home: home.path })
  assert.equal(ok.code, 0, ok.stderr)
  assert.match(readFileSync(p.join('.dsh/mcp.local.yml'), 'utf8'), /ghp_trackedCanary/)
  assert.equal(git('check-ignore', '.dsh/mcp.local.yml').trim(), '.dsh/mcp.local.yml')
})

test('add through .dsh/mcp.yml linked to another file of the repository (a CI workflow): refused, the workflow untouched', async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const workflow = 'on: push\njobs: {}\n'
  const p = makeProject({ '.github/workflows/ci.yml': workflow })
  p.mkdir('.dsh')
  symlinkSync(join('..', '.github', 'workflows', 'ci.yml'), p.join('.dsh/mcp.yml'))
  const r = await runCli(
    ['add', 'myapi', '-e', 'API_KEY=sk-live-linkCanary', '--', 'node', 'server.js', '-C', p.path],
    { cwd: p.path, dshHome: home.path, home: home.path },
  )
  assert.equal(r.code, 1, `exit 1\n${r.stdout}\n${r.stderr}`)
  assert.equal(
    r.stderr,
    'dsh-mcp: refusing to write .dsh/mcp.yml: it is a symbolic link (to ../.github/workflows/ci.yml); the edit would land in that file, not in the one named, so dsh-mcp never writes it through a link (remove the link)\n',
  )
  assert.equal(readFileSync(p.join('.github/workflows/ci.yml'), 'utf8'), workflow)
})

test('the local file is secured before any secret is written: a project in a subdirectory of the repository, a "!" rule, a .gitignore that is a directory', async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const repo = makeProject({
    'sub/.dsh/mcp.local.yml': 'servers: {}\n',
    'neg/.dsh/mcp.yml': 'servers: {}\n',
    'neg/.dsh/.gitignore': 'mcp.local.yml\n!mcp.local.yml\n',
    'dir/.dsh/mcp.yml': 'servers: {}\n',
    'dir/.dsh/.gitignore/x': '',
    // `.dsh` a link to a directory of the repository: git answers nothing for a path beyond a link.
    'linked/inner/mcp.yml': 'servers: {}\n',
    'linked/inner/.gitignore': 'mcp.local.yml\n!mcp.local.yml\n',
    'README.md': '# app\n',
  })
  symlinkSync('inner', repo.join('linked/.dsh'))
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      cwd: repo.path,
      stdio: 'pipe',
    }).toString()
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', 'plant')
  const add = async (dir: string) =>
    runCli(
      ['add', '-s', 'local', 'gh', 'node', 'srv.js', '-e', 'GITHUB_TOKEN=ghp_secureCanary', '-C', repo.join(dir)],
      { cwd: repo.join(dir), dshHome: home.path, home: home.path },
    )
  const sub = await add('sub')
  assert.equal(sub.code, 1, sub.stderr)
  assert.match(
    sub.stderr,
    /^dsh-mcp: refusing to write \.dsh\/mcp\.local\.yml: git tracks it, so the secrets it holds would be committed; run git rm --cached \.dsh\/mcp\.local\.yml/,
  )
  const neg = await add('neg')
  assert.equal(neg.code, 1, neg.stderr)
  assert.match(
    neg.stderr,
    /^dsh-mcp: refusing to write \.dsh\/mcp\.local\.yml: git does not ignore it, so the secrets it holds could be committed \(a \.gitignore rule un-ignores it: git check-ignore -v --no-index \.dsh\/mcp\.local\.yml names it\); remove that rule, then try again\n$/,
  )
  const dir = await add('dir')
  assert.equal(dir.code, 1, dir.stderr)
  assert.match(
    dir.stderr,
    /^dsh-mcp: refusing to write \.dsh\/mcp\.local\.yml: \.dsh\/\.gitignore: is a directory, not a config file, so it cannot list the local file \(which holds secrets\)\n$/,
  )
  const linked = await add('linked')
  assert.equal(linked.code, 1, linked.stderr)
  assert.match(linked.stderr, /^dsh-mcp: refusing to write \.dsh\/mcp\.local\.yml: git does not ignore it/)
  // A repository of its own at `.dsh` (shipped in an archive), ignored by the outer one: its own rules decide.
  const nested = repo.mkdir('nested')
  writeFileSync(join(nested, '.gitignore'), '.dsh/\n')
  repo.write('nested/.dsh/mcp.yml', 'servers: {}\n')
  repo.write('nested/.dsh/.gitignore', 'mcp.local.yml\n!mcp.local.yml\n')
  execFileSync('git', ['init', '-q'], { cwd: join(nested, '.dsh') })
  git('add', '-A')
  git('commit', '-qm', 'nested')
  const inner = await add('nested')
  assert.equal(inner.code, 1, inner.stderr)
  assert.match(inner.stderr, /^dsh-mcp: refusing to write \.dsh\/mcp\.local\.yml: git does not ignore it/)
  assert.equal(git('status', '--porcelain'), '', 'nothing changed or added in the checkout')
  for (const f of readdirSync(repo.path, { recursive: true, withFileTypes: true })) {
    if (f.isFile() && !f.parentPath.includes('.git'))
      assert.ok(
        !readFileSync(join(f.parentPath, f.name), 'utf8').includes('ghp_secureCanary'),
        `${f.name} holds no secret`,
      )
  }
})

test("asking git about the local file runs nothing a checkout's .git/config names (fsmonitor, hooks, pager, alias)", async () => {
  const home = makeTempDir('dsh-mcp-home-')
  const p = makeProject({ '.dsh/mcp.yml': 'servers: {}\n' })
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      cwd: p.path,
      stdio: 'pipe',
    }).toString()
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', 'init')
  const marker = p.join('..', `${p.path.split('/').at(-1)}-git-ran`)
  const script = p.write('.git/evil.sh', `#!/bin/sh\necho "$0 $*" >> '${marker}'\n`)
  execFileSync('chmod', ['+x', script])
  for (const hook of ['post-index-change', 'pre-commit', 'post-checkout', 'reference-transaction'])
    p.write(`.git/hooks/${hook}`, `#!/bin/sh\n'${script}' ${hook}\n`)
  execFileSync('chmod', ['-R', '+x', p.join('.git/hooks')])
  for (const [k, v] of [
    ['core.fsmonitor', script],
    ['core.pager', script],
    ['pager.ls-files', script],
    ['pager.check-ignore', script],
    ['alias.ls-files', `!${script}`],
    ['core.hooksPath', p.join('.git/hooks')],
    ['core.sshCommand', script],
    ['credential.helper', `!${script}`],
  ])
    git('config', k!, v!)
  const r = await runCli(
    ['add', '-s', 'local', 'gh', 'node', 'srv.js', '-e', 'GITHUB_TOKEN=ghp_gitConfigCanary', '-C', p.path],
    { cwd: p.path, dshHome: home.path, home: home.path },
  )
  assert.equal(r.code, 0, r.stderr)
  assert.equal(
    existsSync(marker),
    false,
    `git ran a command the checkout named: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`,
  )
  assert.equal(git('check-ignore', '.dsh/mcp.local.yml').trim(), '.dsh/mcp.local.yml', 'the secrets file is ignored')
  // Control: the marker writer works — a plain `git status` in this checkout runs its fsmonitor.
  git('status', '--porcelain')
  assert.ok(existsSync(marker), 'the planted fsmonitor runs for a plain git status')
})
