// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `dsh-mcp get` (winner + shadowed rows, did-you-mean) and `dsh-mcp validate`
 * (every diagnostic as file:line:col, exit 1 on errors only, quiet success).
 */
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
after(cleanupAll)

function setup(files: Record<string, string>, user?: string) {
  const project = makeProject(files)
  const home = makeTempDir('dsh-mcp-home-')
  if (user !== undefined) home.write('.dsh/mcp.yml', user)
  return { project, dshHome: home.join('.dsh'), o: { cwd: project.path, dshHome: home.join('.dsh') } }
}

describe('get', () => {
  const files = {
    '.dsh/mcp.yml':
      'servers:\n  github:\n    command: npx\n    args: [-y, server-github]\n    env: {GITHUB_TOKEN: "${GITHUB_TOKEN}"}\n    cwd: tools\n',
    '.mcp.json': JSON.stringify({ mcpServers: { github: { command: 'node', args: ['old.js'] } } }),
  }

  test('--json: the winning row with its shadowed rows', async () => {
    const { project, o } = setup(files, 'servers:\n  github: {command: node, args: [user.js]}\n')
    const r = await runCli(['get', 'github', '--json'], o)
    assert.equal(r.code, 0, r.stderr)
    const v = JSON.parse(r.stdout)
    assert.equal(v.name, 'github')
    assert.equal(v.scope, 'project')
    assert.equal(v.file, project.join('.dsh/mcp.yml'))
    assert.equal(v.state, 'untrusted')
    assert.deepEqual(v.args, ['-y', 'server-github'])
    assert.deepEqual(v.envKeys, ['GITHUB_TOKEN'])
    assert.deepEqual(
      v.shadowed.map((s: { scope: string; state: string; args: string[] }) => [s.scope, s.state, s.args[0]]),
      [
        ['legacy', 'shadowed', 'old.js'],
        ['user', 'shadowed', 'user.js'],
      ],
    )
  })

  test('text: details, resolved cwd and the shadowed rows', async () => {
    const { project, o } = setup(files)
    const r = await runCli(['get', 'github'], o)
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^github\n/)
    assert.match(r.stdout, /command:\s+npx -y server-github\n/)
    assert.ok(r.stdout.includes(`cwd:         ${project.join('tools')}\n`), r.stdout)
    // The variable the value sends is named; its value never prints.
    assert.match(r.stdout, /env keys:\s+GITHUB_TOKEN \(← \$GITHUB_TOKEN\)\n/)
    assert.match(r.stdout, /shadowed rows:\n {2}legacy {2}\.mcp\.json {2}stdio {2}node old\.js\n/)
  })

  test('an unknown name: exit 1, one line with a did-you-mean', async () => {
    const { o } = setup(files)
    const r = await runCli(['get', 'githb'], o)
    assert.equal(r.code, 1)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr.trimEnd().split('\n').length, 1)
    assert.match(r.stderr, /no server named "githb".*did you mean "github"\?/)
    const far = await runCli(['get', 'zzzzzzzz'], o)
    assert.equal(far.code, 1)
    assert.doesNotMatch(far.stderr, /did you mean/)
  })

  test('a missing argument is a usage error (exit 2)', async () => {
    const { o } = setup(files)
    assert.equal((await runCli(['get'], o)).code, 2)
  })
})

describe('validate', () => {
  test('a clean project prints nothing and exits 0', async () => {
    const { o } = setup(
      { '.dsh/mcp.yml': 'servers:\n  a: {command: node}\n', '.dsh/mcp.local.yml': 'servers:\n  a: {enabled: false}\n' },
      'servers:\n  u: {url: "http://127.0.0.1:1/mcp"}\n',
    )
    const r = await runCli(['validate'], o)
    assert.deepEqual(r, { code: 0, stdout: '', stderr: '' })
  })

  test('warnings alone exit 0; they are printed as file:line:col: warning: path: message', async () => {
    const { o } = setup({ '.dsh/mcp.yml': 'servers:\n  a:\n    command: node\n    comand: x\n' })
    const r = await runCli(['validate'], o)
    assert.equal(r.code, 0)
    assert.equal(
      r.stderr,
      '.dsh/mcp.yml:4:5: warning: servers.a.comand: unknown key "comand" in a server entry (ignored); did you mean "command"?\n',
    )
  })

  test('errors in every layer file (project and user) are all reported; exit 1', async () => {
    const { dshHome, o } = setup(
      {
        '.dsh/mcp.yml': 'servers:\n  a: {command: node, url: "http://x.test"}\n',
        '.dsh/mcp.json': '{"mcpServers": {"b": {"type": "ws", "url": "http://x.test"}}}',
        '.mcp.json': '{"mcpServers": ',
        '.dsh/mcp.local.yml': 'servers:\n  orphan: {env: {A: b}}\n',
      },
      'servers:\n  bad name: {command: x}\n',
    )
    const r = await runCli(['validate'], o)
    assert.equal(r.code, 1)
    assert.equal(r.stdout, '')
    const lines = r.stderr.trimEnd().split('\n')
    assert.ok(
      lines.some((l) => /^\.dsh\/mcp\.yml:2:\d+: error: servers\.a\.url: /.test(l)),
      r.stderr,
    )
    assert.ok(
      lines.some((l) => /^\.dsh\/mcp\.json:1:\d+: error: mcpServers\.b\.type: .*"ws"/.test(l)),
      r.stderr,
    )
    assert.ok(
      lines.some((l) => /^\.mcp\.json:1:\d+: error: /.test(l)),
      r.stderr,
    )
    assert.ok(
      lines.some((l) => /^\.dsh\/mcp\.local\.yml:2:3: error: servers\.orphan: .*overrides no server/.test(l)),
      r.stderr,
    )
    assert.ok(
      lines.some((l) => l.startsWith(`${dshHome}/mcp.yml:2:3: error: servers["bad name"]: `)),
      r.stderr,
    )
    assert.equal(lines.length, 5, r.stderr)
  })

  test('named files: the format follows the name; mcp.local.yml may hold partial rows', async () => {
    const { project, o } = setup({})
    project.write('ci/mcp.local.yml', 'servers:\n  a: {enabled: false}\n')
    project.write('ci/other.yml', 'servers:\n  a: {enabled: false}\n')
    project.write('ci/servers.json', '{"mcpServers": {"a": {"command": "node"}}}')
    project.write('ci/servers-wrong.json', '{"servers": {"a": {"command": "node"}}}')
    assert.deepEqual(await runCli(['validate', 'ci/mcp.local.yml', 'ci/servers.json'], o), {
      code: 0,
      stdout: '',
      stderr: '',
    })
    const partial = await runCli(['validate', 'ci/other.yml'], o)
    assert.equal(partial.code, 1)
    assert.match(partial.stderr, /^ci\/other\.yml:2:\d+: error: servers\.a: needs "command"/)
    const wrong = await runCli(['validate', project.join('ci/servers-wrong.json')], o)
    assert.equal(wrong.code, 0)
    assert.match(wrong.stderr, /^ci\/servers-wrong\.json:1:2: warning: servers: .*"mcpServers"/)
    const sub = project.mkdir('ci/deeper')
    const rel = await runCli(['validate', '../other.yml'], { ...o, cwd: sub })
    // Outside the working directory, paths are shown absolute.
    assert.ok(rel.stderr.startsWith(`${project.join('ci/other.yml')}:2:`), rel.stderr)
  })

  test('a named file that does not exist is an error (exit 1)', async () => {
    const { o } = setup({})
    const r = await runCli(['validate', 'nope.yml'], o)
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'nope.yml: error: no such file\n')
  })
})
