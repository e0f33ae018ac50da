// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `dsh-mcp add` / `add-json` end to end (the CLI in process): what
 * is written where, `--` handling, scopes (.gitignore, 0600), --force, trust
 * of what was written, notes — and every bad input exits 2 or 1 with one line
 * and not a byte changed.
 */
import assert from 'node:assert/strict'
import { mkdirSync, statSync, symlinkSync } from 'node:fs'
import { Writable } from 'node:stream'
import { after, describe, test } from 'node:test'
import { runCli as runInProcess } from '../../src/cli/program.ts'
import { trustFingerprint } from '../../src/config/fingerprint.ts'
import { readTrustStore, canonicalRoot } from '../../src/trust/store.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { cleanupAll } from '../support/tmp.ts'

import { changed, makeEnv } from '../support/cli-env.ts'

const SECRET = 'sekret-Qm4-never-printed'
const HEADER = '# yaml-language-server: $schema=mcp.schema.json'
after(cleanupAll)

describe('add', () => {
  test('both "--" forms reach the server args; the file is created with the schema line', async () => {
    const env = makeEnv()
    let r = await env.run([
      'add',
      'github',
      '-e',
      'GITHUB_TOKEN=${GITHUB_TOKEN}',
      '--',
      'npx',
      '-y',
      '@modelcontextprotocol/server-github',
    ])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr, 'Added stdio server "github" to .dsh/mcp.yml\n')
    r = await env.run(['add', 'other', 'npx', '--', '-y', 'pkg', '--port', '3000'])
    assert.equal(r.code, 0, r.stderr)
    r = await env.run(['add', 'third', 'npx', '-y', 'pkg'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      'error: unknown option \'-y\'\n(server arguments that start with "-" go after "--": dsh-mcp add <name> -- <command> [args...])\n',
    )
    assert.equal(
      env.read('.dsh/mcp.yml'),
      [
        HEADER,
        'servers:',
        '  github:',
        '    command: npx',
        '    args: [-y, "@modelcontextprotocol/server-github"]',
        '    env:',
        '      GITHUB_TOKEN: ${GITHUB_TOKEN}',
        '  other:',
        '    command: npx',
        '    args: [-y, pkg, --port, "3000"]',
        '',
      ].join('\n'),
    )
  })

  test('a URL becomes an http entry with headers, timeout, tool filters, description, disabled', async () => {
    const env = makeEnv()
    const r = await env.run([
      'add',
      'docs',
      'https://mcp.example.test/mcp',
      '-H',
      'Authorization: Bearer ${DOCS_TOKEN:-anon}',
      '--timeout',
      '5000',
      '--include-tools',
      'read_*,list_*',
      '--exclude-tools',
      'delete_*',
      '--description',
      'Team docs',
      '--disabled',
    ])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, 'Added http server "docs" to .dsh/mcp.yml\n')
    assert.equal(
      env.read('.dsh/mcp.yml'),
      [
        HEADER,
        'servers:',
        '  docs:',
        '    url: https://mcp.example.test/mcp',
        '    headers:',
        '      Authorization: Bearer ${DOCS_TOKEN:-anon}',
        '    toolCallTimeoutMs: 5000',
        '    tools:',
        '      include: [read_*, list_*]',
        '      exclude: [delete_*]',
        '    description: Team docs',
        '    enabled: false',
        '',
      ].join('\n'),
    )
  })

  test('an existing name fails without --force; --force replaces it in place, comments kept', async () => {
    const text = '# team servers\nservers:\n  a:   # first\n    command: old\n  # b is next\n  b:\n    command: keep\n'
    const env = makeEnv({ '.dsh/mcp.yml': text })
    const before = env.snapshot()
    let r = await env.run(['add', 'a', 'node', 'new.js'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'dsh-mcp: server "a" already exists in .dsh/mcp.yml; use -f/--force to replace it\n')
    assert.deepEqual(changed(before, env.snapshot()), [])
    r = await env.run(['add', '-f', 'a', 'node', 'new.js'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, 'Replaced stdio server "a" in .dsh/mcp.yml\n')
    assert.equal(
      env.read('.dsh/mcp.yml'),
      '# team servers\nservers:\n  a:\n    command: node\n    args: [new.js]\n  # b is next\n  b:\n    command: keep\n',
    )
  })

  test('-s local writes .dsh/mcp.local.yml (0600) and lists it in .dsh/.gitignore, appending once', async () => {
    const env = makeEnv({ '.dsh/.gitignore': 'cache/' })
    let r = await env.run(['add', '-s', 'local', 'mine', 'node', 'x.js', '-e', `TOKEN=${SECRET}`])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, 'Added stdio server "mine" to .dsh/mcp.local.yml\n')
    assert.equal(r.stderr.includes(SECRET), false)
    assert.equal(env.read('.dsh/.gitignore'), 'cache/\nmcp.local.yml\n')
    assert.equal(statSync(env.project.join('.dsh/mcp.local.yml')).mode & 0o777, 0o600)
    r = await env.run(['add', '-s', 'local', 'mine2', 'node', 'y.js'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(env.read('.dsh/.gitignore'), 'cache/\nmcp.local.yml\n')

    const fresh = makeEnv()
    assert.equal((await fresh.run(['add', '-s', 'local', 'x', 'node'])).code, 0)
    assert.equal(fresh.read('.dsh/.gitignore'), 'mcp.local.yml\n')
  })

  test('-s user writes $DSH_HOME/mcp.yml with mode 0600 and touches nothing in the project', async () => {
    const env = makeEnv()
    const before = env.snapshot()
    const r = await env.run(['add', '-s', 'user', 'everywhere', 'node', 'srv.js'])
    assert.equal(r.code, 0, r.stderr)
    const file = `${env.dshHome}/mcp.yml`
    assert.equal(statSync(file).mode & 0o777, 0o600)
    assert.deepEqual(changed(before, env.snapshot(), env.home.path), ['.dsh', '.dsh/mcp.schema.json', '.dsh/mcp.yml'])
  })

  test('the $schema line resolves in the repository: .dsh/mcp.schema.json is written, and refreshed when stale', async () => {
    const env = makeEnv()
    let r = await env.run(['add', 'a', 'node', 'a.js'])
    assert.equal(r.code, 0, r.stderr)
    const schema = await env.run(['schema'])
    assert.equal(env.read('.dsh/mcp.schema.json'), schema.stdout)
    assert.ok(env.read('.dsh/mcp.yml').startsWith('# yaml-language-server: $schema=mcp.schema.json\n'))
    env.project.write('.dsh/mcp.schema.json', '{"stale": true}\n')
    r = await env.run(['add', 'b', 'node', 'b.js'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(env.read('.dsh/mcp.schema.json'), schema.stdout)
  })

  test('from a subdirectory (and with -C) it writes at the project root', async () => {
    const env = makeEnv({ '.mcp.json': '{"mcpServers": {}}\n', 'src/deep/file.txt': '' })
    let r = await env.run(['add', 'a', 'node'], { cwd: env.project.join('src/deep') })
    assert.equal(r.code, 0, r.stderr)
    r = await env.run(['-C', env.project.join('src'), 'add', 'b', 'node'], { cwd: env.home.path })
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(
      parseConfigText(env.read('.dsh/mcp.yml'), { file: 'f', format: 'friendly' }).entries.map((e) => e.name),
      ['a', 'b'],
    )
    assert.equal(env.read('.mcp.json'), '{"mcpServers": {}}\n')
  })

  test('the project row just written is trusted exactly as typed; a local file merging fields in leaves it untrusted', async () => {
    const env = makeEnv({ '.dsh/mcp.local.yml': 'servers:\n  gh:\n    env: {EXTRA: "1"}\n' })
    let r = await env.run(['add', 'gh', 'node', 'gh.js'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      /note: "gh" is not trusted: \.dsh\/mcp\.local\.yml merges fields into it that were not written here/,
    )
    assert.equal(readTrustStore(env.dshHome).projects[canonicalRoot(env.project.path)]?.servers.gh, undefined)
    r = await env.run(['add', 'plain', 'node', 'p.js'])
    assert.equal(r.code, 0, r.stderr)
    const rec = readTrustStore(env.dshHome).projects[canonicalRoot(env.project.path)]?.servers.plain
    assert.equal(rec?.fingerprint, trustFingerprint({ command: 'node', args: ['p.js'] }))
    await env.run(['add', '-s', 'user', 'u', 'node'])
    assert.equal(
      readTrustStore(env.dshHome).projects[canonicalRoot(env.project.path)]?.servers.u,
      undefined,
      'user scope needs no trust',
    )
  })

  test('a note says when a stronger layer shadows the new entry', async () => {
    const env = makeEnv({ '.dsh/mcp.local.yml': 'servers:\n  a:\n    command: local\n' })
    const r = await env.run(['add', 'a', 'node'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      r.stderr,
      'Added stdio server "a" to .dsh/mcp.yml\nnote: "a" in .dsh/mcp.local.yml takes precedence; this entry is shadowed\n',
    )
  })

  test('on win32 a bare npx gets a one-line cmd /c note, and the file keeps "npx"', async () => {
    const env = makeEnv()
    let err = ''
    const sink = (fn: (s: string) => void) =>
      new Writable({
        write(c, _e, cb) {
          fn(String(c))
          cb()
        },
      })
    const code = await runInProcess({
      argv: ['add', 'gh', '--', 'npx', '-y', 'pkg'],
      cwd: env.project.path,
      env: { HOME: env.home.path, DSH_HOME: env.dshHome },
      stdout: sink(() => {}),
      stderr: sink((s) => {
        err += s
      }),
      version: '0.0.0',
      platform: 'win32',
    })
    assert.equal(code, 0, err)
    const lines = err.trim().split('\n')
    assert.equal(lines.length, 2)
    assert.match(lines[1]!, /^note: on Windows "npx" runs as "cmd \/c npx …"/)
    assert.match(env.read('.dsh/mcp.yml'), /command: npx\n {4}args: \[-y, pkg\]\n/)
    assert.doesNotMatch(env.read('.dsh/mcp.yml'), /cmd/)
  })
})

describe('add-json', () => {
  test('.mcp.json shape and friendly shape; an agreeing "type" is not written', async () => {
    const env = makeEnv()
    let r = await env.run(['add-json', 'h', '{"type":"http","url":"https://x.test/mcp","headers":{"A":"${A}"}}'])
    assert.equal(r.code, 0, r.stderr)
    r = await env.run(['add-json', 's', '{"command":"node","args":["a.js"],"tools":{"exclude":["rm_*"]}}'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      env.read('.dsh/mcp.yml'),
      [
        HEADER,
        'servers:',
        '  h:',
        '    url: https://x.test/mcp',
        '    headers:',
        '      A: ${A}',
        '  s:',
        '    command: node',
        '    args: [a.js]',
        '    tools:',
        '      exclude: [rm_*]',
        '',
      ].join('\n'),
    )
  })

  test('bad JSON exits 2 without echoing it; an unknown transport, unknown keys and invalid entries exit 1; nothing written', async () => {
    const env = makeEnv()
    const before = env.snapshot()
    const cases: [string[], number, RegExp][] = [
      [['add-json', 'x', `{"command": "node", "env": {"T": "${SECRET}"`], 2, /<json> is not valid JSON/],
      [['add-json', 'x', '[1]'], 2, /must be a JSON object/],
      [['add-json', 'x', '{"type":"ws","url":"https://x.test/ws"}'], 1, /unknown transport "ws"/],
      [['add-json', 'x', '{"comand":"node"}'], 1, /unknown key "comand"; did you mean "command"\?/],
      [
        ['add-json', 'x', `{"command":"node","url":"https://x.test","env":{"T":"${SECRET}"}}`],
        1,
        /not valid: .*both "command" and "url"/,
      ],
      [['add-json', 'bad.name', '{"command":"node"}'], 2, /server name "bad.name" is not allowed/],
    ]
    for (const [args, code, pattern] of cases) {
      const r = await env.run(args)
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`)
      assert.match(r.stderr.split('\n')[0]!, pattern)
      assert.equal(r.stderr.includes(SECRET), false)
    }
    assert.deepEqual(changed(before, env.snapshot()), [])
  })
})

describe('add: bad input changes nothing', () => {
  test('each case exits with its code, one line on stderr, no secret, no file touched', async () => {
    const env = makeEnv({ '.dsh/mcp.yml': 'servers:\n  keep:\n    command: node # comment\n' })
    const cases: [string[], number, RegExp][] = [
      [['add', 'x', 'node', '-e', SECRET], 2, /-e\/--env #1: expected KEY=VALUE/],
      [['add', 'x', 'node', '-e', `=${SECRET}`], 2, /the key is empty/],
      [['add', 'x', 'node', '-e', `BAD-KEY=${SECRET}`], 2, /the part before "=" is not a valid variable name/],
      [['add', 'x', 'https://x.test', '-H', `Bearer ${SECRET}`], 2, /-H\/--header #1: expected "Name: value"/],
      [['add', 'x', 'https://x.test', '-H', `: ${SECRET}`], 2, /the name is empty/],
      [['add', '', 'node'], 2, /server name "" is not allowed \(it is empty\)/],
      [['add', 'a'.repeat(33), 'node'], 2, /it has 33 characters/],
      [['add', '-t', 'stdio', 'x', 'https://x.test/mcp'], 2, /-t stdio needs a command/],
      [['add', '-s', 'team', 'x', 'node'], 2, /argument 'team' is invalid/],
      [['add', 'x', 'node', '--timeout', 'abc'], 2, /--timeout: expected a whole number/],
      [['add', 'x', 'node', '-y'], 2, /unknown option '-y'/],
      [['add', 'x', 'node', '--', '${UNCLOSED'], 1, /server "x" is not valid: args\[0\]: /],
    ]
    for (const [args, code, pattern] of cases) {
      const before = env.snapshot()
      const r = await env.run(args)
      assert.equal(r.code, code, `${JSON.stringify(args)}: ${r.stderr}`)
      assert.match(r.stderr.split('\n')[0]!, pattern, JSON.stringify(args))
      assert.equal(r.stderr.includes(SECRET), false)
      assert.equal(r.stdout, '')
      assert.deepEqual(changed(before, env.snapshot()), [], JSON.stringify(args))
    }
  })

  test('a target that does not parse, is a directory, or cannot be read: exit 1, file:line:col, nothing written', async () => {
    const broken = 'servers:\n  a:\n    command: node\n  b: [unclosed\n'
    const env = makeEnv({ '.dsh/mcp.yml': broken })
    let before = env.snapshot()
    let r = await env.run(['add', 'x', 'node'])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /^dsh-mcp: \.dsh\/mcp\.yml:\d+:\d+: error: .*\(fix the file first; it was not changed\)\n$/)
    assert.deepEqual(changed(before, env.snapshot()), [])

    const dir = makeEnv()
    mkdirSync(dir.project.join('.dsh/mcp.yml'), { recursive: true })
    before = dir.snapshot()
    r = await dir.run(['add', 'x', 'node'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'dsh-mcp: .dsh/mcp.yml: is a directory, not a config file\n')
    assert.deepEqual(changed(before, dir.snapshot()), [])

    const loop = makeEnv()
    mkdirSync(loop.project.join('.dsh'))
    symlinkSync(loop.project.join('.dsh/mcp.yml'), loop.project.join('.dsh/mcp.yml'))
    before = loop.snapshot()
    r = await loop.run(['add', 'x', 'node'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'dsh-mcp: .dsh/mcp.yml: cannot be read: too many levels of symbolic links\n')
    assert.deepEqual(changed(before, loop.snapshot()), [])

    const missing = makeEnv()
    before = missing.snapshot()
    r = await missing.run(['-C', missing.project.join('nope'), 'add', 'x', 'node'])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /^dsh-mcp: .*nope: no such directory\n$/)
    assert.deepEqual(changed(before, missing.snapshot()), [])
  })
})
