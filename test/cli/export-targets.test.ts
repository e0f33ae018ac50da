// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * export-targets.ts without the peers (test/interop/ runs the real CLIs): Codex's shape for what it cannot
 * expand, Gemini's transports and tool lists, and the merge into a file that holds other settings.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parse } from 'smol-toml'
import { documentText, shapeFor } from '../../src/cli/export-targets.ts'

const servers = {
  st: {
    type: 'stdio',
    command: 'node',
    args: ['s.js', '${X}'],
    env: { TZ: 'UTC', GITHUB_TOKEN: '${GITHUB_TOKEN}', OTHER: '${Y}' },
    tools: { include: ['a', 'b*'] },
  },
  web: {
    type: 'http',
    url: 'http://h/mcp',
    http_headers: { 'X-Team': 'core', Authorization: 'Bearer ${TOK}', 'X-Key': '${KEY}' },
  },
  ev: { type: 'sse', url: 'http://h/sse' },
}

test('codex: forwarded names for ${SAME}, env_http_headers, bearer_token_env_var; no SSE; every loss named', () => {
  const notes: string[] = []
  const out = shapeFor('codex', servers, notes)
  assert.deepEqual(out, {
    st: {
      command: 'node',
      args: ['s.js', '${X}'],
      env: { TZ: 'UTC' },
      env_vars: ['GITHUB_TOKEN'],
      enabled_tools: ['a', 'b*'],
    },
    web: {
      url: 'http://h/mcp',
      bearer_token_env_var: 'TOK',
      http_headers: { 'X-Team': 'core' },
      env_http_headers: { 'X-Key': 'KEY' },
    },
  })
  assert.deepEqual(notes, [
    "st: Codex does not expand ${VAR}; env.OTHER (not a plain ${NAME}) left out: set it in Codex's own config",
    'st: Codex does not expand ${VAR}; args[1] written as literal text: check it',
    'st: enabled_tools/disabled_tools take exact tool names; "b*" is a glob',
    'ev: Codex has no SSE transport (not exported)',
  ])
})

test('gemini: httpUrl for streamable HTTP, url + type sse for SSE, includeTools', () => {
  const notes: string[] = []
  const out = shapeFor(
    'gemini',
    { web: { type: 'http', httpUrl: 'http://h/mcp' }, ev: { type: 'sse', httpUrl: 'http://h/sse' } },
    notes,
  )
  assert.deepEqual(out, { web: { httpUrl: 'http://h/mcp' }, ev: { url: 'http://h/sse', type: 'sse' } })
})

test('a merge keeps the file’s other settings and servers; a file that does not parse is refused', () => {
  const r = documentText(
    'codex',
    { a: { command: 'x' } },
    'model = "o3"\n[mcp_servers.mine]\ncommand = "keep"\n[mcp_servers.a]\ncommand = "old"\n',
  )
  assert.ok('text' in r)
  assert.deepEqual(JSON.parse(JSON.stringify(parse(r.text))), {
    model: 'o3',
    mcp_servers: { mine: { command: 'keep' }, a: { command: 'x' } },
  })
  assert.equal(r.kept, 1)
  const g = documentText(
    'gemini',
    { a: { command: 'x' } },
    '{ // theme\n "theme": "dark", "mcpServers": {"b": {"command": "y"}}, }',
  )
  assert.ok('text' in g)
  assert.deepEqual(JSON.parse(g.text), { theme: 'dark', mcpServers: { b: { command: 'y' }, a: { command: 'x' } } })
  assert.deepEqual(documentText('codex', {}, 'model = '), { error: 'it is not valid TOML' })
  const claude = documentText('claude', { a: { command: 'x' } }, '{"mcpServers": {"b": {}}}')
  assert.ok('text' in claude)
  assert.deepEqual(JSON.parse(claude.text), { mcpServers: { a: { command: 'x' } } }, '.mcp.json is written whole')
})
