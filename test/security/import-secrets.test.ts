// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * Importers never leak what they read: a file that does not parse is
 * reported by position only (the parser's own message would quote the
 * token), a malformed `--from x.json` is an error (exit 1), never YAML with
 * "0 servers"; and a literal secret read from another client's config never
 * lands in the committed `.dsh/mcp.yml` nor the local file — it becomes
 * `${secret:NAME}`, the value goes to the user's secret store (the 0600 file
 * backend here), and the output never shows it.
 * Each class is tried in several shapes, as a careless user's files would be.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { parse } from 'yaml'

import { makeEnv } from '../support/cli-env.ts'
import { cleanupAll } from '../support/tmp.ts'
after(cleanupAll)

const CANARY = 'ghp_CANARY7f3a9c2e51d04b8'

describe('a source that does not parse is reported by position, never by its text', () => {
  const broken: [string, string, RegExp][] = [
    ['claude.json', `{"mcpServers": {"a": {"command": ${CANARY}}}}`, /not valid JSON at line 1, column \d+/],
    [
      '.cursor/mcp.json',
      `{\n  "mcpServers": {\n    "a": {"env": {"T": "${CANARY}"}}\n  }\n  "x": 1\n}`,
      /not valid JSON at line 5, column 3/,
    ],
    [
      '.vscode/mcp.json',
      `{\n  // comment\n  "servers": {"a": {"command": '${CANARY}'}}\n}`,
      /not valid JSON at line 3, column 32/,
    ],
    ['codex.toml', `[mcp_servers.a]\ncommand = ${CANARY}\n`, /not valid TOML at line 2, column \d+/],
    ['servers.yml', `servers:\n  a: [${CANARY}\n`, /not valid YAML at line \d+, column \d+/],
  ]
  for (const [file, text, where] of broken) {
    test(`${file}: exit 1, a position, no token`, async () => {
      const env = makeEnv({ [file]: text })
      const r = await env.run(['import', '--from', file])
      assert.equal(r.code, 1, r.stderr)
      assert.match(r.stderr, where)
      assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY), `the token leaked:\n${r.stdout}${r.stderr}`)
      assert.ok(!`${r.stdout}${r.stderr}`.includes('CANARY'), 'no fragment of the token either')
      assert.equal(existsSync(env.project.join('.dsh', 'mcp.yml')), false, 'nothing written')
    })
  }
  test('a malformed x.json is broken JSON (exit 1), not YAML with 0 servers', async () => {
    for (const text of ['{"mcpServers": {"a": {"command": "node",}}}', 'mcpServers:\n  a: {command: node}\n', '{']) {
      const env = makeEnv({ 'x.json': text })
      const r = await env.run(['import', '--from', 'x.json'])
      assert.equal(r.code, 1, `${text}\n${r.stderr}`)
      assert.match(r.stderr, /x\.json: not valid JSON at line \d+, column \d+/)
      assert.doesNotMatch(r.stderr, /Imported 0/)
    }
  })
  test('a file with no server list at all is an error, not "imports 0 servers"', async () => {
    const env = makeEnv({ 'notes.yml': 'hello: world\n' })
    const r = await env.run(['import', '--from', 'notes.yml'])
    assert.equal(r.code, 1, r.stderr)
    assert.match(r.stderr, /no server list found/)
  })
})

