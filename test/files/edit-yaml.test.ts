// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * The YAML editor changes only the lines of the pair it touches: comments,
 * blank lines, key order, unknown keys, quoting and spacing elsewhere survive
 * byte for byte, and every result parses to what was asked.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parse } from 'yaml'
import { parseConfigText } from '../../src/config/parse.ts'
import { createEditor } from '../../src/files/editor.ts'

const SPEC_EXAMPLE = [
  '# yaml-language-server: $schema=../node_modules/dsh-project-mcp/schema/dsh-mcp.schema.json',
  'servers:',
  '  github:                       # key = server name, [A-Za-z0-9_-]{1,32}',
  '    command: npx                # command ⇒ stdio',
  '    args: [-y, "@modelcontextprotocol/server-github"]',
  '    env:',
  '      GITHUB_TOKEN: ${GITHUB_TOKEN}',
  '',
  '  # the docs server',
  '  docs:',
  '    url: https://mcp.example.com/mcp   # url ⇒ streamable-http',
  '    headers:',
  '      Authorization: Bearer ${DOCS_TOKEN:-anonymous}',
  '    # a comment inside docs, after its last key',
  '  scripts:',
  '    command: node',
  '    args: [./tools/mcp-server.js]',
  "    cwd: 'tools'                # relative to the project root",
  '    toolCallTimeoutMs: 120000',
  '    reconnect: { maxAttempts: 3 }',
  '    tools: { exclude: ["delete_*"] }  # exclude wins',
  '    description: Repo scripts',
  '    futureKey: kept            # unknown keys survive',
  '    enabled: false',
  '',
  '# trailing top-level comment',
  'x-team: {owner: infra}',
  '',
].join('\n')

function servers(text: string): Record<string, unknown> {
  const parsed = parseConfigText(text, { file: 'mcp.yml', format: 'friendly', allowPartial: true })
  assert.equal(parsed.ok, true, JSON.stringify(parsed.diagnostics))
  return (parse(text) as { servers: Record<string, unknown> }).servers
}

/** Lines of `before` that are not in `after`, and lines of `after` not in `before` (multiset, order ignored). */
function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const count = (t: string) => t.split('\n').reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>())
  const a = count(before)
  const b = count(after)
  const removed: string[] = []
  const added: string[] = []
  for (const [l, n] of a) for (let i = b.get(l) ?? 0; i < n; i++) removed.push(l)
  for (const [l, n] of b) for (let i = a.get(l) ?? 0; i < n; i++) added.push(l)
  return { removed, added }
}

describe('edit-yaml: adding', () => {
  test('a new entry is appended as block lines; every other byte is unchanged', () => {
    const e = createEditor(SPEC_EXAMPLE, 'friendly')
    e.set('fresh', { command: 'npx', args: ['-y', '@scope/pkg', '${ARG}'], env: { PORT: '3000', TOKEN: '${TOKEN}' } })
    const out = e.text()
    const { removed, added } = lineDiff(SPEC_EXAMPLE, out)
    assert.deepEqual(removed, [])
    assert.deepEqual(
      added.sort(),
      [
        '  fresh:',
        '    command: npx',
        '    args: [-y, "@scope/pkg", "${ARG}"]',
        '    env:',
        '      PORT: "3000"',
        '      TOKEN: ${TOKEN}',
      ].sort(),
    )
    assert.ok(out.indexOf('  fresh:') > out.indexOf('    enabled: false'), 'appended after the last entry')
    assert.ok(out.indexOf('  fresh:') < out.indexOf('# trailing top-level comment'))
    const s = servers(out)
    assert.deepEqual(s.fresh, {
      command: 'npx',
      args: ['-y', '@scope/pkg', '${ARG}'],
      env: { PORT: '3000', TOKEN: '${TOKEN}' },
    })
    assert.deepEqual(Object.keys(s), ['github', 'docs', 'scripts', 'fresh'])
  })

  test('the file keeps its own indentation (4 spaces; unindented sequences)', () => {
    const long = Array.from({ length: 12 }, (_, i) => `--option-number-${i}`)
    const four = 'servers:\n    a:\n        command: node\n        args:\n            - a.js\n'
    let e = createEditor(four, 'friendly')
    e.set('b', { command: 'node', args: long })
    assert.ok(e.text().startsWith(four))
    assert.match(e.text(), /\n {4}b:\n {8}command: node\n {8}args:\n {12}- --option-number-0\n/)
    assert.equal((servers(e.text()).b as { args: string[] }).args.length, 12)
    const flat = 'servers:\n  a:\n    command: node\n    args:\n    - a.js\n'
    e = createEditor(flat, 'friendly')
    e.set('b', { command: 'node', args: long })
    assert.match(e.text(), /\n {2}b:\n {4}command: node\n {4}args:\n {4}- --option-number-0\n/)
  })

  test('an empty servers map, a null one, a comment-only file and a missing key all grow a block entry', () => {
    const cases: [string, string][] = [
      ['servers: {}\n', 'servers:\n  a:\n    command: x\n'],
      ['servers:   # my servers\n', 'servers:   # my servers\n  a:\n    command: x\n'],
      ['servers: ~\n', 'servers:\n  a:\n    command: x\n'],
      ['# only a comment\n', '# only a comment\nservers:\n  a:\n    command: x\n'],
      ['other: 1 # keep\n', 'other: 1 # keep\nservers:\n  a:\n    command: x\n'],
    ]
    for (const [input, expected] of cases) {
      const e = createEditor(input, 'friendly')
      e.set('a', { command: 'x' })
      assert.equal(e.text(), expected, JSON.stringify(input))
    }
  })

  test('a new file starts with the header line', () => {
    const e = createEditor(undefined, 'friendly', { header: '# yaml-language-server: $schema=x.json' })
    e.set('a', { url: 'https://x.test/mcp' })
    assert.equal(e.text(), '# yaml-language-server: $schema=x.json\nservers:\n  a:\n    url: https://x.test/mcp\n')
  })

  test('a flow-style servers map is re-rendered in block style; the rest of the file is untouched', () => {
    const text = '# head\nservers: {a: {command: x}}\nother: [1, 2]   # spacing kept\n'
    const e = createEditor(text, 'friendly')
    e.set('b', { command: 'y' })
    assert.equal(
      e.text(),
      '# head\nservers:\n  a:\n    command: x\n  b:\n    command: y\nother: [1, 2]   # spacing kept\n',
    )
  })

  test('CRLF line endings and a BOM are kept', () => {
    const text = '\uFEFFservers:\r\n  a:\r\n    command: x\r\n'
    const e = createEditor(text, 'friendly')
    e.set('b', { command: 'y' })
    assert.equal(e.text(), '\uFEFFservers:\r\n  a:\r\n    command: x\r\n  b:\r\n    command: y\r\n')
  })
})

