// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * flags.ts: parsing add's flags into the entry it writes, the usage errors
 * (which never echo a value), and the Windows note as a pure function.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { CliError } from '../../src/cli/errors.ts'
import { checkName, entryFromAdd, parseEnv, parseHeaders, parseTimeout, windowsNote } from '../../src/cli/flags.ts'

const SECRET = 'sekret-Vx9-do-not-print'

function usageError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof CliError)
    assert.equal(err.exitCode, 2)
    assert.match(err.message, pattern)
    assert.equal(err.message.includes(SECRET), false, 'no value in the message')
    assert.equal(err.message.includes('\n'), false, 'one line')
    return true
  })
}

describe('flags', () => {
  test('a command with args, env, cwd, timeout, tool globs, description and --disabled', () => {
    const entry = entryFromAdd('npx', ['-y', 'pkg'], {
      env: ['A=1', 'B=${B}', 'A=2', 'EMPTY='],
      cwd: 'tools',
      timeout: '120000',
      includeTools: 'read_*, list_*',
      excludeTools: 'delete_*',
      description: 'Repo tools',
      disabled: true,
    })
    assert.deepEqual(entry, {
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { A: '2', B: '${B}', EMPTY: '' },
      cwd: 'tools',
      toolCallTimeoutMs: 120000,
      tools: { include: ['read_*', 'list_*'], exclude: ['delete_*'] },
      description: 'Repo tools',
      enabled: false,
    })
    assert.deepEqual(Object.keys(entry), [
      'command',
      'args',
      'env',
      'cwd',
      'toolCallTimeoutMs',
      'tools',
      'description',
      'enabled',
    ])
  })

  test('a URL picks http; headers are split at the first colon', () => {
    assert.deepEqual(entryFromAdd('https://x.test/mcp', [], { header: ['Authorization: Bearer ${T}', 'X-A:b:c'] }), {
      url: 'https://x.test/mcp',
      headers: { Authorization: 'Bearer ${T}', 'X-A': 'b:c' },
    })
    assert.deepEqual(entryFromAdd('http://127.0.0.1:9/mcp', [], { transport: 'http' }), {
      url: 'http://127.0.0.1:9/mcp',
    })
    assert.deepEqual(entryFromAdd('http://127.0.0.1:9/sse', [], { transport: 'sse', header: ['A: b'] }), {
      url: 'http://127.0.0.1:9/sse',
      transport: 'sse',
      headers: { A: 'b' },
    })
  })

  test('usage errors are one line, exit 2, and never quote a value', () => {
    usageError(() => parseEnv([SECRET]), /-e\/--env #1: expected KEY=VALUE \(no "=" found\)/)
    usageError(() => parseEnv(['OK=1', `=${SECRET}`]), /#2: .*the key is empty/)
    usageError(() => parseEnv([`1BAD=${SECRET}`]), /#1: the part before "=" is not a valid variable name/)
    usageError(() => parseEnv([`${SECRET}=x`]), /is not a valid variable name/)
    usageError(() => parseHeaders([`Bearer ${SECRET}`]), /-H\/--header #1: expected "Name: value" \(no ":" found\)/)
    usageError(() => parseHeaders([`: ${SECRET}`]), /the name is empty/)
    usageError(() => parseHeaders([`Bad Name: ${SECRET}`]), /is not a valid header name/)
    usageError(() => parseHeaders([`Bearer ${SECRET}: x`]), /the part before ":" is not a valid header name/)
    usageError(
      () => entryFromAdd(`https://x.test/?key=${SECRET}`, [], { transport: 'stdio' }),
      /<commandOrUrl> is a URL/,
    )
    usageError(() => parseTimeout('abc'), /--timeout: expected a whole number/)
    usageError(() => parseTimeout('0'), /--timeout/)
    usageError(() => parseTimeout('1.5'), /--timeout/)
    usageError(() => parseTimeout('99999999999'), /--timeout/)
    usageError(() => entryFromAdd('https://x.test', [], { transport: 'stdio' }), /-t stdio needs a command/)
    usageError(() => entryFromAdd('npx', [], { transport: 'http' }), /needs an http:\/\/ or https:\/\/ URL/)
    usageError(() => entryFromAdd('https://x.test', ['extra'], {}), /takes no command arguments/)
    usageError(() => entryFromAdd('https://x.test', [], { env: [`A=${SECRET}`] }), /-e\/--env applies only to stdio/)
    usageError(() => entryFromAdd('node', [], { header: [`A: ${SECRET}`] }), /-H\/--header applies only to http/)
    usageError(() => entryFromAdd('node', [], { includeTools: ' , ' }), /--include-tools/)
  })

  test('server names: empty, too long, bad characters', () => {
    usageError(() => checkName(''), /it is empty/)
    usageError(() => checkName('a'.repeat(33)), /it has 33 characters/)
    usageError(() => checkName('a.b'), /use 1-32 letters, digits/)
    checkName('a'.repeat(32))
    checkName('my_server-2')
  })

  test('the Windows note: only on win32, only for a bare npx/npm/pnpm/yarn/bunx', () => {
    assert.match(
      windowsNote({ command: 'npx', args: ['-y', 'pkg'] }, 'win32') ?? '',
      /^note: on Windows "npx" runs as "cmd \/c npx …"/,
    )
    for (const c of ['npm', 'pnpm', 'yarn', 'bunx', 'NPX']) assert.ok(windowsNote({ command: c }, 'win32'), c)
    assert.equal(windowsNote({ command: 'npx' }, 'linux'), undefined)
    assert.equal(windowsNote({ command: 'npx' }, 'darwin'), undefined)
    assert.equal(windowsNote({ command: 'node' }, 'win32'), undefined)
    assert.equal(windowsNote({ command: 'C:\\tools\\npx.cmd' }, 'win32'), undefined)
    assert.equal(windowsNote({ url: 'https://x.test' } as { command?: unknown }, 'win32'), undefined)
  })
})
