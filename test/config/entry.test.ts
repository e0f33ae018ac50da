// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * checkEntry / transportOf / suggest: shape, transport inference and the
 * cross-field rules of the friendly format (docs/guide/format.md).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkEntry, type Problem, suggest, transportOf } from '../../src/config/entry.ts'
import { ENTRY_KEYS } from '../../src/config/schema.ts'

const errors = (ps: Problem[]) => ps.filter((p) => p.severity === 'error')
const warnings = (ps: Problem[]) => ps.filter((p) => p.severity === 'warning')

/** The single error of a rejected entry. */
function oneError(raw: unknown, opts = {}): Problem {
  const r = checkEntry(raw, opts)
  assert.equal(r.entry, undefined, 'entry must be rejected')
  const errs = errors(r.problems)
  assert.equal(errs.length, 1, `exactly one error, got ${JSON.stringify(errs)}`)
  return errs[0]!
}

describe('transport inference', () => {
  it('command ⇒ stdio, url ⇒ streamable-http', () => {
    assert.equal(transportOf({ command: 'x' }), 'stdio')
    assert.equal(transportOf({ url: 'https://a' }), 'streamable-http')
    assert.equal(transportOf({}), undefined)
  })
  it('explicit spellings map to the official names', () => {
    assert.equal(transportOf({ url: 'https://a', type: 'http' }), 'streamable-http')
    assert.equal(transportOf({ url: 'https://a', transport: 'streamable-http' }), 'streamable-http')
    assert.equal(transportOf({ command: 'x', transport: 'stdio' }), 'stdio')
  })
  for (const [raw, ok] of [
    [{ command: 'x', transport: 'stdio' }, true],
    [{ command: 'x', type: 'stdio' }, true],
    [{ url: 'https://a', type: 'http' }, true],
    [{ url: 'https://a', transport: 'streamable-http' }, true],
    [{ url: 'https://a', transport: 'http', type: 'http' }, true],
  ] as const) {
    it(`accepts ${JSON.stringify(raw)}`, () => {
      const r = checkEntry(raw)
      assert.equal(r.entry !== undefined, ok, JSON.stringify(r.problems))
    })
  }
  it('explicit stdio with a url is an error that says what to write', () => {
    const p = oneError({ url: 'https://a', transport: 'stdio' })
    assert.equal(p.code, 'conflict')
    assert.deepEqual(p.path, ['transport'])
    assert.match(p.message, /needs "command".*"transport: http"/)
  })
  it('explicit http with a command is an error', () => {
    const p = oneError({ command: 'x', type: 'http' })
    assert.equal(p.code, 'conflict')
    assert.deepEqual(p.path, ['type'])
    assert.match(p.message, /needs "url"/)
  })
  it('transport and type that disagree is an error', () => {
    const p = oneError({ url: 'https://a', transport: 'http', type: 'stdio' })
    assert.equal(p.code, 'conflict')
    assert.match(p.message, /disagree/)
  })
  it('sse is a transport of its own (the host gate decides at mount whether the host has it)', () => {
    const r = checkEntry({ url: 'https://a.test/sse', type: 'sse', headers: { A: 'b' } })
    assert.ok(r.entry, JSON.stringify(r.problems))
    assert.equal(transportOf(r.entry), 'sse')
    const p = oneError({ command: 'x', type: 'sse' })
    assert.match(p.message, /needs "url" for the sse transport/)
  })
  it('an unknown transport names what is supported', () => {
    const p = oneError({ command: 'x', transport: 'websocket' })
    assert.equal(p.code, 'transport')
    assert.match(p.message, /unknown transport "websocket"; supported: stdio, http/)
  })
  it('a transport the installed client lacks is refused with the supported list', () => {
    const p = oneError({ url: 'https://a' }, { supported: ['stdio'] })
    assert.equal(p.code, 'transport')
    assert.deepEqual(p.path, ['url'])
    assert.match(p.message, /not supported.*supported: stdio$/)
  })
  it('command and url together is an error', () => {
    const p = oneError({ command: 'x', url: 'https://a' })
    assert.equal(p.code, 'conflict')
    assert.match(p.message, /both "command" and "url"/)
  })
  it('neither command nor url is an error outside the local layer', () => {
    const p = oneError({ env: { A: '1' } })
    assert.equal(p.code, 'missing-target')
  })
})

