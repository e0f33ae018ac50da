// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/** Pure parts of the doctor: env scrub, secret collection and redaction, hints, stderr tails, the progress line. */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { SENSITIVE_ENV_PATTERN as OFFICIAL_PATTERN, scrubbedParentEnv } from '@deepseek-ai/dsh-subprocess'
import { createProgress } from '../../src/cli/progress.ts'
import { childEnv, redact, SENSITIVE_ENV_PATTERN, scrubbedEnv, secretValues } from '../../src/doctor/env.ts'
import { explainProbe, type Observation } from '../../src/doctor/hints.ts'
import { TextTail } from '../../src/doctor/tail.ts'

describe('env', () => {
  test('scrubs like the official client: KEY/PASSWORD/SECRET/TOKEN anywhere (any case) and DSH_*', () => {
    const env = scrubbedEnv({
      PATH: '/bin',
      api_key: 'a',
      MyPassword: 'b',
      X_SECRET_Y: 'c',
      GH_TOKEN: 'd',
      DSH_HOME: 'e',
      Dsh_x: 'f',
      KEEP: 'g',
      UNDEF: undefined,
    })
    assert.deepEqual(env, { PATH: '/bin', KEEP: 'g' })
    assert.deepEqual(childEnv({ GH_TOKEN: 'x', A: '1' }, { GH_TOKEN: 'y' }), { A: '1', GH_TOKEN: 'y' })
  })

  test('differential: the same rule as the installed official client (dsh-subprocess)', () => {
    assert.equal(SENSITIVE_ENV_PATTERN.source, OFFICIAL_PATTERN.source)
    assert.equal(SENSITIVE_ENV_PATTERN.flags, OFFICIAL_PATTERN.flags)
    const saved = { ...process.env }
    Object.assign(process.env, {
      DIFF_API_KEY: '1',
      DSH_DIFF: '2',
      dsh_diff_lower: '3',
      DIFF_PLAIN: '4',
      DIFF_PASSWORD_X: '5',
    })
    try {
      assert.deepEqual(scrubbedEnv(process.env), scrubbedParentEnv())
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
    }
  })

  test('secret values: env and header values, the credential after an auth scheme, and every variable used', () => {
    const raw = {
      command: 'x',
      args: ['--key=${ARG_KEY}'],
      env: { T: '${TOK}', SHORT: 'ab' },
      headers: { Authorization: 'Bearer ${BEARER}' },
    }
    const expanded = {
      command: 'x',
      args: ['--key=arg-value-1'],
      env: { T: 'tok-value-2', SHORT: 'ab' },
      headers: { Authorization: 'Bearer bearer-value-3' },
    }
    const secrets = secretValues(raw, expanded, {
      ARG_KEY: 'arg-value-1',
      TOK: 'tok-value-2',
      BEARER: 'bearer-value-3',
    })
    for (const v of ['arg-value-1', 'tok-value-2', 'Bearer bearer-value-3', 'bearer-value-3'])
      assert.ok(secrets.includes(v), v)
    assert.ok(!secrets.includes('ab'), 'values shorter than 4 are left alone')
    assert.equal(
      redact('sent Bearer bearer-value-3 and tok-value-2 twice: tok-value-2', secrets),
      'sent *** and *** twice: ***',
    )
  })
})

