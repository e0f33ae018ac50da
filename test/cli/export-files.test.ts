// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `export` never writes `***` into a file. `-o .mcp.json` (inside the
 * repository): plain values as they are (`TZ: UTC`, `X-Team: core`), each
 * secret as a `${VAR}` reference (env by its own name, a header after its
 * auth scheme, a secret flag's value, URL query values), the variables to
 * set printed by name and no value anywhere in the output. Outside every
 * repository: the real values, mode 0600, never through a link. On stdout:
 * masked, with a note.
 */
import assert from 'node:assert/strict'
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
after(cleanupAll)

const TOKEN = 'ghp_SECRETvalue1234'
const BEARER = 'sk-SECRET-bearer-5678'
const FLAG = 'SECRET-flag-9012'
const QUERY = 'SECRET-query-3456'

const CONFIG = [
  'servers:',
  '  gh:',
  '    command: npx',
  `    args: [-y, gh-server, --api-key, ${FLAG}]`,
  '    env:',
  '      TZ: UTC',
  `      GITHUB_TOKEN: ${TOKEN}`,
  '      REF: ${REF}',
  '  docs:',
  `    url: https://docs.test/mcp?key=${QUERY}`,
  '    headers:',
  '      X-Team: core',
  `      Authorization: Bearer ${BEARER}`,
  '',
].join('\n')

const SECRETS = [TOKEN, BEARER, FLAG, QUERY]

function setup() {
  const p = makeProject({ '.dsh/mcp.yml': CONFIG })
  const home = makeTempDir('dsh-mcp-export-home-')
  return { p, o: { cwd: p.path, dshHome: home.join('.dsh'), home: home.path, env: { DSH_MCP_TRUST_ALL: '1' } } }
}

test('-o .mcp.json inside the repository: plain values as they are, secrets as ${VAR}, the variables named', async () => {
  const { p, o } = setup()
  const r = await runCli(['export', '-o', '.mcp.json'], o)
  assert.equal(r.code, 0, r.stderr)
  const text = readFileSync(p.join('.mcp.json'), 'utf8')
  assert.ok(!text.includes('***'), 'no *** in a file')
  for (const s of SECRETS) {
    assert.ok(!text.includes(s), `the secret ${s} is not in the file`)
    assert.ok(!`${r.stdout}${r.stderr}`.includes(s), 'nor in the output')
  }
  const { gh, docs } = JSON.parse(text).mcpServers
  assert.deepEqual(gh.env, { TZ: 'UTC', GITHUB_TOKEN: '${GITHUB_TOKEN}', REF: '${REF}' })
  assert.deepEqual(gh.args, ['-y', 'gh-server', '--api-key', '${GH_API_KEY}'])
  assert.deepEqual(docs.headers, { 'X-Team': 'core', Authorization: 'Bearer ${DOCS_AUTHORIZATION}' })
  assert.equal(docs.url, 'https://docs.test/mcp?key=${DOCS_KEY}')
  assert.match(r.stderr, /^Exported 2 servers to \.mcp\.json$/m)
  assert.match(
    r.stderr,
    /^note: \.mcp\.json is inside a repository, .*; set GITHUB_TOKEN, GH_API_KEY, DOCS_AUTHORIZATION, DOCS_KEY where the client runs$/m,
  )
  // Claude Code's own project file is a layer we read: the export there reads back as the same servers.
  const list = await runCli(['validate', '.mcp.json'], o)
  assert.equal(list.code, 0, list.stderr)
})

test('vscode -o .vscode/mcp.json spells the references ${env:VAR}', async () => {
  const { p, o } = setup()
  const r = await runCli(['export', '--format', 'vscode', '-o', '.vscode/mcp.json'], o)
  assert.equal(r.code, 0, r.stderr)
  const { gh } = JSON.parse(readFileSync(p.join('.vscode/mcp.json'), 'utf8')).servers
  assert.deepEqual(gh.env, { TZ: 'UTC', GITHUB_TOKEN: '${env:GITHUB_TOKEN}', REF: '${env:REF}' })
})

test('-o outside every repository: the real values, 0600, never through a link', async () => {
  const { o } = setup()
  const out = makeTempDir('dsh-mcp-export-out-')
  const r = await runCli(['export', '-o', out.join('claude.json')], o)
  assert.equal(r.code, 0, r.stderr)
  const text = readFileSync(out.join('claude.json'), 'utf8')
  for (const s of SECRETS) assert.ok(text.includes(s), `the real value ${s} is written`)
  assert.ok(!text.includes('***'))
  assert.equal(lstatSync(out.join('claude.json')).mode & 0o777, 0o600)
  assert.match(r.stderr, /outside every repository: the real values are written \(mode 0600\)/)
  for (const s of SECRETS) assert.ok(!`${r.stdout}${r.stderr}`.includes(s), 'no value in the output')
  // A link at the target is refused, its target untouched.
  writeFileSync(out.join('victim.json'), 'original\n')
  symlinkSync(out.join('victim.json'), out.join('link.json'))
  const l = await runCli(['export', '-o', out.join('link.json')], o)
  assert.equal(l.code, 1)
  assert.match(l.stderr, /symbolic link/)
  assert.equal(readFileSync(out.join('victim.json'), 'utf8'), 'original\n')
})

test('stdout masks secrets and says so', async () => {
  const { o } = setup()
  const r = await runCli(['export'], o)
  assert.equal(r.code, 0, r.stderr)
  for (const s of SECRETS) assert.ok(!r.stdout.includes(s))
  assert.match(r.stdout, /\*\*\*/)
  assert.match(r.stderr, /shown as \*\*\* on stdout/)
})
