// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * parseConfigText: both document formats, positions of every kind of field,
 * root-level keys, and the secrets rule (no env/header value in any message).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type Diagnostic, formatDiagnostic, formatPath } from '../../src/config/diagnostics.ts'
import { allDiagnostics, parseConfigText } from '../../src/config/parse.ts'

const friendly = (text: string, allowPartial = false) =>
  parseConfigText(text, { file: '/p/.dsh/mcp.yml', format: 'friendly', allowPartial })
const mcp = (text: string) => parseConfigText(text, { file: '/p/.mcp.json', format: 'mcpServers' })
const where = (d: Diagnostic | undefined) => (d ? `${d.line}:${d.col} ${d.path}` : 'none')

describe('formats', () => {
  it('reads the friendly format with positions of each entry key', () => {
    const p = friendly('servers:\n  a:\n    command: x\n  b: { url: "https://b.example/mcp" }\n')
    assert.equal(p.ok, true)
    assert.deepEqual(
      p.entries.map((e) => [e.name, e.line, e.col, e.entry !== undefined]),
      [
        ['a', 2, 3, true],
        ['b', 4, 3, true],
      ],
    )
    assert.deepEqual(allDiagnostics(p), [])
  })
  it('reads the mcpServers dialect (Claude Code .mcp.json) unchanged', () => {
    const p = mcp(
      '{\n  "mcpServers": {\n    "gh": { "command": "npx", "args": ["-y", "x"], "env": { "T": "${T}" } },\n    "docs": { "type": "http", "url": "https://d.example/mcp", "headers": { "A": "b" } }\n  }\n}\n',
    )
    assert.deepEqual(allDiagnostics(p), [])
    assert.deepEqual(p.entries[0]?.entry, { command: 'npx', args: ['-y', 'x'], env: { T: '${T}' } })
    assert.deepEqual(p.entries[1]?.entry, { type: 'http', url: 'https://d.example/mcp', headers: { A: 'b' } })
    assert.deepEqual([p.entries[1]?.line, p.entries[1]?.col], [4, 5])
  })
  it('an empty servers mapping, or servers: null, is a valid file with no entries', () => {
    for (const text of ['servers: {}\n', 'servers:\n', '# only a comment\nservers: ~\n']) {
      const p = friendly(text)
      assert.equal(p.ok, true, text)
      assert.deepEqual(allDiagnostics(p), [], text)
    }
  })
  it('a file without servers warns that it defines none', () => {
    const p = friendly('$schema: ./x.json\n')
    assert.equal(p.ok, true)
    assert.deepEqual(
      p.diagnostics.map((d) => [d.severity, d.code]),
      [['warning', 'bad-root']],
    )
  })
  it('unknown top-level keys warn; the other format key says where servers go', () => {
    const p = friendly('mcpServers: {}\nserver: {}\nservers: {}\n')
    assert.deepEqual(
      p.diagnostics.map((d) => [d.severity, d.line, d.col, d.path]),
      [
        ['warning', 1, 1, 'mcpServers'],
        ['warning', 2, 1, 'server'],
      ],
    )
    assert.match(p.diagnostics[0]!.message, /lists servers under "servers"/)
    assert.match(p.diagnostics[1]!.message, /did you mean "servers"\?/)
    assert.match(mcp('{"servers": {}, "mcpServers": {}}').diagnostics[0]!.message, /under "mcpServers"/)
  })
  it('integer-looking server names are names', () => {
    const p = friendly('servers:\n  123:\n    command: x\n    args: [1, {a: b}]\n')
    assert.equal(p.entries[0]?.name, '123')
    assert.equal(where(p.entries[0]?.diagnostics[0]), '4:15 servers["123"].args[1]')
  })
  it('partial entries are allowed only when asked', () => {
    assert.equal(friendly('servers:\n  a: { enabled: false }\n', true).entries[0]?.partial, true)
    assert.equal(friendly('servers:\n  a: { enabled: false }\n').entries[0]?.entry, undefined)
  })
})

describe('positions', () => {
  const text = [
    'servers:', // 1
    '  s:', // 2
    '    command: x', // 3
    '    args: [ok, 2, {k: v}, "q", [n]]', // 4
    '    env:', // 5
    '      GOOD: yes', // 6
    '      BAD: [1]', // 7
    '    reconnect: {maxAttempts: 0, initialDelayMs: -1}', // 8
    '    tools:', // 9
    '      include: [a, ""]', // 10
    '    bogus: 1', // 11
  ].join('\n')
  const diags = friendly(text).entries[0]!.diagnostics
  const at = (path: string) => where(diags.find((d) => d.path === path))
  it('points into flow sequences', () => {
    assert.equal(at('servers.s.args[2]'), '4:19 servers.s.args[2]')
    assert.equal(at('servers.s.args[4]'), '4:32 servers.s.args[4]')
  })
  it('points at block map values', () => {
    assert.equal(at('servers.s.env.BAD'), '7:12 servers.s.env.BAD')
  })
  it('points into flow mappings', () => {
    assert.equal(at('servers.s.reconnect.maxAttempts'), '8:30 servers.s.reconnect.maxAttempts')
    assert.equal(at('servers.s.reconnect.initialDelayMs'), '8:49 servers.s.reconnect.initialDelayMs')
  })
  it('points at a nested sequence element', () => {
    assert.equal(at('servers.s.tools.include[1]'), '10:20 servers.s.tools.include[1]')
  })
  it('points unknown keys at the key', () => {
    assert.equal(at('servers.s.bogus'), '11:5 servers.s.bogus')
  })
  it('reports every problem of the entry (one per field)', () => {
    assert.equal(diags.filter((d) => d.severity === 'error').length, 6)
  })
})

