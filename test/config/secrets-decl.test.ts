/**
 * The top-level `secrets:` map (pure): declarations with their defaults, and
 * problems by field path that name keys, never the value written.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readSecretDeclarations } from '../../src/config/secrets-decl.ts'

test('declarations: description kept, required defaults to true, an empty one is allowed', () => {
  const r = readSecretDeclarations({ A: { description: 'the token' }, B: { required: false }, C: null })
  assert.deepEqual(r.problems, [])
  assert.deepEqual(r.secrets, [
    { name: 'A', description: 'the token', required: true },
    { name: 'B', required: false },
    { name: 'C', required: true },
  ])
})

test('a value written in a declaration, a bad name or a bad field is a problem that never quotes the value', () => {
  const r = readSecretDeclarations({
    T: { value: 'sk-live-123456' },
    'bad name': {},
    U: 'sk-live-abcdef',
    V: { required: 'yes' },
  })
  assert.deepEqual(
    r.problems.map((p) => p.path.join('.')),
    ['secrets.T.value', 'secrets.bad name', 'secrets.U', 'secrets.V.required'],
  )
  assert.ok(!JSON.stringify(r).includes('sk-live'))
  assert.match(r.problems[0]!.message, /dsh-mcp secret set T/)
  assert.deepEqual(readSecretDeclarations(['x']).problems.length, 1)
})
