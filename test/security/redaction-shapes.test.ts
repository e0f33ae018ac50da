// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * Redaction shapes (config/redact.ts, config/redact-shapes.ts): every place a
 * secret hides in an entry's strings is collected and masked — URL userinfo
 * and query values, secret-bearing flags in their three spellings, env-style
 * and header-style arguments, multi-line values (every line), and a secret
 * cut by a display window (the 300-char line cut, the stderr byte window).
 * Each class is attacked with at least three variants; "no fragment" means
 * no 8-character piece of the secret survives.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  displayArgs,
  displayUrl,
  isSecretName,
  MIN_SECRET_LENGTH,
  redact,
  redactCut,
  redactEdges,
  SECRET_FLAG_WORDS,
  SECRET_SHORT_FLAGS,
  secretValues,
} from '../../src/config/redact.ts'
import type { Entry } from '../../src/config/schema.ts'
import { explainProbe } from '../../src/doctor/hints.ts'
import { TextTail } from '../../src/doctor/tail.ts'

/** Every 8-character piece of `secret` found in `text`. */
function fragments(text: string, secret: string, n = 8): string[] {
  const hits: string[] = []
  for (let i = 0; i + n <= secret.length; i++)
    if (text.includes(secret.slice(i, i + n))) hits.push(secret.slice(i, i + n))
  return hits
}
const S = (tag: string) => `S3cr3t-${tag}-q7Zk9wXv`
const noLeak = (text: string, ...secrets: string[]) => {
  for (const s of secrets) assert.deepEqual(fragments(text, s), [], `a piece of ${s} survived in: ${text}`)
}

describe('the reviewed flag list', () => {
  test('is exactly the reviewed set (a change here needs a security review)', () => {
    assert.deepEqual(
      [...SECRET_FLAG_WORDS],
      [
        'token',
        'key',
        'apikey',
        'secret',
        'password',
        'passwd',
        'pass',
        'pwd',
        'passphrase',
        'auth',
        'authorization',
        'credential',
        'credentials',
        'cookie',
        'pat',
        'bearer',
        'jwt',
        'sig',
        'signature',
      ],
    )
    assert.deepEqual([...SECRET_SHORT_FLAGS], ['p'])
    assert.equal(MIN_SECRET_LENGTH, 3)
  })

  test('names that are secret-bearing, and names that are not', () => {
    for (const n of [
      'token',
      'github-token',
      'GITHUB_TOKEN',
      'api-key',
      'api_key',
      'apikey',
      'client-secret',
      'password',
      'db.password',
      'x-api-key',
      'Authorization',
      'access_token',
      'sig',
    ])
      assert.ok(isSecretName(n), n)
    for (const n of ['port', 'no-auth', 'verbose', 'bypass', 'key-file', 'tokens-per-minute', 'name', 'format'])
      assert.ok(!isSecretName(n), n)
  })
})