describe('hints', () => {
  const base: Observation = {
    transport: 'stdio',
    phase: 'initialize',
    timedOut: false,
    timeoutMs: 1000,
    stdoutNoise: 0,
    command: 'srv',
    cwd: '/p',
  }
  const http: Observation = { ...base, transport: 'streamable-http', url: 'https://h/mcp' }
  const httpError = (code: number) =>
    Object.assign(new Error(`Streamable HTTP error: Error POSTing to endpoint: x`), { code })
  const socket = (code: string) =>
    Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) })
  const cases: [string, Observation, RegExp, RegExp | null][] = [
    [
      'ENOENT',
      { ...base, phase: 'spawn', error: Object.assign(new Error('spawn srv ENOENT'), { code: 'ENOENT' }) },
      /^command not found: srv$/,
      /PATH/,
    ],
    [
      'EACCES',
      { ...base, phase: 'spawn', error: Object.assign(new Error('x'), { code: 'EACCES' }) },
      /permission denied/,
      /chmod/,
    ],
    [
      'exit code',
      { ...base, exit: { code: 2, signal: null }, stderrLines: 3, error: new Error('closed') },
      /^exited with code 2 during initialize$/,
      /stderr tail says why/,
    ],
    [
      'exit code, silent',
      { ...base, exit: { code: 2, signal: null }, stderrLines: 0, error: new Error('closed') },
      /^exited with code 2/,
      /wrote nothing to stderr/,
    ],
    [
      'signal',
      { ...base, phase: 'tools/list', exit: { code: null, signal: 'SIGSEGV' }, error: new Error('closed') },
      /^was killed by SIGSEGV during tools\/list$/,
      /stderr/,
    ],
    [
      'garbage then exit',
      { ...base, exit: { code: 0, signal: null }, stdoutNoise: 2, error: new Error('closed') },
      /exited with code 0/,
      /not JSON-RPC/,
    ],
    ['timeout', { ...base, timedOut: true }, /^no answer to initialize within 1000 ms$/, /--timeout/],
    ['401', { ...http, error: httpError(401) }, /^HTTP 401 Unauthorized from https:\/\/h\/mcp$/, /authentication/],
    ['403', { ...http, error: httpError(403) }, /^HTTP 403 Forbidden/, /permissions/],
    ['404', { ...http, error: httpError(404) }, /^HTTP 404/, /wrong path/],
    ['405', { ...http, error: httpError(405) }, /^HTTP 405/, /SSE/],
    ['500', { ...http, error: httpError(500) }, /^HTTP 500/, /logs/],
    ['refused', { ...http, error: socket('ECONNREFUSED') }, /^connection refused/, /running/],
    ['dns', { ...http, error: socket('ENOTFOUND') }, /^host not found/, /host name/],
    [
      'tls',
      { ...http, error: socket('DEPTH_ZERO_SELF_SIGNED_CERT') },
      /^TLS error \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
      /certificate/,
    ],
    ['tls proto', { ...http, error: socket('EPROTO') }, /^TLS error/, /scheme/],
    [
      'mcp error',
      {
        ...base,
        error: Object.assign(new Error('MCP error -32601: Method not found'), { name: 'McpError', code: -32601 }),
      },
      /initialize failed: MCP error -32601/,
      /MCP error/,
    ],
    [
      'protocol version',
      { ...base, error: new Error("Server's protocol version is not supported: 1999-01-01") },
      /protocol version/,
      /incompatible/,
    ],
  ]
  for (const [label, o, error, hint] of cases) {
    test(label, () => {
      const e = explainProbe(o)
      assert.equal(e.state, o.timedOut ? 'timeout' : 'failed')
      assert.match(e.error, error)
      if (hint) assert.match(e.hint ?? '', hint)
      assert.ok(!e.error.includes('\n'))
    })
  }
})

describe('TextTail', () => {
  test('keeps the last lines, bounded, without terminal escapes', () => {
    const t = new TextTail({ maxLines: 3, maxBytes: 1000, maxLineLength: 10 })
    for (let i = 0; i < 10_000; i++) t.push(`line ${i}\n`)
    t.push('\u001b[31mred\u001b[0m \u0007bell\r\n')
    t.push('x'.repeat(50))
    assert.deepEqual(t.lines(), ['line 9999', 'red bell', `${'x'.repeat(9)}…`])
  })
})

describe('progress', () => {
  const sink = (isTTY: boolean) => {
    const chunks: string[] = []
    return { chunks, stream: { isTTY, columns: 200, write: (s: string) => chunks.push(s) } }
  }
  test('on a TTY: a status line naming what is pending, erased around printed lines and at the end', () => {
    const { chunks, stream } = sink(true)
    const p = createProgress(stream, { intervalMs: 10_000 })
    p.start(['a', 'b'])
    assert.match(chunks.join(''), /checking 0\/2 · waiting for a, b · /)
    p.done('a')
    assert.match(chunks.at(-1) ?? '', /checking 1\/2 · waiting for b/)
    const printed: string[] = []
    p.print(() => printed.push(String(chunks.length)))
    assert.equal(chunks[Number(printed[0]) - 1], '\r\u001b[2K')
    p.done('b')
    p.stop()
    assert.equal(chunks.at(-1), '\r\u001b[2K')
  })
  test('a name carrying terminal controls (an OSC 52 clipboard write, a title change, SGR) is drawn escaped', () => {
    const { chunks, stream } = sink(true)
    const p = createProgress(stream, { intervalMs: 10_000 })
    p.start(['x\u001b]52;c;SGVsbG8=\u0007\u001b]0;TITLE\u0007', 'bad\u001b[31mname'])
    const drawn = chunks.join('').replaceAll('\r\u001b[2K', '')
    assert.ok(!/[\u0000-\u001f\u007f]/.test(drawn), `no raw control drawn: ${JSON.stringify(drawn)}`)
    assert.match(drawn, /waiting for x\\x1b\]52;c;SGVsbG8=\\x07\\x1b\]0;TITLE\\x07, bad\\x1b\[31mname/)
    p.stop()
  })
  test('not a TTY: nothing drawn, print still runs', () => {
    const { chunks, stream } = sink(false)
    const p = createProgress(stream)
    p.start(['a'])
    let ran = false
    p.print(() => {
      ran = true
    })
    p.done('a')
    p.stop()
    assert.equal(ran, true)
    assert.deepEqual(chunks, [])
  })
})