describe('edit-yaml: replacing and fields', () => {
  test('replacing an entry keeps its place and the comments above it', () => {
    const e = createEditor(SPEC_EXAMPLE, 'friendly')
    e.set('docs', { url: 'https://other.test/mcp' })
    const out = e.text()
    assert.match(out, /\n\n {2}# the docs server\n {2}docs:\n {4}url: https:\/\/other.test\/mcp\n {2}scripts:\n/)
    assert.deepEqual(Object.keys(servers(out)), ['github', 'docs', 'scripts'])
    assert.ok(out.includes('    futureKey: kept            # unknown keys survive'))
  })

  test('setting and deleting one key touches one line', () => {
    const e = createEditor(SPEC_EXAMPLE, 'friendly')
    e.setField('github', 'enabled', false)
    let d = lineDiff(SPEC_EXAMPLE, e.text())
    assert.deepEqual(d, { removed: [], added: ['    enabled: false'] })
    e.deleteField('scripts', 'enabled')
    d = lineDiff(SPEC_EXAMPLE, e.text())
    assert.deepEqual(d, { removed: [], added: [] }, 'one enabled line moved from scripts to github')
    assert.match(e.text(), /GITHUB_TOKEN: \$\{GITHUB_TOKEN\}\n {4}enabled: false\n\n/)
    assert.match(e.text(), /unknown keys survive\n\n# trailing/)
    const s = servers(e.text()) as Record<string, Record<string, unknown>>
    assert.equal(s.github!.enabled, false)
    assert.equal('enabled' in s.scripts!, false)
    e.setField('github', 'enabled', true)
    assert.equal((servers(e.text()) as Record<string, Record<string, unknown>>).github!.enabled, true)
  })

  test('a key of a flow-style entry is set by re-rendering only that entry', () => {
    const text = 'servers:\n  # a\n  a: {command: x, args: [1]}\n  b:\n    command: y   # keep\n'
    const e = createEditor(text, 'friendly')
    e.setField('a', 'enabled', false)
    assert.equal(
      e.text(),
      'servers:\n  # a\n  a:\n    command: x\n    args: [1]\n    enabled: false\n  b:\n    command: y   # keep\n',
    )
  })
})

describe('edit-yaml: removing', () => {
  test('removing an entry removes its lines and the comments above it, nothing else', () => {
    const e = createEditor(SPEC_EXAMPLE, 'friendly')
    assert.equal(e.delete('docs'), true)
    const { removed, added } = lineDiff(SPEC_EXAMPLE, e.text())
    assert.deepEqual(added, [])
    assert.deepEqual(
      removed.sort(),
      [
        '',
        '  # the docs server',
        '  docs:',
        '    # a comment inside docs, after its last key',
        '    url: https://mcp.example.com/mcp   # url ⇒ streamable-http',
        '    headers:',
        '      Authorization: Bearer ${DOCS_TOKEN:-anonymous}',
      ].sort(),
    )
    assert.deepEqual(Object.keys(servers(e.text())), ['github', 'scripts'])
  })

  test('removing the first and the last entries keeps the header and trailing content', () => {
    const e = createEditor(SPEC_EXAMPLE, 'friendly')
    e.delete('github')
    e.delete('scripts')
    const out = e.text()
    assert.ok(
      out.startsWith(
        '# yaml-language-server: $schema=../node_modules/dsh-project-mcp/schema/dsh-mcp.schema.json\nservers:\n  # the docs server\n  docs:\n',
      ),
    )
    assert.ok(out.endsWith('\n# trailing top-level comment\nx-team: {owner: infra}\n'))
    assert.deepEqual(Object.keys(servers(out)), ['docs'])
  })

  test('removing the only entry leaves "servers: {}"; removing an absent one changes nothing', () => {
    const text = '# c\nservers:\n  a:\n    command: x\nother: 1\n'
    const e = createEditor(text, 'friendly')
    assert.equal(e.delete('nope'), false)
    assert.equal(e.text(), text)
    e.delete('a')
    assert.equal(e.text(), '# c\nservers: {}\nother: 1\n')
    assert.deepEqual(servers(e.text()), {})
  })

  test('an untouched editor returns the exact input', () => {
    assert.equal(createEditor(SPEC_EXAMPLE, 'friendly').text(), SPEC_EXAMPLE)
  })
})
