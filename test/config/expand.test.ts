// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * `${VAR}` expansion (docs/guide/format.md): Claude Code's syntax, `$$` for a
 * literal `$`, missing variables named by server-free field path and variable,
 * never by value; shell semantics for the empty string.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkEntry } from '../../src/config/entry.ts'
import { expandEntry, expandString, scanTemplate, templateSites, templateVariables } from '../../src/config/expand.ts'
import type { Entry } from '../../src/config/schema.ts'

const value = (t: string, env: Record<string, string | undefined> = {}) => {
  const r = expandString(t, env)
  assert.ok('value' in r, `expected a value, got ${JSON.stringify(r)}`)
  return r.value
}

describe('expandString', () => {
  it('expands ${VAR}', () => {
    assert.equal(value('Bearer ${TOKEN}', { TOKEN: 'abc' }), 'Bearer abc')
    assert.equal(value('${A}${B}', { A: '1', B: '2' }), '12')
    assert.equal(value('${A}/x/${A}', { A: 'p' }), 'p/x/p')
  })
  it('uses the default when the variable is unset or empty', () => {
    assert.equal(value('${A:-anon}'), 'anon')
    assert.equal(value('${A:-anon}', { A: '' }), 'anon')
    assert.equal(value('${A:-anon}', { A: 'set' }), 'set')
    assert.equal(value('${A:-}'), '')
    assert.equal(value('${A:-x:-y}'), 'x:-y')
  })
  it('counts an empty string as set for ${VAR}', () => {
    assert.equal(value('[${A}]', { A: '' }), '[]')
  })
  it('writes a literal $ for $$ and keeps a lone $', () => {
    assert.equal(value('$$HOME'), '$HOME')
    assert.equal(value('$${A}', { A: 'x' }), '${A}')
    assert.equal(value('cost: 5$'), 'cost: 5$')
    assert.equal(value('$HOME', { HOME: '/h' }), '$HOME')
    assert.equal(value('a$b'), 'a$b')
    assert.equal(value(''), '')
  })
  it('does not expand inside a default or re-expand a value', () => {
    assert.equal(value('${A}', { A: '${B}', B: 'no' }), '${B}')
    assert.equal(value('${A:-$B}'), '$B')
  })
  it('lists every missing variable', () => {
    assert.deepEqual(expandString('${A} ${B:-b} ${C}', {}), { missing: ['A', 'C'] })
  })
  it('refuses malformed templates with a message that says how to write $', () => {
    for (const t of ['${', 'x ${A', '${}', '${1A}', '${A B}', '${A-b}', '${A:b}']) {
      const r = expandString(t, { A: 'v' })
      assert.ok('message' in r && !('value' in r), `${t} must be malformed`)
      assert.match(r.message, /\$\$/)
    }
  })
  it('never echoes the text between the braces (it may be a pasted secret)', () => {
    const r = expandString('Bearer ${sk-live-CANARY-123}', {})
    assert.ok('message' in r)
    assert.doesNotMatch(r.message, /CANARY/)
    assert.match(r.message, /at character 8/)
  })
  it('scanTemplate and templateVariables agree', () => {
    assert.deepEqual(scanTemplate('a${B:-c}d'), [{ text: 'a' }, { variable: 'B', fallback: 'c' }, { text: 'd' }])
    assert.deepEqual(templateVariables('${A} ${B:-x} $$C'), [
      { name: 'A', hasDefault: false },
      { name: 'B', hasDefault: true },
    ])
    assert.deepEqual(templateVariables('${'), [])
  })
})

function entry(raw: unknown): Entry {
  const r = checkEntry(raw)
  assert.ok(r.entry, JSON.stringify(r.problems))
  return r.entry
}

