// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `dsh-mcp list`: every row of all five layer files with the right scope and
 * state, shadowing across all of them, partial local overrides, broken files
 * on stderr, the scope filter — and no env/header value in any output.
 */
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'
import { listJson, rowOf, runCli } from '../support/cli.ts'

const CANARY = 'canary-Zq81-secret-value'
after(cleanupAll)

function fiveFileProject(): { project: TempDir; dshHome: string } {
  const project = makeProject({
    '.dsh/mcp.yml': [
      'servers:',
      '  shared: {command: node, args: [yml.js]}',
      '  github:',
      '    command: npx',
      '    args: [-y, "@modelcontextprotocol/server-github"]',
      '    env:',
      '      GITHUB_TOKEN: ${GITHUB_TOKEN}',
      `      LITERAL: ${CANARY}`,
      '  docs:',
      '    url: https://docs.example.test/mcp',
      '    headers:',
      `      Authorization: Bearer ${CANARY}`,
      '    tools: {exclude: ["delete_*"]}',
      '    description: Team docs',
      '  broken:',
      '    command: node',
      '    url: http://127.0.0.1:9/mcp',
      '  parked: {command: node, args: [parked.js], enabled: false}',
      '',
    ].join('\n'),
    '.dsh/mcp.local.yml': [
      'servers:',
      '  shared: {command: node, args: [local.js]}',
      '  github:',
      '    enabled: false',
      '  scripts:',
      '    env:',
      `      SCRIPT_TOKEN: ${CANARY}`,
      '',
    ].join('\n'),
    '.dsh/mcp.json': JSON.stringify({
      mcpServers: {
        shared: { command: 'node', args: ['json.js'] },
        scripts: { command: 'node', args: ['s.js'], cwd: 'tools', env: { A: '1' } },
      },
    }),
    '.mcp.json': JSON.stringify({
      mcpServers: {
        shared: { command: 'node', args: ['legacy.js'] },
        remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': CANARY } },
      },
    }),
  })
  const home = makeTempDir('dsh-mcp-home-')
  home.write(
    '.dsh/mcp.yml',
    `servers:\n  shared: {command: node, args: [user.js]}\n  globalone:\n    command: node\n    args: [g.js]\n    env: {G_SECRET: ${CANARY}}\n`,
  )
  return { project, dshHome: home.join('.dsh') }
}