describe('secrets never appear in diagnostics', () => {
  const CANARY = 'CANARY-4b1d-value'
  const files: [string, string, 'friendly' | 'mcpServers'][] = [
    [
      'type errors around env values',
      `servers:\n  a:\n    command: x\n    env: { T: "${CANARY}", U: [${CANARY}], V: { w: ${CANARY} } }\n`,
      'friendly',
    ],
    [
      'header values',
      `servers:\n  a:\n    url: https://a.example\n    headers: { A: "${CANARY}", B: [${CANARY}] }\n    env: { C: "${CANARY}" }\n`,
      'friendly',
    ],
    [
      'malformed templates in values',
      `servers:\n  a:\n    command: x\n    env: { T: "\${${CANARY}", U: "\${${CANARY}}" }\n`,
      'friendly',
    ],
    [
      'headers on stdio',
      `servers:\n  a:\n    command: x\n    headers: { Authorization: "Bearer ${CANARY}" }\n`,
      'friendly',
    ],
    [
      'duplicate env keys',
      `servers:\n  a:\n    command: x\n    env:\n      T: ${CANARY}\n      T: ${CANARY}\n`,
      'friendly',
    ],
    [
      'syntax error after a secret',
      `servers:\n  a:\n    command: x\n    env: { T: "${CANARY}" }\n  b: [\n`,
      'friendly',
    ],
    ['unterminated quoted secret', `servers:\n  a:\n    command: x\n    env: { T: "${CANARY}\n`, 'friendly'],
    ['JSON unquoted secret', `{"mcpServers": {"a": {"command": "x", "env": {"T": ${CANARY}}}}}`, 'mcpServers'],
    [
      'JSON bad escape near a secret',
      `{"mcpServers": {"a": {"command": "x", "env": {"T": "${CANARY}\\q"}}}}`,
      'mcpServers',
    ],
    [
      'JSON raw newline in a secret',
      `{"mcpServers": {"a": {"command": "x", "env": {"T": "${CANARY}\n"}}}}`,
      'mcpServers',
    ],
    [
      'YAML bad escape next to a secret',
      `servers:\n  a:\n    command: x\n    env: { T: "\\q${CANARY}" }\n`,
      'friendly',
    ],
    [
      'YAML block scalar header junk',
      `servers:\n  a:\n    command: x\n    env:\n      T: |${CANARY}\n        v\n`,
      'friendly',
    ],
    ['YAML stray secret after a document', `servers: {}\n}${CANARY}\n`, 'friendly'],
    ['secret that YAML reads as an alias', `servers:\n  a:\n    command: x\n    env: { T: *${CANARY} }\n`, 'friendly'],
    ['secret in a tag', `servers:\n  a:\n    command: x\n    env: { T: !${CANARY} v }\n`, 'friendly'],
  ]
  for (const [name, text, format] of files) {
    it(name, () => {
      const p = parseConfigText(text, { file: 'f', format })
      const all = allDiagnostics(p)
      assert.ok(
        all.some((d) => d.severity === 'error'),
        'the case must produce an error',
      )
      for (const d of all) assert.ok(!formatDiagnostic(d).includes(CANARY), formatDiagnostic(d))
    })
  }
})

describe('never throws', () => {
  it('on arbitrary junk', () => {
    for (const text of [
      '{',
      '}',
      '[',
      '- -',
      '? ? ?',
      '&a *a',
      '*nope',
      '!!binary x',
      '%YAML 9.9\n---\nx',
      'servers: *x',
      '"\\u00"',
    ]) {
      for (const format of ['friendly', 'mcpServers'] as const) {
        const p = parseConfigText(text, { file: 'f', format })
        assert.equal(p.ok, false, `${format}: ${text}`)
        assert.equal(p.diagnostics.length, 1)
      }
    }
  })
})

describe('diagnostics', () => {
  it('formatPath quotes keys that are not identifiers', () => {
    assert.equal(formatPath(['servers', 'a', 'args', 2]), 'servers.a.args[2]')
    assert.equal(formatPath(['servers', 'my server', 'env', 'X-Y']), 'servers["my server"].env.X-Y')
    assert.equal(formatPath([]), '')
  })
  it('formatDiagnostic renders file:line:col: severity: path: message', () => {
    const d: Diagnostic = {
      severity: 'error',
      code: 'bad-value',
      message: 'm',
      file: '/p/f',
      line: 3,
      col: 7,
      path: 'servers.a',
    }
    assert.equal(formatDiagnostic(d), '/p/f:3:7: error: servers.a: m')
    assert.equal(formatDiagnostic({ ...d, line: 0, path: '' }), '/p/f: error: m')
    assert.equal(formatDiagnostic(d, { relativeTo: () => 'f' }), 'f:3:7: error: servers.a: m')
  })
})
