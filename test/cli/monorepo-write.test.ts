/**
 * `add`/`remove` in a package of a monorepo (docs/guide/monorepos.md): the
 * file written is named relative to the working directory; with more than
 * one candidate file (the package's, the repository root's) a terminal is
 * asked, no terminal fails with one line naming them, `--file`/`-s` decide;
 * a row written into the root file is trusted as the root's, for every package.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, it } from 'node:test'
import { runCli } from '../support/cli.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

function world(files: Record<string, string>) {
  const home = makeTempDir('dsh-mcp-mono-home-')
  const repo = makeProject(files)
  const run = (args: string[], cwd: string, more: { stdin?: string; tty?: boolean } = {}) =>
    runCli(args, {
      cwd,
      dshHome: home.join('.dsh'),
      home: home.path,
      ...(more.stdin !== undefined ? { stdin: more.stdin } : {}),
      ...(more.tty ? { tty: {} } : {}),
    })
  return { repo, run }
}

const ROOT = { '.dsh/mcp.yml': 'servers:\n  lint: { command: root-lint }\n' }
const NESTED = {
  ...ROOT,
  'packages/a/.dsh/mcp.yml': 'servers:\n  own: { command: a-own }\n',
  'packages/a/sub/.keep': '',
}

describe('add in a monorepo', () => {
  it('a package with no file of its own writes the root file and says so relative to the cwd', async () => {
    const { repo, run } = world({ ...ROOT, 'packages/b/.keep': '' })
    const r = await run(['add', 'memory', 'mem-server'], repo.join('packages/b'))
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /^Added stdio server "memory" to \.\.\/\.\.\/\.dsh\/mcp\.yml$/m)
    assert.match(readFileSync(repo.join('.dsh/mcp.yml'), 'utf8'), /memory:/)
  })
  it('two candidate files and no terminal: one actionable line, nothing written', async () => {
    const { repo, run } = world(NESTED)
    const before = readFileSync(repo.join('.dsh/mcp.yml'), 'utf8')
    const r = await run(['add', 'memory', 'mem-server'], repo.join('packages/a/sub'))
    assert.equal(r.code, 1)
    const lines = r.stderr.trimEnd().split('\n')
    assert.equal(lines.length, 1, r.stderr)
    assert.match(
      lines[0]!,
      /more than one project file could hold "memory": \.\.\/\.dsh\/mcp\.yml, \.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml — .*--file .*-s project/,
    )
    assert.equal(readFileSync(repo.join('.dsh/mcp.yml'), 'utf8'), before)
    assert.doesNotMatch(readFileSync(repo.join('packages/a/.dsh/mcp.yml'), 'utf8'), /memory/)
  })
  it('--file names the root file; -s project the nearest; a terminal is asked', async () => {
    const { repo, run } = world(NESTED)
    const sub = repo.join('packages/a/sub')
    const viaFile = await run(['add', 'memory', 'mem-server', '--file', '../../../.dsh/mcp.yml'], sub)
    assert.equal(viaFile.code, 0, viaFile.stderr)
    assert.match(viaFile.stderr, /to \.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml$/m)
    const viaScope = await run(['add', 'near', 'near-server', '-s', 'project'], sub)
    assert.match(viaScope.stderr, /to \.\.\/\.dsh\/mcp\.yml$/m)
    const asked = await run(['add', 'picked', 'p-server'], sub, { tty: true, stdin: '2\n' })
    assert.equal(asked.code, 0, asked.stderr)
    assert.match(asked.stderr, /1\) \.\.\/\.dsh\/mcp\.yml\n {2}2\) \.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml/)
    assert.match(readFileSync(repo.join('.dsh/mcp.yml'), 'utf8'), /picked:/)
    const bad = await run(['add', 'x', 'y', '--file', '/etc/passwd'], sub)
    assert.equal(bad.code, 1)
    assert.match(bad.stderr, /--file \/etc\/passwd: not a config file dsh-mcp writes here/)
  })
  it('what add writes into the root file is trusted as the root row, in every package', async () => {
    const { repo, run } = world({ ...NESTED, 'packages/b/.dsh/mcp.yml': 'servers: {}\n' })
    const add = await run(['add', 'memory', 'mem-server', '--file', '../../.dsh/mcp.yml'], repo.join('packages/a'))
    assert.equal(add.code, 0, add.stderr)
    for (const pkg of ['packages/a', 'packages/b']) {
      const list = await run(['list', '--json'], repo.join(pkg))
      const rows = JSON.parse(list.stdout) as { name: string; trust: string }[]
      assert.equal(rows.find((s) => s.name === 'memory')?.trust, 'trusted', `${pkg}: ${list.stdout}`)
    }
  })
})

describe('remove in a monorepo', () => {
  it('a name two directories define: no terminal fails naming both; --file removes the one named', async () => {
    const { repo, run } = world({
      '.dsh/mcp.yml': 'servers:\n  lint: { command: root-lint }\n',
      'packages/a/.dsh/mcp.yml': 'servers:\n  lint: { command: a-lint }\n',
    })
    const a = repo.join('packages/a')
    const r = await run(['remove', 'lint'], a)
    assert.equal(r.code, 1)
    assert.match(
      r.stderr,
      /"lint" is defined in more than one project directory: \.dsh\/mcp\.yml, \.\.\/\.\.\/\.dsh\/mcp\.yml/,
    )
    const ok = await run(['remove', 'lint', '--file', '../../.dsh/mcp.yml'], a)
    assert.equal(ok.code, 0, ok.stderr)
    assert.match(ok.stderr, /^Removed "lint" from \.\.\/\.\.\/\.dsh\/mcp\.yml; now using \.dsh\/mcp\.yml$/m)
  })
  it('a root-only name removed from a package names the root file relative to the cwd', async () => {
    const { repo, run } = world({ ...ROOT, 'packages/b/.dsh/mcp.yml': 'servers: {}\n' })
    const r = await run(['remove', 'lint'], repo.join('packages/b'))
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /^Removed "lint" from \.\.\/\.\.\/\.dsh\/mcp\.yml$/m)
  })
})
