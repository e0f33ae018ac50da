// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${secret:NAME} templates
/**
 * `dsh-mcp secret set/list/rm` in process (the file backend, required through
 * `DSH_MCP_SECRET_BACKEND=file` so no test touches a real keychain), the
 * skipped reason that names the secret and its command in `list`, `trust`
 * naming the secrets the servers it trusted still need, and the declared
 * `secrets:` map (a value written there is refused without being shown).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { runCli } from '../support/cli.ts'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

const MCP = [
  'secrets:',
  '  API_TOKEN:',
  '    description: the API token from the dashboard',
  'servers:',
  '  api:',
  '    url: https://mcp.example.test/mcp',
  '    headers:',
  '      Authorization: Bearer ${secret:API_TOKEN}',
  '',
].join('\n')

function world() {
  const project = makeProject({ '.dsh/mcp.yml': MCP })
  const dshHome = makeTempDir('dsh-mcp-secret-cli-').join('.dsh')
  const opts = { cwd: project.path, dshHome, env: { DSH_MCP_SECRET_BACKEND: 'file' } }
  return { project, dshHome, opts }
}

describe('dsh-mcp secret', () => {
  it('a trusted row needing an unset secret is skipped, naming it and the command; set makes it runnable', async () => {
    const { opts } = world()
    const trusted = await runCli(['trust', '--yes', 'api'], opts)
    assert.equal(trusted.code, 0, trusted.stderr)
    assert.match(
      trusted.stderr,
      /api needs secret API_TOKEN \(the API token from the dashboard\), which is not set: dsh-mcp secret set API_TOKEN/,
    )
    const before = JSON.parse((await runCli(['list', '--json'], opts)).stdout)
    const row =
      before.servers?.find?.((s: { name: string }) => s.name === 'api') ??
      before.find((s: { name: string }) => s.name === 'api')
    assert.match(JSON.stringify(row), /secret:API_TOKEN/)
    assert.match(JSON.stringify(row), /dsh-mcp secret set API_TOKEN/)
    const value = `cnry-${randomBytes(10).toString('hex')}`
    const set = await runCli(['secret', 'set', 'API_TOKEN'], { ...opts, stdin: `${value}\n` })
    assert.equal(set.code, 0, set.stderr)
    assert.match(set.stderr, /stored in the file/)
    const after = await runCli(['list', '--json'], opts)
    assert.ok(!after.stdout.includes('dsh-mcp secret set'), after.stdout)
    const list = await runCli(['secret', 'list'], opts)
    assert.match(list.stdout, /API_TOKEN\s+project\s+the file .*\s+api/)
    for (const r of [trusted, set, after, list]) assert.ok(!(r.stdout + r.stderr).includes(value))
  })

  it('refuses an empty value, a bad name, and a value given as an argument', async () => {
    const { opts } = world()
    assert.equal((await runCli(['secret', 'set', 'API_TOKEN'], { ...opts, stdin: '\n' })).code, 1)
    assert.equal((await runCli(['secret', 'set', 'not-a-name'], { ...opts, stdin: 'x' })).code, 2)
    const argv = await runCli(['secret', 'set', 'API_TOKEN', 'sk-in-argv'], opts)
    assert.equal(argv.code, 2)
    assert.ok(!argv.stderr.includes('sk-in-argv'))
    const rm = await runCli(['secret', 'rm', 'API_TOKEN'], opts)
    assert.equal(rm.code, 1)
    assert.match(rm.stderr, /no secret API_TOKEN is set/)
  })

  it('a value written in the secrets: map is an error at its line, the value never shown', async () => {
    const project = makeProject({
      '.dsh/mcp.yml': 'secrets:\n  API_TOKEN:\n    value: sk-pasted-here\nservers: {}\n',
    })
    const dshHome = makeTempDir('dsh-mcp-secret-cli-').join('.dsh')
    const r = await runCli(['validate'], { cwd: project.path, dshHome })
    assert.equal(r.code, 1)
    assert.match(r.stdout + r.stderr, /mcp\.yml:3:5.*secrets\.API_TOKEN\.value|secrets\.API_TOKEN\.value.*3:5/s)
    assert.ok(!(r.stdout + r.stderr).includes('sk-pasted-here'))
  })
})

describe('dsh-mcp export', () => {
  it('writes ${secret:NAME} as the variable another client reads, and says which to set', async () => {
    const { opts } = world()
    const claude = await runCli(['export', '-o', 'claude.json'], opts)
    assert.equal(claude.code, 0, claude.stderr)
    const read = (f: string) => JSON.parse(readFileSync(join(opts.cwd, f), 'utf8'))
    assert.equal(read('claude.json').mcpServers.api.headers.Authorization, 'Bearer ${API_TOKEN}')
    assert.match(claude.stderr, /set API_TOKEN in the environment/)
    assert.equal((await runCli(['export', '--format', 'vscode', '-o', 'vscode.json'], opts)).code, 0)
    assert.equal(read('vscode.json').servers.api.headers.Authorization, 'Bearer ${env:API_TOKEN}')
  })
})