describe('list --json over five layer files', () => {
  test('every row has the right scope, file and state', async () => {
    const { project, dshHome } = fiveFileProject()
    const { rows, stderr } = await listJson({ cwd: project.path, dshHome })
    assert.equal(stderr, '')
    const local = project.join('.dsh/mcp.local.yml')
    const yml = project.join('.dsh/mcp.yml')
    const json = project.join('.dsh/mcp.json')
    const legacy = project.join('.mcp.json')
    const user = `${dshHome}/mcp.yml`

    // `shared` is in all five files: the local row wins, every other one is shadowed by it.
    const winner = rowOf(rows, 'shared', 'local')
    assert.equal(winner.file, local)
    assert.equal(winner.state, 'untrusted')
    assert.deepEqual(winner.args, ['local.js'])
    assert.equal(winner.effectiveName, null)
    for (const [scope, file] of [
      ['project', yml],
      ['project', json],
      ['legacy', legacy],
      ['user', user],
    ] as const) {
      const r = rowOf(rows, 'shared', scope, file)
      assert.equal(r.state, 'shadowed', `${file}`)
      assert.deepEqual(r.shadowedBy, { scope: 'local', file: local })
      assert.equal(r.effectiveName, null)
      assert.ok(
        r.issues.some((i) => i === 'shadowed by .dsh/mcp.local.yml (local)'),
        r.issues.join('|'),
      )
    }
    assert.equal(rows.filter((r) => r.name === 'shared').length, 5)

    // A partial `enabled: false` in the local file disables the committed server.
    const github = rowOf(rows, 'github', 'project')
    assert.equal(github.state, 'disabled')
    assert.equal(github.enabled, false)
    assert.equal(github.overriddenBy, local)
    assert.deepEqual(github.envKeys, ['GITHUB_TOKEN', 'LITERAL'])
    assert.equal(github.transport, 'stdio')
    assert.equal(github.command, 'npx')

    // A partial `env` override merges onto the row from .dsh/mcp.json.
    const scripts = rowOf(rows, 'scripts', 'project')
    assert.equal(scripts.file, json)
    assert.equal(scripts.state, 'untrusted')
    assert.deepEqual(scripts.envKeys, ['A', 'SCRIPT_TOKEN'])
    assert.equal(scripts.cwd, 'tools')
    assert.equal(scripts.overriddenBy, local)

    const docs = rowOf(rows, 'docs', 'project')
    assert.equal(docs.transport, 'http')
    assert.equal(docs.url, 'https://docs.example.test/mcp')
    assert.deepEqual(docs.headerKeys, ['Authorization'])
    assert.deepEqual(docs.tools, { exclude: ['delete_*'] })
    assert.equal(docs.description, 'Team docs')
    assert.equal(docs.state, 'untrusted')
    assert.ok(docs.issues.some((i) => /not trusted/.test(i)))

    const broken = rowOf(rows, 'broken', 'project')
    assert.equal(broken.state, 'invalid')
    assert.equal(broken.effectiveName, null)
    assert.ok(
      broken.issues.some((i) =>
        /^\.dsh\/mcp\.yml:\d+:\d+: error: servers\.broken\.url: .*both "command" and "url"/.test(i),
      ),
      broken.issues.join('|'),
    )

    assert.equal(rowOf(rows, 'parked', 'project').state, 'disabled')
    const remote = rowOf(rows, 'remote', 'legacy')
    assert.equal(remote.state, 'untrusted')
    assert.deepEqual(remote.headerKeys, ['X-Key'])

    // The user's own file needs no trust.
    const g = rowOf(rows, 'globalone', 'user')
    assert.equal(g.state, 'active')
    assert.equal(g.effectiveName, 'globalone')
    assert.equal(g.trust, 'not-required')

    assert.equal(rows.length, 12)
    for (const r of rows) {
      for (const key of [
        'name',
        'scope',
        'file',
        'transport',
        'state',
        'effectiveName',
        'issues',
        'envKeys',
        'headerKeys',
        'enabled',
        'shadowedBy',
        'tools',
      ]) {
        assert.ok(key in r, `${r.name} lacks ${key}`)
      }
    }
  })

  test('-s keeps only that scope; a bad scope is a usage error', async () => {
    const { project, dshHome } = fiveFileProject()
    const { rows } = await listJson({ cwd: project.path, dshHome }, ['-s', 'legacy'])
    assert.deepEqual(rows.map((r) => `${r.name}/${r.scope}`).sort(), ['remote/legacy', 'shared/legacy'])
    const user = await listJson({ cwd: project.path, dshHome }, ['--scope', 'user'])
    assert.deepEqual(user.rows.map((r) => r.name).sort(), ['globalone', 'shared'])
    const bad = await runCli(['list', '-s', 'everything'], { cwd: project.path, dshHome })
    assert.equal(bad.code, 2)
    assert.equal(bad.stdout, '')
  })

  test('-C finds the project from another directory and from a subdirectory', async () => {
    const { project, dshHome } = fiveFileProject()
    const elsewhere = makeTempDir()
    const sub = project.mkdir('src/deep')
    const a = await listJson({ cwd: elsewhere.path, dshHome }, ['-C', sub])
    const b = await listJson({ cwd: sub, dshHome })
    assert.equal(a.rows.length, 12)
    assert.deepEqual(
      a.rows.map((r) => r.file),
      b.rows.map((r) => r.file),
    )
  })
})

