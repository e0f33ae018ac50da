/**
 * The launch spec and the stderr-capture detection: the wrapped config runs
 * the launcher with the real command after it and the spec in its env; the
 * spec round-trips and refuses garbage; the log path is stable per origin
 * and name; `clientCapturesStderr` is false for the installed rc.8 client
 * (whose Config has no stderr option) and true for a client whose stdio
 * Config declares one (a later client), however the union is nested.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import z from '@deepseek-ai/schemastery'
import {
  clientCapturesStderr,
  LAUNCH_ENV,
  launchedConfig,
  readLaunchSpec,
  serverLogFile,
  type StdioConfig,
} from '../../src/launch/spec.ts'

const base: StdioConfig = {
  transport: 'stdio',
  serverName: 'x',
  command: 'npx',
  args: ['-y', 'pkg'],
  env: { A: 'b' },
  cwd: '/p',
}
const launcher = { node: '/usr/bin/node', script: '/lib/launch/launcher.js' }

test('launchedConfig runs the launcher with the real command and keeps everything else', () => {
  const spec = { log: '/h/mcp-logs/x-abc.log', secrets: ['s3cr3t'], forward: false }
  const out = launchedConfig(base, spec, launcher)
  assert.equal(out.command, '/usr/bin/node')
  assert.deepEqual(out.args, ['/lib/launch/launcher.js', 'npx', '-y', 'pkg'])
  assert.equal(out.cwd, '/p')
  assert.equal(out.env?.A, 'b')
  assert.deepEqual(readLaunchSpec(out.env ?? {}), spec)
  assert.deepEqual(base.args, ['-y', 'pkg'], 'the input is not changed')
  // The win32 shim's output is wrapped the same way: cmd /c stays the real command.
  const win = launchedConfig({ ...base, command: 'cmd', args: ['/c', 'npx', 'pkg'] }, spec, launcher)
  assert.deepEqual(win.args, ['/lib/launch/launcher.js', 'cmd', '/c', 'npx', 'pkg'])
  const bare = launchedConfig({ transport: 'stdio', serverName: 'y', command: 'srv' }, spec, launcher)
  assert.deepEqual(bare.args, ['/lib/launch/launcher.js', 'srv'])
  assert.deepEqual(Object.keys(bare.env ?? {}), [LAUNCH_ENV])
})

test('readLaunchSpec refuses what is not a spec, without quoting it', () => {
  for (const raw of [
    undefined,
    'not json {s3cr3t',
    '[]',
    '{"log":1,"secrets":[],"forward":false}',
    '{"log":"/l","secrets":[1],"forward":false}',
    '{"log":"/l","secrets":[]}',
  ]) {
    const got = readLaunchSpec(raw === undefined ? {} : { [LAUNCH_ENV]: raw })
    assert.ok('error' in got, String(raw))
    assert.doesNotMatch(got.error, /s3cr3t/)
  }
  assert.deepEqual(readLaunchSpec({ [LAUNCH_ENV]: '{"log":"/l","secrets":["a"],"forward":true,"maxBytes":10}' }), {
    log: '/l',
    secrets: ['a'],
    forward: true,
    maxBytes: 10,
  })
})

test('serverLogFile: one file per origin and written name, under mcp-logs', () => {
  const a = serverLogFile('/h', '/repo/a', 'git')
  assert.match(a, /^\/h\/mcp-logs\/git-[0-9a-f]{12}\.log$/)
  assert.equal(serverLogFile('/h', '/repo/a/', 'git'), a, 'a trailing slash is the same root')
  assert.notEqual(serverLogFile('/h', '/repo/b', 'git'), a)
  assert.notEqual(serverLogFile('/h', '/repo/a', 'gitx'), a)
})

test('clientCapturesStderr: false for the installed rc.8 client, true for a Config that declares stderr', () => {
  assert.equal(clientCapturesStderr(mcpClient.Config), false, 'rc.8 inherits the child stderr')
  // biome-ignore lint/suspicious/noExplicitAny: any Schemastery field schema
  const stdio = (extra: Record<string, any>) =>
    z.object({ transport: z.const('stdio'), serverName: z.string(), command: z.string(), ...extra })
  const http = z.object({
    transport: z.const('streamable-http'),
    serverName: z.string(),
    url: z.string(),
    stderr: z.string(),
  })
  assert.equal(
    clientCapturesStderr(z.union([stdio({ stderr: z.union(['pipe', 'inherit']) }), http])),
    true,
    'a later client with a stdio stderr option',
  )
  assert.equal(clientCapturesStderr(z.union([stdio({}), http])), false, 'stderr on the HTTP branch only does not count')
  assert.equal(clientCapturesStderr(z.union([z.union([stdio({ stderr: z.string() })]), http])), true, 'nested unions')
  assert.equal(clientCapturesStderr(stdio({ stderr: z.string() })), true, 'a plain object schema')
  for (const junk of [undefined, null, 42, 'stderr', {}, { list: 'x' }]) assert.equal(clientCapturesStderr(junk), false)
})
