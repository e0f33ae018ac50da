/**
 * toOfficialConfig: only what the user wrote is written, plus transport,
 * serverName and the resolved absolute cwd.
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { mirroredKeys, OfficialConfigSchema, toOfficialConfig } from '../../src/config/official.ts'
import type { Entry } from '../../src/config/schema.ts'

const linux = { root: '/proj', platform: 'linux' }

/** The stdio branch of a mapped config (fails the test on an http one). */
function stdio(e: Entry, opts: { root: string; platform: string } = linux) {
  const out = toOfficialConfig('s', e, opts)
  assert.ok(out.transport === 'stdio')
  return out
}

describe('toOfficialConfig', () => {
  it('a bare stdio entry gets transport, serverName and the root as cwd, nothing else', () => {
    assert.deepEqual(toOfficialConfig('s', { command: 'node' }, linux), {
      transport: 'stdio',
      serverName: 's',
      command: 'node',
      cwd: '/proj',
    })
  })
  it('resolves a relative cwd against the root and keeps an absolute one', () => {
    assert.equal(stdio({ command: 'n', cwd: 'tools' }).cwd, '/proj/tools')
    assert.equal(stdio({ command: 'n', cwd: '../x' }).cwd, '/x')
    assert.equal(stdio({ command: 'n', cwd: '/abs' }).cwd, '/abs')
    assert.equal(stdio({ command: 'n', cwd: '' }).cwd, '/proj')
  })
  it('copies every field the user wrote, with the friendly-only keys dropped', () => {
    const e: Entry = {
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { A: '1' },
      transport: 'stdio',
      toolCallTimeoutMs: 120000,
      failOnStartupError: true,
      reconnect: { maxAttempts: 3 },
      tools: { exclude: ['x'] },
      description: 'd',
      enabled: true,
    }
    assert.deepEqual(toOfficialConfig('s', e, linux), {
      transport: 'stdio',
      serverName: 's',
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { A: '1' },
      cwd: '/proj',
      toolCallTimeoutMs: 120000,
      failOnStartupError: true,
      reconnect: { maxAttempts: 3 },
    })
  })
  it('an http entry: url and headers, no cwd', () => {
    const out = toOfficialConfig('d', { url: 'https://a/mcp', type: 'http', headers: { H: 'v' } }, linux)
    assert.deepEqual(out, { transport: 'streamable-http', serverName: 'd', url: 'https://a/mcp', headers: { H: 'v' } })
  })
  it('never shares objects with the entry', () => {
    const e: Entry = { command: 'x', env: { A: '1' }, reconnect: { enabled: false } }
    const out = toOfficialConfig('s', e, linux)
    assert.ok(out.transport === 'stdio')
    assert.notEqual(out.env, e.env)
    assert.notEqual(out.reconnect, e.reconnect)
  })
  it('its output satisfies the strict mirror', () => {
    for (const e of [
      { command: 'x', args: [] },
      { url: 'https://a', reconnect: { enabled: false } },
    ] as Entry[]) {
      assert.ok(OfficialConfigSchema.safeParse(toOfficialConfig('n', e, linux)).success)
    }
  })
  it('throws a TypeError on entries the checker would have refused', () => {
    assert.throws(() => toOfficialConfig('s', {}, linux), TypeError)
    assert.throws(() => toOfficialConfig('s', { transport: 'stdio', url: 'https://a' }, linux), /needs a command/)
    assert.throws(() => toOfficialConfig('s', { type: 'http', command: 'x' }, linux), /needs a url/)
  })
  it('on win32 wraps bare npx in cmd /c and resolves cwd with win32 rules', () => {
    const out = toOfficialConfig(
      's',
      { command: 'npx', args: ['-y', 'pkg'], cwd: 'tools' },
      { root: 'C:\\proj', platform: 'win32' },
    )
    assert.deepEqual(out, {
      transport: 'stdio',
      serverName: 's',
      command: 'cmd',
      args: ['/c', 'npx', '-y', 'pkg'],
      cwd: 'C:\\proj\\tools',
    })
    const bare = toOfficialConfig('s', { command: 'npm' }, { root: 'C:\\p', platform: 'win32' })
    assert.ok(bare.transport === 'stdio')
    assert.deepEqual(bare.args, ['/c', 'npm'])
    assert.equal(stdio({ command: 'node' }, { root: 'C:\\p', platform: 'win32' }).args, undefined)
  })
  it('takes the platform as an input (a bare npx runs as itself off win32)', () => {
    const out = toOfficialConfig('s', { command: 'npx' }, { root: path.resolve('/proj'), platform: 'linux' })
    assert.ok(out.transport === 'stdio')
    assert.equal(out.command, 'npx')
  })
})

describe('mirroredKeys', () => {
  it('lists the top-level keys of each transport, sorted', () => {
    const k = mirroredKeys()
    assert.deepEqual(k.stdio, [
      'args',
      'command',
      'cwd',
      'env',
      'failOnStartupError',
      'maxInstructionBytes',
      'reconnect',
      'serverName',
      'toolCallTimeoutMs',
      'transport',
    ])
    assert.deepEqual(k['streamable-http'], [
      'failOnStartupError',
      'headers',
      'maxInstructionBytes',
      'oauth',
      'reconnect',
      'serverName',
      'toolCallTimeoutMs',
      'transport',
      'url',
    ])
  })
})