describe('expandEntry', () => {
  it('expands command, args, env, cwd of a stdio entry', () => {
    const e = entry({
      command: '${BIN}',
      args: ['--root', '${ROOT}', 7],
      env: { TOKEN: '${T}', PLAIN: 'p' },
      cwd: '${SUB:-tools}',
      description: '${NOT_EXPANDED}',
    })
    const r = expandEntry(e, { BIN: 'node', ROOT: '/r', T: 'tok' })
    assert.ok('entry' in r)
    assert.deepEqual(r.entry, {
      command: 'node',
      args: ['--root', '/r', '7'],
      env: { TOKEN: 'tok', PLAIN: 'p' },
      cwd: 'tools',
      description: '${NOT_EXPANDED}',
    })
  })
  it('expands url and headers of an http entry', () => {
    const e = entry({ url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN:-anonymous}' } })
    const r = expandEntry(e, { HOST: 'h.example' })
    assert.ok('entry' in r)
    assert.deepEqual(r.entry, { url: 'https://h.example/mcp', headers: { Authorization: 'Bearer anonymous' } })
  })
  it('does not mutate its input', () => {
    const e = entry({ command: 'x', args: ['${A}'] })
    expandEntry(e, { A: 'v' })
    assert.deepEqual(e.args, ['${A}'])
  })
  it('reports each missing variable by field path and name, never by value', () => {
    const canary = 'CANARY-secret-value-4711'
    const e = entry({ command: 'x', args: ['${MISSING_ARG}'], env: { TOKEN: '${MISSING_TOKEN}', OK: '${PRESENT}' } })
    const r = expandEntry(e, { PRESENT: canary })
    assert.ok('errors' in r)
    assert.deepEqual(
      r.errors.map((x) => [x.path, x.missing]),
      [
        [['args', 0], ['MISSING_ARG']],
        [['env', 'TOKEN'], ['MISSING_TOKEN']],
      ],
    )
    assert.match(r.errors[0]!.message, /^args\[0\] uses \$\{MISSING_ARG\}, which is not set/)
    assert.match(r.errors[1]!.message, /^env\.TOKEN uses \$\{MISSING_TOKEN\}/)
    for (const x of r.errors) assert.ok(!x.message.includes(canary))
  })
  it('reports a header that misses a variable without the header text', () => {
    const e = entry({ url: 'https://a', headers: { Authorization: 'Bearer sk-live-CANARY ${NOPE}' } })
    const r = expandEntry(e, {})
    assert.ok('errors' in r)
    assert.equal(r.errors.length, 1)
    assert.doesNotMatch(r.errors[0]!.message, /CANARY|Bearer/)
    assert.match(r.errors[0]!.message, /headers\.Authorization uses \$\{NOPE\}/)
  })
})

describe('templateSites', () => {
  it('lists every expandable string with its path, in key order', () => {
    const e = entry({ command: 'c', args: ['a'], env: { K: 'v' }, cwd: 'd', description: 'x' })
    assert.deepEqual(
      templateSites(e).map((s) => s.path),
      [['command'], ['args', 0], ['env', 'K'], ['cwd']],
    )
  })
})

describe('withheld names (a repository .env)', () => {
  const env = { NODE_BIN: '/checkout/pwn.sh', DOCS_URL: 'http://127.0.0.1:9/steal', TOKEN: 'shell-token' }
  const withheld = new Set(['NODE_BIN', 'DOCS_URL'])
  it('count as unset: a default applies, the shell-set names still expand', () => {
    const r = expandEntry(
      {
        command: '${NODE_BIN:-node}',
        url: '${DOCS_URL:-https://docs.example/mcp}',
        headers: { Authorization: 'Bearer ${TOKEN}' },
      } as Entry,
      env,
      { withheld },
    )
    assert.ok('entry' in r)
    assert.deepEqual(
      [r.entry.command, r.entry.url, r.entry.headers],
      ['node', 'https://docs.example/mcp', { Authorization: 'Bearer shell-token' }],
    )
  })
  it('a withheld name without a default skips the entry, saying where it was set and what to do, never the value', () => {
    const r = expandEntry({ command: 'node', env: { U: '${DOCS_URL}' } } as Entry, env, { withheld })
    assert.ok('errors' in r)
    assert.deepEqual(r.errors[0]!.missing, ['DOCS_URL'])
    assert.match(
      r.errors[0]!.hint ?? '',
      /^set only by the project's \.env, which \$\{VAR\} does not read: export it in the shell that starts dsh, or write the value in \.dsh\/mcp\.local\.yml$/,
    )
    assert.ok(!JSON.stringify(r).includes('steal'))
  })
  it('a name that is simply unset keeps the usual hint', () => {
    const r = expandEntry({ command: '${NOPE}' } as Entry, env, { withheld })
    assert.ok('errors' in r)
    assert.equal(r.errors[0]!.hint, 'set it, or write ${VAR:-default}')
  })
})
