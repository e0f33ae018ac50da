// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `export` shares what the team shares: servers and overrides of the local
 * layer (`.dsh/mcp.local.yml`, personal and gitignored — often secrets) are
 * left out, with a note, unless `--include-local`. A local-only server, a
 * local env override of a committed server (its literal value) and a local
 * server that shadows a committed one are each tried, in every format.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { cleanupAll } from '../support/tmp.ts'

import { makeEnv } from '../support/cli-env.ts'
after(cleanupAll)

const SECRET = 'sk-local-SECRET-1234'
const files = {
  '.dsh/mcp.yml':
    'servers:\n  team:\n    command: node\n    args: [team.js]\n    env:\n      TEAM_TOKEN: ${TEAM_TOKEN}\n  both:\n    command: node\n    args: [committed.js]\n',
  '.dsh/mcp.local.yml': `servers:\n  mine:\n    command: node\n    args: [mine.js]\n  team:\n    env:\n      TEAM_TOKEN: ${SECRET}\n  both:\n    command: node\n    args: [personal.js]\n`,
}

for (const format of ['claude', 'cursor', 'vscode']) {
  test(`${format}: local servers and overrides are left out by default`, async () => {
    const env = makeEnv(files)
    const r = await env.run(['export', '--format', format])
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    const servers = doc.mcpServers ?? doc.servers
    assert.deepEqual(Object.keys(servers).sort(), ['both', 'team'])
    assert.ok(!r.stdout.includes(SECRET), 'the local override value is not exported')
    assert.deepEqual(servers.both.args, ['committed.js'], 'the committed row, not the local one that shadows it')
    assert.match(r.stderr, /left out 3 servers and overrides of \.dsh\/mcp\.local\.yml .*--include-local/)
  })
}

test('--include-local exports what the host runs here', async () => {
  const env = makeEnv(files)
  const r = await env.run(['export', '--include-local'])
  assert.equal(r.code, 0, r.stderr)
  const servers = JSON.parse(r.stdout).mcpServers
  assert.deepEqual(Object.keys(servers).sort(), ['both', 'mine', 'team'])
  assert.deepEqual(servers.both.args, ['personal.js'])
  assert.equal(servers.team.env.TEAM_TOKEN, '***', 'stdout masks a written secret')
  assert.doesNotMatch(r.stderr, /left out/)
  const o = await env.run(['export', '--include-local', '-o', 'out.json'])
  assert.equal(o.code, 0, o.stderr)
  assert.equal(
    JSON.parse(env.read('out.json')).mcpServers.team.env.TEAM_TOKEN,
    '${TEAM_TOKEN}',
    '-o into the repository writes the secret as a reference (test/cli/export-files.test.ts)',
  )
  assert.ok(!env.read('out.json').includes(SECRET))
})