describe('list text and broken files', () => {
  test('the table shows name, scope, state, transport, target, effective name and issues', async () => {
    const { project, dshHome } = fiveFileProject()
    const r = await runCli(['list'], { cwd: project.path, dshHome })
    assert.equal(r.code, 0)
    const lines = r.stdout.trimEnd().split('\n')
    assert.match(lines[0]!, /^NAME\s+SCOPE\s+STATE\s+TRANSPORT\s+TARGET\s+EFFECTIVE\s+ISSUES$/)
    const github = lines.find((l) => l.startsWith('github '))!
    assert.match(github, /^github\s+project\s+disabled\s+stdio\s+npx -y @modelcontextprotocol\/server-github\s+-/)
    assert.match(
      lines.find((l) => l.startsWith('globalone '))!,
      /^globalone\s+user\s+active\s+stdio\s+node g\.js\s+globalone$/,
    )
    assert.equal(lines.length, 13)
  })

  test('a file that does not parse: stderr names file:line:col, its rows are absent, exit 1', async () => {
    const { project, dshHome } = fiveFileProject()
    project.write('.dsh/mcp.json', '{\n  "mcpServers": {\n    "scripts": { "command": "node", }\n  }\n}\n')
    const r = await runCli(['list', '--json'], { cwd: project.path, dshHome })
    assert.equal(r.code, 1)
    const rows = JSON.parse(r.stdout) as { file: string; name: string; scope: string; state: string }[]
    assert.ok(!rows.some((x) => x.file.endsWith('.dsh/mcp.json')))
    // The env-only local override of `scripts` now overrides nothing.
    assert.equal(rows.find((x) => x.name === 'scripts')?.state, 'invalid')
    const lines = r.stderr.trimEnd().split('\n')
    assert.equal(lines.length, 1, r.stderr)
    assert.match(lines[0]!, /^\.dsh\/mcp\.json:3:\d+: error: /)
    const text = await runCli(['list'], { cwd: project.path, dshHome })
    assert.equal(text.code, 1)
    assert.match(text.stderr, /^\.dsh\/mcp\.json:3:\d+: error: /)
  })

  test('the only file does not parse: list says so (never "add one") and exits 1; validate too', async () => {
    const project = makeProject()
    const dshHome = makeTempDir().join('.dsh')
    project.write('.dsh/mcp.yml', 'servers:\n  a: [unclosed\n')
    const r = await runCli(['list'], { cwd: project.path, dshHome })
    assert.equal(r.code, 1)
    assert.doesNotMatch(r.stdout, /add one/)
    assert.match(r.stdout, /1 config file could not be read/)
    assert.match(r.stderr, /^\.dsh\/mcp\.yml:\d+:\d+: error: /)
    const v = await runCli(['validate'], { cwd: project.path, dshHome })
    assert.equal(v.code, 1)
    assert.match(v.stderr, /^\.dsh\/mcp\.yml:\d+:\d+: error: /)
  })

  test('an empty project lists nothing: [] in JSON, a hint in text', async () => {
    const project = makeProject()
    const dshHome = makeTempDir().join('.dsh')
    assert.deepEqual((await listJson({ cwd: project.path, dshHome })).rows, [])
    const r = await runCli(['list'], { cwd: project.path, dshHome })
    assert.equal(r.code, 0)
    assert.match(r.stdout, /no MCP servers/)
  })
})

test('no env or header value appears in any output of list, get, validate or trust', async () => {
  const { project, dshHome } = fiveFileProject()
  const o = { cwd: project.path, dshHome }
  const runs = await Promise.all([
    runCli(['list'], o),
    runCli(['list', '--json'], o),
    runCli(['get', 'github'], o),
    runCli(['get', 'docs', '--json'], o),
    runCli(['get', 'scripts'], o),
    runCli(['get', 'remote', '--json'], o),
    runCli(['get', 'globalone'], o),
    runCli(['get', 'nope'], o),
    runCli(['validate'], o),
    runCli(['trust', '--all'], o),
  ])
  runs.push(
    await runCli(['trust', '--all', '--yes'], o),
    await runCli(['trust', 'github', 'globalone', '--yes'], o),
    await runCli(['list', '--json'], o),
  )
  const all = runs.map((r) => r.stdout + r.stderr).join('\n')
  assert.ok(
    all.includes('SCRIPT_TOKEN') && all.includes('Authorization') && all.includes('X-Key'),
    'key names are shown',
  )
  assert.ok(!all.includes(CANARY), 'a secret value was printed')
  assert.ok(!all.includes('canary'), 'part of a secret value was printed')
})