describe('transport-only keys', () => {
  for (const key of ['args', 'env', 'cwd'] as const) {
    it(`"${key}" on an http server is a conflict`, () => {
      const value = key === 'args' ? ['a'] : key === 'env' ? { A: '1' } : 'dir'
      const p = oneError({ url: 'https://a', [key]: value })
      assert.equal(p.code, 'conflict')
      assert.deepEqual(p.path, [key])
      assert.equal(p.atKey, true)
    })
  }
  it('"headers" on a stdio server is a conflict', () => {
    const p = oneError({ command: 'x', headers: { A: 'b' } })
    assert.equal(p.code, 'conflict')
    assert.deepEqual(p.path, ['headers'])
  })
})

describe('values', () => {
  it('coerces unquoted scalars of args and env to their text', () => {
    const r = checkEntry({ command: 'x', args: ['--port', 8080, true, 1.5], env: { PORT: 3000, DEBUG: false } })
    assert.deepEqual(r.entry?.args, ['--port', '8080', 'true', '1.5'])
    assert.deepEqual(r.entry?.env, { PORT: '3000', DEBUG: 'false' })
  })
  it('coerces header scalars', () => {
    const r = checkEntry({ url: 'https://a', headers: { 'X-Retries': 3 } })
    assert.deepEqual(r.entry?.headers, { 'X-Retries': '3' })
  })
  it('refuses a mapping inside args, naming the element and what it got', () => {
    const p = oneError({ command: 'x', args: ['a', { b: 1 }] })
    assert.equal(p.code, 'bad-value')
    assert.deepEqual(p.path, ['args', 1])
    assert.match(p.message, /expected a string.*got a mapping/)
  })
  it('refuses args written as one string', () => {
    const p = oneError({ command: 'x', args: '--a --b' })
    assert.deepEqual(p.path, ['args'])
    assert.match(p.message, /expected a list, got a string/)
  })
  it('refuses a non-boolean enabled, with what it got', () => {
    const p = oneError({ command: 'x', enabled: 'no' })
    assert.deepEqual(p.path, ['enabled'])
    assert.match(p.message, /expected true or false, got a string/)
  })
  it('refuses an empty command', () => {
    const p = oneError({ command: '' })
    assert.deepEqual(p.path, ['command'])
    assert.match(p.message, /must not be empty/)
  })
  for (const bad of [0, -5, 1.5, 2 ** 31]) {
    it(`refuses toolCallTimeoutMs ${bad}`, () => {
      const p = oneError({ command: 'x', toolCallTimeoutMs: bad })
      assert.deepEqual(p.path, ['toolCallTimeoutMs'])
    })
  }
  it('refuses a non-http url', () => {
    const p = oneError({ url: 'ftp://a' })
    assert.deepEqual(p.path, ['url'])
    assert.match(p.message, /http:\/\/ or https:\/\//)
  })
  it('does not judge a url that holds a variable until it is expanded', () => {
    assert.ok(checkEntry({ url: '${DOCS_URL}' }).entry)
  })
  it('refuses a malformed ${ in an expandable field, naming the field', () => {
    const p = oneError({ command: 'x', args: ['ok', 'a${b'] })
    assert.equal(p.code, 'bad-variable')
    assert.deepEqual(p.path, ['args', 1])
  })
  it('refuses reconnect.initialDelayMs above the backoff ceiling (the official client throws at mount)', () => {
    const p = oneError({ command: 'x', reconnect: { initialDelayMs: 60000 } })
    assert.deepEqual(p.path, ['reconnect', 'initialDelayMs'])
    assert.match(p.message, /maxDelayMs/)
    assert.ok(checkEntry({ command: 'x', reconnect: { initialDelayMs: 60000, maxDelayMs: 60000 } }).entry)
    assert.equal(oneError({ command: 'x', reconnect: { initialDelayMs: 10, maxDelayMs: 5 } }).code, 'bad-value')
  })
  it('a non-mapping entry is one error', () => {
    for (const raw of [null, 'npx', 3, ['a']]) assert.equal(oneError(raw).code, 'bad-entry')
  })
})

describe('unknown keys', () => {
  it('warn with "did you mean" and do not reject the entry', () => {
    const r = checkEntry({ command: 'x', evn: { A: '1' }, descripton: 'd' })
    assert.ok(r.entry)
    const w = warnings(r.problems)
    assert.equal(w.length, 2)
    assert.equal(w[0]!.code, 'unknown-key')
    assert.match(w[0]!.message, /unknown key "evn".*did you mean "env"\?/)
    assert.match(w[1]!.message, /did you mean "description"\?/)
    assert.equal(w[0]!.atKey, true)
    assert.equal('evn' in r.entry, false)
  })
  it('say nothing when no known key is close', () => {
    const w = warnings(checkEntry({ command: 'x', zzzzzzzzzz: 1 }).problems)
    assert.equal(w.length, 1)
    assert.doesNotMatch(w[0]!.message, /did you mean/)
  })
  it('inside reconnect and tools warn too, and are dropped', () => {
    const r = checkEntry({ command: 'x', reconnect: { maxAttempt: 3, enabled: true }, tools: { exlude: ['a'] } })
    assert.ok(r.entry, JSON.stringify(r.problems))
    assert.deepEqual(r.entry.reconnect, { enabled: true })
    assert.deepEqual(r.entry.tools, {})
    const w = warnings(r.problems)
    assert.deepEqual(
      w.map((p) => p.path),
      [
        ['reconnect', 'maxAttempt'],
        ['tools', 'exlude'],
      ],
    )
    assert.match(w[0]!.message, /did you mean "maxAttempts"\?/)
    assert.match(w[1]!.message, /did you mean "exclude"\?/)
  })
  it('suggest finds close keys case-insensitively and refuses far ones', () => {
    assert.equal(suggest('Command', ENTRY_KEYS), 'command')
    assert.equal(suggest('header', ENTRY_KEYS), 'headers')
    assert.equal(suggest('toolCallTimeout', ENTRY_KEYS), 'toolCallTimeoutMs')
    assert.equal(suggest('banana', ENTRY_KEYS), undefined)
    assert.equal(suggest('x', []), undefined)
  })
})

describe('partial overrides', () => {
  it('are allowed only with allowPartial and marked partial', () => {
    const r = checkEntry({ enabled: false }, { allowPartial: true })
    assert.equal(r.partial, true)
    assert.deepEqual(r.entry, { enabled: false })
    assert.equal(checkEntry({ env: { A: 'b' } }, { allowPartial: true }).entry?.env?.A, 'b')
  })
  for (const key of ['args', 'cwd', 'transport', 'type'] as const) {
    it(`may not set "${key}"`, () => {
      const value = key === 'args' ? ['a'] : key === 'cwd' ? 'd' : 'stdio'
      const p = oneError({ env: { A: '1' }, [key]: value }, { allowPartial: true })
      assert.equal(p.code, 'conflict')
      assert.deepEqual(p.path, [key])
    })
  }
})

describe('never throws', () => {
  it('on hostile shapes', () => {
    const cyclic: Record<string, unknown> = { command: 'x' }
    cyclic.self = cyclic
    for (const raw of [
      undefined,
      cyclic,
      Object.create(null),
      { command: 'x', env: null },
      { command: 'x', args: [null] },
      { url: 'https://a', headers: [] },
    ]) {
      assert.doesNotThrow(() => checkEntry(raw))
    }
  })
})