describe('a literal secret from another client never reaches the committed file', () => {
  const sources: [string, string, string[]][] = [
    [
      'claude-desktop style env',
      JSON.stringify({
        mcpServers: {
          gh: { command: 'npx', args: ['-y', 'gh'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: CANARY, DEBUG: '1' } },
        },
      }),
      ['gh'],
    ],
    [
      'cursor file env',
      JSON.stringify({ mcpServers: { cur: { command: 'node', args: ['s.js'], env: { API_KEY: CANARY } } } }),
      ['cur'],
    ],
    [
      'a header with a Bearer token',
      JSON.stringify({
        mcpServers: {
          docs: { type: 'http', url: 'https://docs.test/mcp', headers: { Authorization: `Bearer ${CANARY}` } },
        },
      }),
      ['docs'],
    ],
    [
      'an X-Api-Key header',
      JSON.stringify({
        mcpServers: { api: { type: 'http', url: 'https://api.test/mcp', headers: { 'X-Api-Key': CANARY } } },
      }),
      ['api'],
    ],
    [
      'a --api-key argument',
      JSON.stringify({
        mcpServers: { flag: { command: 'npx', args: ['-y', 'srv', '--api-key', CANARY, '--port', '3000'] } },
      }),
      ['flag'],
    ],
    [
      'a --token= argument',
      JSON.stringify({ mcpServers: { tok: { command: 'npx', args: ['-y', 'srv', `--token=${CANARY}`] } } }),
      ['tok'],
    ],
  ]
  for (const [label, text, names] of sources) {
    test(label, async () => {
      const file = label.startsWith('cursor') ? '.cursor/mcp.json' : 'desktop.json'
      const env = makeEnv({ [file]: text })
      const r = await env.run(['import', '--from', file])
      assert.equal(r.code, 0, r.stderr)
      const out = `${r.stdout}${r.stderr}`
      assert.ok(!out.includes(CANARY), `the value was printed:\n${out}`)
      assert.match(out, /warning: .*literal values/)
      const committed = env.read('.dsh/mcp.yml')
      assert.ok(!committed.includes(CANARY), `the value was committed:\n${committed}`)
      const servers = parse(committed).servers as Record<
        string,
        { env?: Record<string, string>; headers?: Record<string, string>; args?: string[] }
      >
      for (const n of names) assert.ok(servers[n], `${n} imported`)
      const values = Object.values(servers).flatMap((s) => [
        ...Object.values(s.env ?? {}),
        ...Object.values(s.headers ?? {}),
        ...((s as { args?: string[] }).args ?? []),
      ])
      assert.ok(
        values.some((v) => /\$\{secret:[A-Z0-9_]+\}/.test(v)),
        `a \${secret:NAME} reference replaced it: ${values.join(', ')}`,
      )
      assert.match(out, /went to your secret store/)
      assert.equal(existsSync(env.project.join('.dsh', 'mcp.local.yml')), false, 'no local file')
      const secrets = JSON.parse((await env.run(['secret', 'list', '--json'])).stdout).secrets
      assert.equal(secrets.length, 1)
      assert.deepEqual(secrets[0].usedBy, names)
      const stored = readFileSync(join(env.dshHome, 'mcp-secrets', 'values.json'), 'utf8')
      assert.ok(stored.includes(CANARY), 'the value is in the 0600 store')
      const list = await env.run(['list', '--json'])
      assert.ok(!list.stdout.includes(CANARY))
    })
  }
  test('secret flags in args become ${secret:SERVER_FLAG}; other arguments stay as written', async () => {
    const text = JSON.stringify({
      mcpServers: {
        s: {
          command: 'npx',
          args: ['-y', 'srv', '--api-key', CANARY, '--port', '3000', `--auth-token=${CANARY}`, '--verbose'],
        },
      },
    })
    const env = makeEnv({ 'desktop.json': text })
    const r = await env.run(['import', '--from', 'desktop.json'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(parse(env.read('.dsh/mcp.yml')).servers.s.args, [
      '-y',
      'srv',
      '--api-key',
      '${secret:S_API_KEY}',
      '--port',
      '3000',
      '--auth-token=${secret:S_AUTH_TOKEN}',
      '--verbose',
    ])
    assert.match(r.stdout, /the entry reads \$\{secret:S_API_KEY\}, \$\{secret:S_AUTH_TOKEN\}/)
    assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY))
  })

  test('a short literal (DEBUG: "1") stays as written; -s local keeps values where they are (not committed)', async () => {
    const text = JSON.stringify({ mcpServers: { gh: { command: 'npx', env: { GITHUB_TOKEN: CANARY, DEBUG: '1' } } } })
    let env = makeEnv({ 'desktop.json': text })
    assert.equal((await env.run(['import', '--from', 'desktop.json'])).code, 0)
    assert.equal(parse(env.read('.dsh/mcp.yml')).servers.gh.env.DEBUG, '1')
    env = makeEnv({ 'desktop.json': text })
    const r = await env.run(['import', '--from', 'desktop.json', '-s', 'local'])
    assert.equal(r.code, 0, r.stderr)
    assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY))
    assert.equal(parse(env.read('.dsh/mcp.local.yml')).servers.gh.env.GITHUB_TOKEN, CANARY)
    assert.equal(existsSync(env.project.join('.dsh', 'mcp.yml')), false)
  })
})
