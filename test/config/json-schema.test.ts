// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * The JSON Schema editors use (yaml-language-server): it accepts the format's
 * example file, constrains server names with the serverName pattern, and
 * completes transports — checked with a real draft 2020-12 validator.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { parse } from 'yaml'
import { friendlyJsonSchema } from '../../src/config/json-schema.ts'
import { parseConfigText } from '../../src/config/parse.ts'

const FORMAT_EXAMPLE = `# yaml-language-server: $schema=./node_modules/dsh-project-mcp/schema/dsh-mcp.schema.json
servers:
  github:
    command: npx
    args: [-y, "@modelcontextprotocol/server-github"]
    env:
      GITHUB_TOKEN: \${GITHUB_TOKEN}
  docs:
    url: https://mcp.example.com/mcp
    headers:
      Authorization: Bearer \${DOCS_TOKEN:-anonymous}
  scripts:
    command: node
    args: [./tools/mcp-server.js]
    cwd: tools
    toolCallTimeoutMs: 120000
    reconnect: { maxAttempts: 3 }
    tools: { exclude: ["delete_*"] }
    description: Repo scripts
    enabled: false
`

const ajv = new Ajv2020({ allErrors: true, strict: false })
const validate = ajv.compile(friendlyJsonSchema())
const valid = (doc: unknown) => validate(doc) === true
const errorsOf = (doc: unknown) =>
  validate(doc)
    ? []
    : (validate.errors ?? []).map((e: { instancePath: string; keyword: string }) => `${e.instancePath} ${e.keyword}`)

describe('friendly JSON Schema', () => {
  it('is a draft 2020-12 schema with a title', () => {
    const s = friendlyJsonSchema()
    assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema')
    assert.match(String(s.title), /dsh-project-mcp/)
  })
  it('accepts the full format example (every key), which the loader also accepts without a problem', () => {
    assert.deepEqual(errorsOf(parse(FORMAT_EXAMPLE)), [])
    const parsed = parseConfigText(FORMAT_EXAMPLE, { file: 'mcp.yml', format: 'friendly' })
    assert.deepEqual(parsed.diagnostics, [])
    assert.deepEqual(
      parsed.entries.map((e) => [e.name, e.entry !== undefined, e.diagnostics.length]),
      [
        ['github', true, 0],
        ['docs', true, 0],
        ['scripts', true, 0],
      ],
    )
  })
  it('accepts a $schema key at the top level', () => {
    assert.ok(valid({ $schema: './x.json', servers: {} }))
  })
  it('constrains server names with the serverName pattern', () => {
    assert.ok(valid({ servers: { 'ok_Name-1': { command: 'x' } } }))
    for (const name of ['my server', 'a'.repeat(33), '服务', '']) {
      assert.deepEqual(
        errorsOf({ servers: { [name]: { command: 'x' } } }),
        ['/servers pattern', '/servers propertyNames'],
        name,
      )
    }
  })
  it('completes transport and type to the accepted spellings', () => {
    assert.ok(valid({ servers: { a: { url: 'https://a', type: 'http' } } }))
    assert.ok(valid({ servers: { a: { url: 'https://a', type: 'sse' } } }))
    assert.deepEqual(errorsOf({ servers: { a: { url: 'https://a', type: 'ws' } } }), ['/servers/a/type enum'])
    assert.deepEqual(errorsOf({ servers: { a: { url: 'https://a', transport: 'websocket' } } }), [
      '/servers/a/transport enum',
    ])
  })
  it('refuses wrong types the loader refuses', () => {
    assert.deepEqual(errorsOf({ servers: { a: { command: 'x', args: [{ k: 1 }] } } }), ['/servers/a/args/0 type'])
    assert.deepEqual(errorsOf({ servers: { a: { command: 'x', toolCallTimeoutMs: 0 } } }), [
      '/servers/a/toolCallTimeoutMs minimum',
    ])
    assert.deepEqual(errorsOf({ servers: { a: { command: 'x', reconnect: { maxAttempts: 0 } } } }), [
      '/servers/a/reconnect/maxAttempts minimum',
    ])
  })
  it('allows unquoted scalars in args and env, as the loader does', () => {
    assert.ok(valid({ servers: { a: { command: 'x', args: ['--port', 8080], env: { PORT: 3000, DEBUG: true } } } }))
  })
  it('leaves unknown entry keys to the loader (a warning there, no editor error)', () => {
    assert.ok(valid({ servers: { a: { command: 'x', descripton: 'typo' } } }))
  })
})
