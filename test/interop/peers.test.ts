// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * Peers read what we export, we read what they write (issue 29 item 4), with the real CLIs at their pinned
 * versions (test/support/peers.ts: Claude Code 2.1.332, Codex 0.171.0, Gemini CLI 0.61.0), each in a private
 * HOME. One project (`.dsh/mcp.yml`: a stdio server with a plain and a `${VAR}` env value and a secret flag, an
 * HTTP server with a plain header and a `Bearer ${TOK}` one, an SSE server, a disabled one) is exported with
 * `dsh-mcp export --target <client> --write`; the client's own `mcp get` / `mcp list` must read it field by
 * field at its project scope. Then each client's own `mcp add` writes servers at each of its scopes (Claude
 * Code: project, local, user; Codex: user, and its project `.codex/config.toml` as Codex reads it; Gemini CLI:
 * project, user) and `dsh-mcp import` must read every one into the matching layer, field by field. Skipped,
 * visibly, only when the CLIs cannot be installed here.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { type CliRun, runCli } from '../support/cli.ts'
import { ensurePeers, type PeerBins, peerEnv } from '../support/peers.ts'
import { cleanupAll, makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'

const exec = promisify(execFile)
after(() => cleanupAll())

let bins: PeerBins | undefined
let skip: string | undefined
before(async () => {
  const got = await ensurePeers()
  if ('skip' in got) skip = got.skip
  else bins = got
})

/** A world: a project that is a real git repository, and a private HOME for the peer and for dsh-mcp. */
async function world(files: Record<string, string> = {}): Promise<{ project: TempDir; home: TempDir }> {
  const project = makeProject(files, 'dsh-mcp-interop-')
  await exec('git', ['init', '-q'], { cwd: project.path })
  return { project, home: makeTempDir('dsh-mcp-interop-home-') }
}

async function peer(name: keyof PeerBins, args: string[], w: { project: TempDir; home: TempDir }): Promise<string> {
  const r = await exec(bins![name], args, {
    cwd: w.project.path,
    env: peerEnv(w.home.path),
    timeout: 120_000,
    maxBuffer: 8 * 1024 * 1024,
  })
  // Gemini CLI writes its list to stderr; the others to stdout.
  return name === 'gemini' ? `${r.stdout}${r.stderr}` : r.stdout
}

function dsh(args: string[], w: { project: TempDir; home: TempDir }): Promise<CliRun> {
  return runCli(args, {
    cwd: w.project.path,
    dshHome: w.home.join('.dsh'),
    home: w.home.path,
    env: { DSH_MCP_SECRET_BACKEND: 'file' },
  })
}

const PROJECT = `servers:
  st:
    command: node
    args: [s.js, --port, "3000", --api-key, sk-live-0123456789abcdef]
    env: { TZ: UTC, GITHUB_TOKEN: "\${GITHUB_TOKEN}" }
    toolCallTimeoutMs: 30000
  web:
    url: http://127.0.0.1:1/mcp
    headers: { X-Team: core, Authorization: "Bearer \${TOK}" }
  ev:
    type: sse
    url: http://127.0.0.1:1/sse
  off:
    command: node
    enabled: false
`

/** Claude Code's `mcp get` block: `Key: value` lines, and the indented lines under `Headers:` / `Environment:`. */
function claudeGet(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  let list: string[] | undefined
  for (const line of text.split('\n')) {
    const item = /^ {4}(\S.*)$/.exec(line)
    if (item && list) {
      list.push(item[1]!)
      continue
    }
    const kv = /^ {2}([A-Za-z ]+):(?: (.*))?$/.exec(line)
    if (!kv) continue
    if (kv[2] === undefined || kv[2] === '') out[kv[1]!] = list = []
    else {
      out[kv[1]!] = kv[2]
      list = undefined
    }
  }
  return out
}

const layer = (file: string) => parse(readFileSync(file, 'utf8')).servers as Record<string, Record<string, unknown>>

test('Claude Code reads our export, and we read what its mcp add wrote at project, local and user scope', async (t) => {
  if (skip) return t.skip(skip)
  const w = await world({ '.dsh/mcp.yml': PROJECT })
  const ex = await dsh(['export', '--target', 'claude', '--write'], w)
  assert.equal(ex.code, 0, ex.stderr)
  assert.match(ex.stderr, /left out off: disabled/)
  assert.match(ex.stderr, /set ST_API_KEY where the client runs/)
  const st = claudeGet(await peer('claude', ['mcp', 'get', 'st'], w))
  assert.match(String(st.Scope), /^Project config/)
  assert.deepEqual([st.Type, st.Command, st.Args], ['stdio', 'node', 's.js --port 3000 --api-key ${ST_API_KEY}'])
  assert.deepEqual(st.Environment, ['TZ=UTC', 'GITHUB_TOKEN=${GITHUB_TOKEN}'])
  const web = claudeGet(await peer('claude', ['mcp', 'get', 'web'], w))
  assert.deepEqual([web.Type, web.URL], ['http', 'http://127.0.0.1:1/mcp'])
  assert.deepEqual(web.Headers, ['X-Team: core', 'Authorization: Bearer ${TOK}'])
  const ev = claudeGet(await peer('claude', ['mcp', 'get', 'ev'], w))
  assert.deepEqual([ev.Type, ev.URL], ['sse', 'http://127.0.0.1:1/sse'])

  // The other way: Claude Code's own mcp add, at each scope, into a fresh project.
  const v = await world()
  await peer(
    'claude',
    [
      'mcp',
      'add',
      '-s',
      'project',
      '--transport',
      'http',
      'cweb',
      'http://127.0.0.1:1/mcp',
      '-H',
      'X-Team: core',
      '-H',
      'Authorization: Bearer ${TOK}',
    ],
    v,
  )
  await peer(
    'claude',
    [
      'mcp',
      'add',
      '-s',
      'local',
      'cst',
      '-e',
      'TZ=UTC',
      '-e',
      'GITHUB_TOKEN=${GITHUB_TOKEN}',
      '--',
      'node',
      's.js',
      '--port',
      '3000',
    ],
    v,
  )
  await peer('claude', ['mcp', 'add', '-s', 'user', 'cus', '--', 'npx', '-y', 'pkg@1.2.3'], v)
  await peer('claude', ['mcp', 'add', '-s', 'user', '--transport', 'sse', 'csse', 'http://127.0.0.1:1/sse'], v)
  // The same file given as a path reads its local servers too (as --from claude does).
  const dry = await dsh(['import', '--from', v.home.join('.claude.json'), '--dry-run'], v)
  assert.equal(dry.code, 0, dry.stderr)
  assert.match(dry.stdout, /add\s+cst\s.*\(this project\)/)
  assert.match(dry.stdout, /add\s+cus\s/)
  const im = await dsh(['import', '--from', 'claude'], v)
  assert.equal(im.code, 0, im.stderr)
  assert.match(im.stderr, /not trusted .*: cweb/)
  assert.deepEqual(layer(v.project.join('.dsh', 'mcp.yml')), {
    cweb: { url: 'http://127.0.0.1:1/mcp', headers: { 'X-Team': 'core', Authorization: 'Bearer ${TOK}' } },
  })
  assert.deepEqual(layer(v.project.join('.dsh', 'mcp.local.yml')), {
    cst: { command: 'node', args: ['s.js', '--port', '3000'], env: { TZ: 'UTC', GITHUB_TOKEN: '${GITHUB_TOKEN}' } },
  })
  assert.deepEqual(layer(v.home.join('.dsh', 'mcp.yml')), {
    cus: { command: 'npx', args: ['-y', 'pkg@1.2.3'], env: {} },
    csse: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
  })
})

test('Codex reads our export from its project config, and we read what its mcp add and project file hold', async (t) => {
  if (skip) return t.skip(skip)
  const w = await world({ '.dsh/mcp.yml': PROJECT })
  // Codex reads a project's .codex/config.toml once the project is trusted (its own user config says so).
  mkdirSync(w.home.join('.codex'), { recursive: true })
  const trusted = `[projects.${JSON.stringify(w.project.path)}]\ntrust_level = "trusted"\n`
  writeFileSync(w.home.join('.codex', 'config.toml'), trusted)
  const ex = await dsh(['export', '--target', 'codex', '--write'], w)
  assert.equal(ex.code, 0, ex.stderr)
  assert.match(ex.stderr, /ev: Codex has no SSE transport/)
  const listed = JSON.parse(await peer('codex', ['mcp', 'list', '--json'], w)) as {
    name: string
    transport: Record<string, unknown>
    tool_timeout_sec: number | null
  }[]
  const by = new Map(listed.map((s) => [s.name, s]))
  assert.deepEqual([...by.keys()].sort(), ['st', 'web'])
  assert.deepEqual(by.get('st')!.transport, {
    type: 'stdio',
    command: 'node',
    args: ['s.js', '--port', '3000', '--api-key', '${ST_API_KEY}'],
    env: { TZ: 'UTC' },
    env_vars: ['GITHUB_TOKEN'],
    cwd: null,
  })
  assert.equal(by.get('st')!.tool_timeout_sec, 30)
  const web = by.get('web')!.transport
  assert.deepEqual(
    [web.type, web.url, web.http_headers, web.bearer_token_env_var],
    ['streamable_http', 'http://127.0.0.1:1/mcp', { 'X-Team': 'core' }, 'TOK'],
  )

  // The other way: Codex's own mcp add (its user config) and a project file Codex reads.
  const v = await world({
    '.codex/config.toml': '[mcp_servers.xpj]\ncommand = "node"\nargs = ["p.js"]\n[mcp_servers.xpj.env]\nTZ = "UTC"\n',
  })
  mkdirSync(v.home.join('.codex'), { recursive: true })
  writeFileSync(
    v.home.join('.codex', 'config.toml'),
    `[projects.${JSON.stringify(v.project.path)}]\ntrust_level = "trusted"\n`,
  )
  await peer('codex', ['mcp', 'add', 'xst', '--env', 'TZ=UTC', '--env', 'T=${TOKEN}', '--', 'node', 's.js'], v)
  await peer('codex', ['mcp', 'add', 'xweb', '--url', 'http://127.0.0.1:1/mcp', '--bearer-token-env-var', 'TOK'], v)
  const codexSees = (JSON.parse(await peer('codex', ['mcp', 'list', '--json'], v)) as { name: string }[]).map(
    (s) => s.name,
  )
  assert.deepEqual(codexSees.sort(), ['xpj', 'xst', 'xweb'], 'Codex itself reads all three')
  const im = await dsh(['import', '--from', 'codex'], v)
  assert.equal(im.code, 0, im.stderr)
  assert.match(im.stdout, /note: xst: Codex passes \$\{VAR\} literally/)
  assert.deepEqual(layer(v.project.join('.dsh', 'mcp.yml')), {
    xpj: { command: 'node', args: ['p.js'], env: { TZ: 'UTC' } },
  })
  assert.deepEqual(layer(v.home.join('.dsh', 'mcp.yml')), {
    xst: { command: 'node', args: ['s.js'], env: { TZ: 'UTC', T: '${TOKEN}' } },
    xweb: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${TOK}' } },
  })
})

test('Gemini CLI reads our export, and we read what its mcp add wrote at project and user scope', async (t) => {
  if (skip) return t.skip(skip)
  const w = await world({ '.dsh/mcp.yml': PROJECT })
  mkdirSync(w.home.join('.gemini'), { recursive: true })
  // Gemini CLI loads a project's servers only in a folder it trusts.
  writeFileSync(w.home.join('.gemini', 'trustedFolders.json'), JSON.stringify({ [w.project.path]: 'TRUST_FOLDER' }))
  const ex = await dsh(['export', '--target', 'gemini', '--write'], w)
  assert.equal(ex.code, 0, ex.stderr)
  const written = JSON.parse(readFileSync(w.project.join('.gemini', 'settings.json'), 'utf8')).mcpServers
  assert.deepEqual(written.web, {
    headers: { 'X-Team': 'core', Authorization: 'Bearer ${TOK}' },
    httpUrl: 'http://127.0.0.1:1/mcp',
  })
  const list = await peer('gemini', ['mcp', 'list'], w)
  const line = (name: string) => list.split('\n').find((l) => l.includes(` ${name}: `)) ?? ''
  assert.match(line('st'), / st: node s\.js --port 3000 --api-key \S* \(stdio\)/)
  assert.match(line('web'), / web: http:\/\/127\.0\.0\.1:1\/mcp \(http\)/)
  assert.match(line('ev'), / ev: http:\/\/127\.0\.0\.1:1\/sse \(sse\)/)
  assert.equal(line('off'), '', 'the disabled server is not exported')

  // The other way: Gemini CLI's own mcp add at its two scopes.
  const v = await world()
  mkdirSync(v.home.join('.gemini'), { recursive: true })
  writeFileSync(v.home.join('.gemini', 'trustedFolders.json'), JSON.stringify({ [v.project.path]: 'TRUST_FOLDER' }))
  await peer(
    'gemini',
    [
      'mcp',
      'add',
      '-s',
      'project',
      '--include-tools=a,b',
      '-e',
      'TZ=UTC',
      '-e',
      'T=${TOKEN}',
      'gst',
      'node',
      '--',
      's.js',
      '--port',
      '3000',
    ],
    v,
  )
  await peer('gemini', ['mcp', 'add', '-s', 'project', '-t', 'http', 'ghttp', 'http://127.0.0.1:1/mcp'], v)
  await peer(
    'gemini',
    ['mcp', 'add', '-s', 'user', '-t', 'sse', '-H', 'X-Team: core', 'gsse', 'http://127.0.0.1:1/sse'],
    v,
  )
  const im = await dsh(['import', '--from', 'gemini'], v)
  assert.equal(im.code, 0, im.stderr)
  assert.match(im.stdout, /note: gst: warning: includeTools holds "a,b": one tool name with a comma/)
  assert.doesNotMatch(
    im.stdout,
    /gsse: .*streamable-http/,
    'an sse entry is not said to be imported as streamable-http',
  )
  assert.deepEqual(layer(v.project.join('.dsh', 'mcp.yml')), {
    gst: {
      command: 'node',
      args: ['s.js', '--port', '3000'],
      env: { TZ: 'UTC', T: '${TOKEN}' },
      tools: { include: ['a,b'] },
    },
    ghttp: { url: 'http://127.0.0.1:1/mcp' },
  })
  assert.deepEqual(layer(v.home.join('.dsh', 'mcp.yml')), {
    gsse: { url: 'http://127.0.0.1:1/sse', type: 'sse', headers: { 'X-Team': 'core' } },
  })
})
