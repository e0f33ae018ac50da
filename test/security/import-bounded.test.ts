/**
 * `dsh-mcp import` reads other clients' files inside a repository the same
 * way the loader reads config files: a FIFO at `.cursor/mcp.json` (which
 * would block a plain read forever), a link to `/dev/zero` at
 * `.vscode/mcp.json` (which would grow without bound) and a file over the
 * config size cap at `.gemini/settings.json` are each refused with one
 * line, while the readable source beside them is imported. Through the real
 * CLI, with the FIFO left without a writer for the whole run.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { MAX_CONFIG_BYTES } from '../../src/config/parse.ts'
import { makeEnv } from '../support/cli-env.ts'
import { cleanupAll } from '../support/tmp.ts'

after(() => cleanupAll())

test('import refuses a FIFO, /dev/zero and an oversized source, and imports the readable one', {
  timeout: 120_000,
}, async () => {
  const env = makeEnv({ '.mcp.json': JSON.stringify({ mcpServers: { fine: { command: 'node', args: ['fine.js'] } } }) })
  mkdirSync(env.project.join('.cursor'))
  execFileSync('mkfifo', [env.project.join('.cursor', 'mcp.json')])
  mkdirSync(env.project.join('.vscode'))
  symlinkSync('/dev/zero', env.project.join('.vscode', 'mcp.json'))
  mkdirSync(env.project.join('.gemini'))
  writeFileSync(
    env.project.join('.gemini', 'settings.json'),
    `{"mcpServers":{},"pad":"${'x'.repeat(MAX_CONFIG_BYTES)}"}`,
  )
  const r = await env.run(['import', '--dry-run'])
  const out = r.stdout + r.stderr
  assert.match(out, /\.cursor\/mcp\.json.*is not a regular file/, out)
  assert.match(out, /\.vscode\/mcp\.json.*is not a regular file/, out)
  assert.match(out, /\.gemini\/settings\.json.*(limited|larger)/, out)
  assert.match(out, /fine/, 'the readable source is still imported')
  assert.ok(!out.includes('xxxxxxxx'), 'nothing of a refused file is quoted')
})