describe('arguments with secret-bearing flags', () => {
  const cases: [string, string[], string][] = [
    ['--token=', ['server.js', `--token=${S('a')}`, '--port', '8080'], S('a')],
    ['--token <x>', ['server.js', '--token', S('b'), '--verbose'], S('b')],
    ['--api-key <x>', ['--api-key', S('c')], S('c')],
    ['--api_key=', [`--api_key=${S('d')}`], S('d')],
    ['--github-token <x>', ['--github-token', S('e')], S('e')],
    ['--password <x>', ['--password', S('f')], S('f')],
    ['-p <x>', ['-u', 'root', '-p', S('g')], S('g')],
    ['-p=', [`-p=${S('h')}`], S('h')],
    ['NAME=value (docker -e)', ['run', '-e', `GITHUB_PERSONAL_ACCESS_TOKEN=${S('i')}`, 'image'], S('i')],
    [
      'Header: value (mcp-remote --header)',
      ['mcp-remote', 'https://h/mcp', '--header', `Authorization: Bearer ${S('j')}`],
      S('j'),
    ],
    ['URL in an argument', ['mcp-remote', `https://me:${S('k')}@h.example/mcp?x=1`], S('k')],
    ['-p<x> (attached, mysql)', ['-u', 'root', `-p${S('m')}`], S('m')],
    ['--env=NAME=<x>', [`--env=GITHUB_TOKEN=${S('n')}`], S('n')],
    ['-e NAME=<x>', ['-e', `API_KEY=${S('o')}`], S('o')],
    ['-eNAME=<x> (attached)', [`-eGITHUB_TOKEN=${S('p')}`], S('p')],
    ['--header=Name: <x>', [`--header=X-Api-Key: ${S('q')}`], S('q')],
    ['--header=Name:<x> (no space)', [`--header=X-Api-Key:${S('r')}`], S('r')],
    ['-H "Authorization: Bearer <x>"', ['-H', `Authorization: Bearer ${S('s')}`], S('s')],
    ['--header=Authorization: Bearer <x>', [`--header=Authorization: Bearer ${S('t')}`], S('t')],
  ]
  for (const [label, args, secret] of cases) {
    test(`${label}: masked for display, collected for free-text redaction`, () => {
      const shown = displayArgs(args).join(' ')
      noLeak(shown, secret)
      assert.match(shown, /\*\*\*/)
      const secrets = secretValues({ command: 'x', args }, { command: 'x', args }, {})
      noLeak(redact(`the server said: started with ${args.join(' ')}`, secrets), secret)
    })
  }

  test('what is not secret stays readable', () => {
    assert.deepEqual(displayArgs(['server.js', '--port', '8080', '--verbose', '--no-auth', 'x']), [
      'server.js',
      '--port',
      '8080',
      '--verbose',
      '--no-auth',
      'x',
    ])
    // A value that only names variables holds no secret: shown as written.
    assert.deepEqual(displayArgs(['--token=${TOKEN}', '--api-key', '${KEY}']), [
      '--token=${TOKEN}',
      '--api-key',
      '${KEY}',
    ])
    // A flag followed by another flag has no value to hide.
    assert.deepEqual(displayArgs(['--token', '--port', '1']), ['--token', '--port', '1'])
    // Look-alikes of the nested and attached shapes: another one-letter flag, non-secret names inside a flag's value.
    const plain = [
      '-P3306',
      '-v',
      '-x1',
      '--port=8080',
      '-e',
      'DEBUG=1',
      '--env=NODE_ENV=production',
      '--define=monkey=1',
      '--header=Accept: application/json',
      '-H',
      'Content-Type: text/plain',
      '--env=TOKEN=${TOKEN}',
      '--header=X-Api-Key: ${KEY}',
    ]
    assert.deepEqual(displayArgs(plain), plain)
  })

  test('an argument built from ${VAR}: the variable value is redacted wherever it appears', () => {
    const raw: Entry = { command: 'x', args: ['--config', 'tok:${MY_VAR}:end'] }
    const expanded: Entry = { command: 'x', args: ['--config', `tok:${S('l')}:end`] }
    const secrets = secretValues(raw, expanded, { MY_VAR: S('l') })
    noLeak(redact(`failed: ${S('l')}`, secrets), S('l'))
  })
})

describe('URLs: userinfo and query values', () => {
  const urls: [string, string, string[]][] = [
    ['user:pass@', `https://alice:${S('m')}@api.example/mcp`, [S('m')]],
    ['token as user', `https://${S('n')}@api.example/mcp`, [S('n')]],
    ['?token=', `https://api.example/mcp?token=${S('o')}`, [S('o')]],
    ['&api_key= among others', `https://api.example/mcp?v=2&api_key=${S('p')}&x=y`, [S('p')]],
    ['a non-secret-named key', `https://api.example/mcp?q=${S('q')}`, [S('q')]],
    ['percent-encoded', `https://api.example/mcp?token=${encodeURIComponent(`${S('r')}/+=`)}`, [S('r')]],
    ['fragment', `https://api.example/cb#access_token=${S('s')}`, [S('s')]],
  ]
  for (const [label, url, secrets] of urls) {
    test(`${label}: every query value and the userinfo masked for display; collected as secrets`, () => {
      noLeak(displayUrl(url), ...secrets)
      assert.ok(displayUrl(url).startsWith(url.slice(0, url.indexOf('://') + 3)), 'the scheme stays')
      assert.match(displayUrl(url), /api\.example/, 'the host stays')
      const values = secretValues({ url }, { url }, {})
      // The SDK quotes the URL in its errors; Node's fetch refuses userinfo and quotes it too.
      noLeak(redact(`Request cannot be constructed from a URL that includes credentials: ${url}`, values), ...secrets)
      noLeak(redact(`fetch failed: ${decodeURIComponent(url)}`, values), ...secrets)
    })
  }

  test('display keeps what is not a value: path, key names, ${VAR} references', () => {
    assert.equal(displayUrl('http://127.0.0.1:3000/mcp'), 'http://127.0.0.1:3000/mcp')
    assert.equal(displayUrl('https://h/mcp?token=abc&flag'), 'https://h/mcp?token=***&***')
    assert.equal(displayUrl('https://h/mcp?token=${TOKEN}'), 'https://h/mcp?token=${TOKEN}')
    assert.equal(displayUrl('https://${USER}:${PASS}@h/mcp'), 'https://${USER}:${PASS}@h/mcp')
  })

  test('free text: userinfo and secret-named query values of unknown URLs are masked too', () => {
    const text = `connecting to postgres://admin:${S('t')}@db:5432/x and https://h/cb?code=1&access_token=${S('u')} with --api-key=${S('v')}, header Bearer ${S('w')}`
    noLeak(redact(text, []), S('t'), S('u'), S('v'), S('w'))
    assert.equal(
      redact('Basic authentication failed; Token expired; see https://h/docs?page=2', []),
      'Basic authentication failed; Token expired; see https://h/docs?page=2',
    )
  })
})

