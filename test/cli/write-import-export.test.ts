// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `import` from every client format (discovery, sniffing, translation notes,
 * the add/skip/conflict/invalid plan, dry run, one write) and `export` to the
 * client formats (values as in the source, never expanded).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { parse } from 'yaml'
import { cleanupAll } from '../support/tmp.ts'

import { changed, makeEnv } from '../support/cli-env.ts'
after(cleanupAll)

const CURSOR = JSON.stringify({
  mcpServers: {
    cur: {
      command: 'node',
      args: ['${workspaceFolder}/tools/cur.js'],
      env: { KEY: '${env:CUR_KEY}' },
      envFile: '.env',
    },
    same: { command: 'node', args: ['same.js'] },
  },
})
const VSCODE = `{
  // VS Code allows comments
  "inputs": [{ "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true }],
  "servers": {
    "vs": { "type": "stdio", "command": "npx", "args": ["-y", "gh"], "env": { "GITHUB_TOKEN": "\${input:gh-token}" } },
    "old": { "type": "ws", "url": "wss://ws.test/ws" },
  }
}`
const GEMINI = JSON.stringify({
  mcpServers: {
    gem: {
      httpUrl: 'https://gem.test/mcp',
      headers: { A: 'b' },
      timeout: 30000,
      includeTools: ['read_*'],
      excludeTools: ['rm'],
      trust: true,
    },
    genv: { command: 'node', env: { T: '$GEM_TOKEN' } },
  },
})
const CODEX = `
[mcp_servers.cx]
command = "npx"
args = ["-y", "codex-srv"]
env = { A = "1" }
enabled_tools = ["a"]
disabled_tools = ["b"]
tool_timeout_sec = 45
startup_timeout_sec = 20

[mcp_servers.web]
url = "https://codex.test/mcp"
bearer_token_env_var = "CODEX_TOKEN"
`
const CLAUDE = JSON.stringify({
  mcpServers: {
    same: { type: 'stdio', command: 'node', args: ['other.js'] },
    cl: { type: 'http', url: 'https://cl.test/mcp' },
  },
})

function servers(text: string): Record<string, Record<string, unknown>> {
  return (parse(text) as { servers: Record<string, Record<string, unknown>> }).servers
}

