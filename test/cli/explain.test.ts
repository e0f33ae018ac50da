/**
 * `dsh-mcp explain <name>` and `status --explain` (docs/guide/monorepos.md)
 * in a three-level monorepo: every layer that defined, overrode, disabled or
 * shadowed a server, the one that decided marked, paths relative to the cwd.
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { runCli } from '../support/cli.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(() => cleanupAll())

function world() {
  const home = makeTempDir('dsh-mcp-explain-home-')
  home.write('.dsh/mcp.yml', 'servers:\n  memory: { command: user-memory }\n  glob: { command: user-glob }\n')
  const repo = makeProject({
    '.dsh/mcp.yml': 'servers:\n  memory: { command: root-memory }\n  lint: { command: root-lint }\n',
    'packages/a/.dsh/mcp.yml': 'disable: [memory]\nservers:\n  own: { command: a-own }\n',
    'packages/a/.dsh/mcp.local.yml': 'servers:\n  lint:\n    env: { SECRET_TOKEN: hunter2-value }\n',
    'packages/a/sub/.keep': '',
  })
  const run = (args: string[], cwd: string) => runCli(args, { cwd, dshHome: home.join('.dsh'), home: home.path })
  return { home, repo, run }
}

describe('dsh-mcp explain', () => {
  it('names the disabling file, the parent that defines it and the user row it shadows, relative to the cwd', async () => {
    const { repo, run } = world()
    const r = await run(['explain', 'memory'], repo.join('packages/a/sub'))
    assert.equal(r.code, 0, r.stderr)
    const lines = r.stdout.trimEnd().split('\n')
    assert.match(lines[0]!, /^memory: disabled by \.\.\/\.dsh\/mcp\.yml$/)
    assert.match(lines[1]!, /^ {2}→ disables +\.\.\/\.dsh\/mcp\.yml +\(project\) +disable: lists it/)
    assert.match(lines[2]!, /^ {4}defines +\.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml +\(project, 2 levels up\)/)
    assert.match(lines[3]!, /^ {4}shadowed +~\/\.dsh\/mcp\.yml +\(user\) +by \.\.\/\.\.\/\.\.\/\.dsh\/mcp\.yml$/)
  })
  it('--json: a partial local override over a parent row, keys only, never a value', async () => {
    const { repo, run } = world()
    const r = await run(['explain', 'lint', '--json'], repo.join('packages/a'))
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.outcome, 'active')
    assert.equal(doc.root, repo.join('packages/a'))
    assert.deepEqual(
      doc.steps.map((s: { action: string; file: string; decides: boolean }) => [s.action, s.file, s.decides]),
      [
        ['overrides', '.dsh/mcp.local.yml', false],
        ['defines', '../../.dsh/mcp.yml', true],
      ],
    )
    assert.deepEqual(doc.steps[0].keys, ['env'])
    assert.ok(!r.stdout.includes('hunter2'), 'no value printed')
  })
  it('an unknown name fails with a did-you-mean', async () => {
    const { repo, run } = world()
    const r = await run(['explain', 'memori'], repo.join('packages/a'))
    assert.equal(r.code, 1)
    assert.match(r.stderr, /no server named "memori".*did you mean "memory"/)
  })
  it('in a sibling package nothing of packages/a shows; the root wins over the user file', async () => {
    const { repo, run } = world()
    repo.write('packages/b/.dsh/mcp.yml', 'servers: {}\n')
    const r = await run(['explain', 'memory'], repo.join('packages/b'))
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^memory: active\n {2}→ defines +\.\.\/\.\.\/\.dsh\/mcp\.yml/)
    assert.ok(!r.stdout.includes('packages/a'))
    assert.equal((await run(['explain', 'own'], repo.join('packages/b'))).code, 1)
  })
})

describe('list and get in a package', () => {
  it('a row a package disables says by which file; a parent row runs from the parent', async () => {
    const { repo, run } = world()
    const list = await run(['list', '--json'], repo.join('packages/a'))
    const rows = JSON.parse(list.stdout) as { name: string; scope: string; state: string; issues: string[] }[]
    const memory = rows.find((r) => r.name === 'memory' && r.state === 'disabled')!
    assert.ok(
      memory.issues.some((i) => /^turned off by disable: in .*\.dsh\/mcp\.yml$/.test(i)),
      memory.issues.join('\n'),
    )
    const get = await run(['get', 'memory', '--json'], repo.join('packages/a'))
    const view = JSON.parse(get.stdout) as { runs?: { cwd?: string } }
    assert.equal(view.runs?.cwd, repo.path, 'the root row runs from the root')
  })
})

describe('dsh-mcp status --explain', () => {
  it('with no host: the status line, then every server traced; --json carries explain[]', async () => {
    const { repo, run } = world()
    const text = await run(['status', '--explain'], repo.join('packages/a'))
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /no running host has written status/)
    assert.match(
      text.stdout,
      /layers \(dsh-mcp explain <name> for one\):\n {2}glob: active\n[\s\S]*\n {2}memory: disabled by \.dsh\/mcp\.yml\n {4}→ disables/,
    )
    const json = await run(['status', '--explain', '--json'], repo.join('packages/a'))
    const doc = JSON.parse(json.stdout)
    assert.deepEqual(doc.projects, [])
    assert.deepEqual(doc.explain.map((t: { name: string }) => t.name).sort(), ['glob', 'lint', 'memory', 'own'])
  })
})