describe('multi-line values', () => {
  const pemBody = Array.from({ length: 6 }, (_, i) => `MIIEv${i}QIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC${i}xyz`)
  const pem = ['-----BEGIN PRIVATE KEY-----', ...pemBody, '-----END PRIVATE KEY-----', ''].join('\n')

  test('a PEM key in env: every line is redacted, in raw text and in JSON-escaped text', () => {
    const secrets = secretValues({ command: 'x', env: { KEY: pem } }, { command: 'x', env: { KEY: pem } }, {})
    // A server prints one line of it; a log writes it JSON-escaped; a stack trace prints a few lines.
    for (const out of [
      `line: ${pemBody[3]}`,
      JSON.stringify({ key: pem }),
      `Error: bad key\n${pemBody.slice(1, 4).join('\n')}\n    at x`,
    ]) {
      const red = redact(out, secrets)
      for (const line of pemBody) noLeak(red, line)
    }
  })

  test('any multi-line env value and header value: each fragment (CRLF too)', () => {
    const env = { A: `first-${S('x1')}\r\nsecond-${S('x2')}` }
    const headers = { 'X-Multi': `one ${S('x3')}\nand ${S('x4')}` }
    const secrets = secretValues({ url: 'http://h', headers, env }, { url: 'http://h', headers, env }, {})
    noLeak(redact(`got second-${S('x2')} and and ${S('x4')}; first-${S('x1')}`, secrets), S('x1'), S('x2'), S('x4'))
  })

  test('a multi-line value from ${VAR}: each line of the variable value', () => {
    const value = `aaa-${S('y1')}\nbbb-${S('y2')}\nccc-${S('y3')}`
    const secrets = secretValues(
      { command: 'x', env: { K: '${PEM_VAR}' } },
      { command: 'x', env: { K: value } },
      { PEM_VAR: value },
    )
    noLeak(redact(`stderr: bbb-${S('y2')}`, secrets), S('y2'))
  })
})

describe('a secret cut by a display window', () => {
  const secret = `${S('z')}-0123456789abcdef`

  test('the 300-character line cut of the stderr tail: redacted before it is cut', () => {
    for (const pad of [280, 290, 295, 299]) {
      const t = new TextTail({ secrets: [secret] })
      t.push(`${'x'.repeat(pad)}${secret} trailing\n`)
      const lines = t.lines()
      assert.equal(lines.length, 1)
      noLeak(lines[0]!, secret)
      assert.ok(lines[0]!.length <= 300)
    }
  })

  test('the byte window of the stderr tail: a secret cut at the window start leaves no fragment', () => {
    for (const [maxBytes, filler] of [
      [100, 'y'],
      [64, '\n'],
      [40, 'z'],
    ] as const) {
      const t = new TextTail({ maxBytes, secrets: [secret] })
      // One long line: the window start falls inside the secret.
      t.push(secret)
      t.push(filler.repeat(maxBytes * 2 - 10))
      t.push(`tail\n`)
      for (const l of t.lines()) noLeak(l, secret)
      // Many lines: the partial first line of the window is dropped.
      const u = new TextTail({ maxBytes, secrets: [secret] })
      u.push(`${'w'.repeat(maxBytes)}\n${secret}\n${'v'.repeat(maxBytes - 15)}\nend\n`)
      for (const l of u.lines()) noLeak(l, secret)
    }
  })

  test('the doctor one-line error cut (hints): redacted before the 300-char cut', () => {
    for (const pad of [270, 285, 296]) {
      const e = explainProbe({
        transport: 'stdio',
        phase: 'initialize',
        timedOut: false,
        timeoutMs: 1,
        stdoutNoise: 0,
        error: new Error(`${'e'.repeat(pad)}${secret}`),
        clean: (s) => redact(s, [secret]),
      })
      noLeak(e.error, secret)
    }
  })

  test('redactCut and redactEdges', () => {
    noLeak(redactCut(`${'a'.repeat(20)}${secret}`, [secret], 30), secret)
    assert.equal(redactEdges(`${secret.slice(10)} rest`, [secret], { start: true }), '*** rest')
    assert.equal(redactEdges(`head ${secret.slice(0, 12)}`, [secret], { end: true }), 'head ***')
    assert.equal(redactEdges('unrelated text', [secret], { start: true, end: true }), 'unrelated text')
  })
})
