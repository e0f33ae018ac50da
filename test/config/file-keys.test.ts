/**
 * The file-level keys `inherit` and `disable` (config/file-keys.ts): read from
 * a friendly file's top level, bad values named at their path and ignored,
 * ignored with a warning in the user's file; the JSON Schema completes them.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { FILE_KEY_NAMES, readFileKeys } from '../../src/config/file-keys.ts'
import { FILE_KEYS } from '../../src/config/fields.ts'
import { friendlyJsonSchema } from '../../src/config/json-schema.ts'
import { parseConfigText } from '../../src/config/parse.ts'

describe('readFileKeys', () => {
  it('reads inherit and disable (names deduplicated)', () => {
    assert.deepEqual(readFileKeys({ inherit: false, disable: ['a', 'b', 'a'] }), {
      inherit: false,
      disable: ['a', 'b'],
      problems: [],
    })
  })
  it('a bad value is a problem at its path, the rest kept', () => {
    const got = readFileKeys({ inherit: 'no', disable: ['ok', 'bad name', 3] })
    assert.equal(got.inherit, undefined)
    assert.deepEqual(got.disable, ['ok'])
    assert.deepEqual(
      got.problems.map((p) => p.path),
      [['inherit'], ['disable', 1], ['disable', 2]],
    )
    assert.equal(readFileKeys({ disable: 'x' }).problems[0]!.severity, 'error')
  })
  it('ignored with a warning in the user file', () => {
    const got = readFileKeys({ inherit: false, disable: ['x'] }, { userFile: true })
    assert.equal(got.inherit, undefined)
    assert.equal(got.disable, undefined)
    assert.deepEqual(
      got.problems.map((p) => p.severity),
      ['warning', 'warning'],
    )
  })
})

describe('in a parsed file', () => {
  it('a friendly file carries them, with file:line:col for a bad value', () => {
    const ok = parseConfigText('inherit: false\ndisable: [memory]\nservers: {}\n', {
      file: '/p/.dsh/mcp.yml',
      format: 'friendly',
    })
    assert.equal(ok.inherit, false)
    assert.deepEqual(ok.disable, ['memory'])
    assert.equal(ok.diagnostics.length, 0)
    const bad = parseConfigText('servers: {}\ndisable:\n  - "no way"\n', {
      file: '/p/.dsh/mcp.yml',
      format: 'friendly',
    })
    const d = bad.diagnostics.find((x) => x.path === 'disable[0]' || x.path.startsWith('disable'))!
    assert.equal(d.line, 3)
    assert.equal(d.severity, 'error')
  })
  it('the fields table re-exports them and the JSON Schema completes them', () => {
    assert.deepEqual(FILE_KEY_NAMES, ['inherit', 'disable'])
    assert.ok(FILE_KEYS.disable.docs)
    const props = friendlyJsonSchema().properties as Record<string, { type?: string }>
    assert.equal(props.inherit?.type, 'boolean')
    assert.equal(props.disable?.type, 'array')
  })
})