describe('import', () => {
  test('finds every client file, translates, plans add/skip/conflict/invalid, writes once per scope (Codex: the user layer)', async () => {
    const env = makeEnv({
      '.cursor/mcp.json': CURSOR,
      '.vscode/mcp.json': VSCODE,
      '.gemini/settings.json': GEMINI,
      '.mcp.json': CLAUDE,
      '.dsh/mcp.yml': '# mine\nservers:\n  cur:\n    command: different\n',
    })
    env.home.write('.codex/config.toml', CODEX)
    const dry = env.snapshot()
    let r = await env.run(['import', '--dry-run'])
    assert.equal(r.code, 1, 'an invalid entry makes the exit code 1')
    assert.match(
      r.stderr,
      /Dry run: would import 5 servers into \.dsh\/mcp\.yml, 2 servers into ~\/\.dsh\/mcp\.yml; nothing written\n$/,
    )
    assert.deepEqual(changed(dry, env.snapshot()), [])
    const plan = r.stdout

    r = await env.run(['import', '--yes'])
    assert.equal(r.code, 1)
    assert.equal(r.stdout, plan, 'the dry run showed exactly this plan')
    assert.match(
      r.stderr,
      /^Imported 5 servers into \.dsh\/mcp\.yml, 2 servers into ~\/\.dsh\/mcp\.yml\nnot trusted \(from a file inside a repository or not yours\): same, cl, vs, gem, genv; /,
    )
    const rows = r.stdout
      .split('\n')
      .filter((l) => /^(add|skip|conflict|invalid) /.test(l))
      .map((l) =>
        l
          .split(/\s{2,}/)
          .slice(0, 2)
          .join(' '),
      )
    assert.deepEqual(rows, [
      'add same',
      'add cl',
      'conflict cur',
      'conflict same',
      'add vs',
      'invalid old',
      'add gem',
      'add genv',
      'add cx',
      'add web',
    ])
    assert.match(r.stdout, /note: vs: set GH_TOKEN in the environment \(it was the input "gh-token": GitHub token\)/)
    assert.match(r.stdout, /note: cur: "envFile" is not carried over/)
    assert.match(r.stdout, /note: gem: "trust" is not carried over/)
    assert.doesNotMatch(r.stdout, /note: cx: startup timeout/, 'startup_timeout_sec imports (the field table)')
    assert.match(r.stdout, /invalid +old .*unknown transport "ws"/)

    const text = env.read('.dsh/mcp.yml')
    assert.ok(text.startsWith('# mine\nservers:\n  cur:\n    command: different\n'))
    const s = servers(text)
    assert.deepEqual(Object.keys(s), ['cur', 'same', 'cl', 'vs', 'gem', 'genv'])
    assert.deepEqual(s.same, { command: 'node', args: ['other.js'] })
    assert.deepEqual(s.cl, { url: 'https://cl.test/mcp' })
    assert.deepEqual(s.vs, { command: 'npx', args: ['-y', 'gh'], env: { GITHUB_TOKEN: '${GH_TOKEN}' } })
    assert.deepEqual(s.gem, {
      headers: { A: 'b' },
      url: 'https://gem.test/mcp',
      tools: { include: ['read_*'], exclude: ['rm'] },
      toolCallTimeoutMs: 30000,
    })
    assert.deepEqual(s.genv, { command: 'node', env: { T: '${GEM_TOKEN}' } })
    const user = servers(readFileSync(`${env.dshHome}/mcp.yml`, 'utf8'))
    assert.deepEqual(Object.keys(user), ['cx', 'web'])
    assert.deepEqual(user.cx, {
      command: 'npx',
      args: ['-y', 'codex-srv'],
      env: { A: '1' },
      tools: { include: ['a'], exclude: ['b'] },
      toolCallTimeoutMs: 45000,
      startupTimeoutMs: 20000,
    })
    assert.deepEqual(user.web, { url: 'https://codex.test/mcp', headers: { Authorization: 'Bearer ${CODEX_TOKEN}' } })

    r = await env.run(['import', '--yes'])
    assert.match(r.stderr, /^Imported 0 servers/)
    assert.match(r.stdout, /skip +gem .*identical entry already in \.dsh\/mcp\.yml/)
    assert.equal(env.read('.dsh/mcp.yml'), text)
  })

  test('--from cursor translates ${workspaceFolder} and ${env:X}; --from <file> sniffs the format', async () => {
    const env = makeEnv({ '.cursor/mcp.json': CURSOR, 'elsewhere/codex.toml': CODEX })
    let r = await env.run(['import', '--from', 'cursor', '-s', 'local'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(servers(env.read('.dsh/mcp.local.yml')).cur, {
      command: 'node',
      args: ['./tools/cur.js'],
      env: { KEY: '${CUR_KEY}' },
    })
    assert.equal(env.read('.dsh/.gitignore'), 'mcp.local.yml\n')
    r = await env.run(['import', '--from', 'elsewhere/codex.toml'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(Object.keys(servers(env.read('.dsh/mcp.yml'))), ['cx', 'web'])
  })

  test('missing and unknown sources: exit 1 / exit 2, nothing written', async () => {
    const env = makeEnv()
    const snap = env.snapshot()
    let r = await env.run(['import'])
    assert.equal(r.code, 1)
    assert.match(
      r.stderr,
      /^dsh-mcp: nothing to import: none of \.mcp\.json, ~\/\.claude\.json, .*claude_desktop_config\.json, \.cursor\/mcp\.json/,
    )
    r = await env.run(['import', '--from', 'gemini'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'dsh-mcp: --from gemini: none of .gemini/settings.json, ~/.gemini/settings.json exists\n')
    r = await env.run(['import', '--from', 'zed'])
    assert.equal(r.code, 2)
    r = await env.run(['import', '--from', './nope.json'])
    assert.equal(r.code, 1)
    assert.deepEqual(changed(snap, env.snapshot()), [])
  })

  test('a target that does not parse is not written, even with valid sources', async () => {
    const env = makeEnv({ '.mcp.json': CLAUDE, '.dsh/mcp.yml': 'servers:\n  x: [\n' })
    const snap = env.snapshot()
    const r = await env.run(['import', '--from', 'claude'])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /^dsh-mcp: \.dsh\/mcp\.yml:\d+:\d+: error: /)
    assert.deepEqual(changed(snap, env.snapshot()), [])
  })
})

describe('export', () => {
  const PROJECT = {
    '.dsh/mcp.yml': [
      'servers:',
      '  gh:',
      '    command: npx',
      '    args: [-y, gh]',
      '    env: {GITHUB_TOKEN: "${GITHUB_TOKEN}", LIT: "a$$b"}',
      '    cwd: tools',
      '    toolCallTimeoutMs: 1000',
      '  docs:',
      '    url: https://docs.test/mcp',
      '    headers: {Authorization: "Bearer ${DOCS:-anon}"}',
      '  off: {command: node, enabled: false}',
      '',
    ].join('\n'),
    '.dsh/mcp.local.yml': 'servers:\n  gh:\n    env: {EXTRA: "${EXTRA}"}\n',
  }

  test('claude: the effective active project servers, ${VAR} intact, dropped fields and the disabled server noted', async () => {
    const env = makeEnv(PROJECT)
    await env.run(['add', '-s', 'user', 'global', 'node'])
    const r = await env.run(['export', '--include-local'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(JSON.parse(r.stdout), {
      mcpServers: {
        // On stdout (a display) a written value is masked; a value that only names variables is not.
        gh: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'gh'],
          env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', LIT: '***', EXTRA: '${EXTRA}' },
        },
        docs: { type: 'http', url: 'https://docs.test/mcp', headers: { Authorization: '***' } },
      },
    })
    assert.equal(
      r.stderr,
      'note: gh: claude has no place for "cwd", "toolCallTimeoutMs" (not exported)\nnote: left out off: disabled (enabled: false); enable it to export\nnote: secret values written in the config are shown as *** on stdout; use -o <file> to export them\n',
    )
  })

  test('vscode and cursor spell variables ${env:X}; -o writes atomically; the project files are refused', async () => {
    const env = makeEnv(PROJECT)
    let r = await env.run(['export', '--include-local', '--format', 'vscode'])
    const vs = JSON.parse(r.stdout)
    assert.deepEqual(vs.servers.gh, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'gh'],
      env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}', LIT: '***', EXTRA: '${env:EXTRA}' },
      cwd: '${workspaceFolder}/tools',
    })
    assert.deepEqual(vs.servers.docs, { type: 'http', url: 'https://docs.test/mcp', headers: { Authorization: '***' } })
    assert.match(r.stderr, /has no \$\{VAR:-default\} form; kept as written for DOCS/)
    r = await env.run(['export', '--include-local', '--format', 'cursor', '-o', 'out/cursor.json'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /Exported 2 servers to out\/cursor\.json\n$/)
    const cur = JSON.parse(readFileSync(env.project.join('out/cursor.json'), 'utf8'))
    assert.deepEqual(cur.mcpServers.docs, {
      url: 'https://docs.test/mcp',
      headers: { Authorization: 'Bearer ${DOCS:-anon}' },
    })
    const snap = env.snapshot()
    for (const target of ['.dsh/mcp.yml', '.dsh/mcp.local.yml']) {
      r = await env.run(['export', '--include-local', '-o', target])
      assert.equal(r.code, 1, target)
      assert.match(r.stderr, /never writes it/)
    }
    assert.deepEqual(changed(snap, env.snapshot()), [])
  })
})
