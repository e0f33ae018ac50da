/**
 * The field table (src/config/fields.ts) is the one list of per-server
 * fields: every place that lists fields is checked against it here — the
 * entry schema and its JSON Schema, the partial-override and transport rules,
 * the repository cap, the trust fingerprint, the tool-cache key, the mount
 * key and the settings a mount reads, the official client mapping, and the
 * field tables of docs/guide/format.md and its zh twin. A field added to the
 * table and not to one of those (or the other way round) fails a test here.
 * The CLI's derivations (get, export, import, add) are test/cli/fields.test.ts.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { checkEntry } from '../../src/config/entry.ts'
import { FIELD_NAMES, type FieldName, FIELDS, fieldSpec, type ValueType } from '../../src/config/fields.ts'
import { cacheFingerprint, trustFingerprint } from '../../src/config/fingerprint.ts'
import { friendlyJsonSchema } from '../../src/config/json-schema.ts'
import type { Row } from '../../src/config/layers.ts'
import { toOfficialConfig } from '../../src/config/official.ts'
import { type Entry, EntrySchema } from '../../src/config/schema.ts'
import { judgeView } from '../../src/plan/desired.ts'

/** Two different valid values of each value type. */
const SAMPLES: Record<ValueType, [unknown, unknown]> = {
  nonempty: ['one', 'two'],
  string: ['a', 'b'],
  'text-list': [['a'], ['b']],
  'text-map': [{ A: '1' }, { B: '2' }],
  boolean: [true, false],
  millis: [1000, 2000],
  millis0: [0, 5000],
  count: [10, 20],
  lifecycle: ['eager', 'lazy'],
  reconnect: [{ maxAttempts: 1 }, { maxAttempts: 2 }],
  oauth: [{ clientName: 'a' }, { clientName: 'b' }],
  tools: [{ include: ['a'] }, { include: ['b'] }],
  'always-load': [true, ['read_*']],
}
const STDIO: Entry = { command: 'node' }
const SECRET = new Uint8Array(32).fill(7)
/** The official launch a cache key is computed from. */
const launchOf = (e: Entry) =>
  toOfficialConfig('s', e, { root: '/p', platform: 'linux' }) as unknown as Record<string, unknown>
const HTTP: Entry = { url: 'http://127.0.0.1:1/mcp' }

/** The field's two values on an entry of a transport it applies to (transport/type: http vs sse). */
function variants(name: FieldName): [Entry, Entry] {
  const spec = fieldSpec(name)
  if (spec.trust === 'resolved')
    return [
      { ...HTTP, [name]: 'http' },
      { ...HTTP, [name]: 'sse' },
    ]
  const base = spec.transport === 'http' ? HTTP : STDIO
  const [a, b] = SAMPLES[spec.type]
  if (name === 'command') return [{ command: 'one' }, { command: 'two' }]
  if (name === 'url') return [HTTP, { url: 'http://127.0.0.1:2/mcp' }]
  return [
    { ...base, [name]: a },
    { ...base, [name]: b },
  ]
}

const differs = (f: (e: Entry) => string, name: FieldName) => {
  const [a, b] = variants(name)
  return f(a) !== f(b)
}

describe('the entry schema and its JSON Schema', () => {
  test('the schema has the table’s fields in its order, each described by its docs line', () => {
    assert.deepEqual(Object.keys(EntrySchema.shape), FIELD_NAMES)
    const servers = (friendlyJsonSchema().properties as Record<string, { additionalProperties: object }>).servers
    const entry = servers?.additionalProperties as Record<string, unknown>
    const props = entry.properties as Record<string, { description?: string }>
    assert.deepEqual(Object.keys(props), FIELD_NAMES)
    for (const name of FIELD_NAMES) assert.equal(props[name]?.description, fieldSpec(name).docs, name)
  })

  test('every sample value parses (the samples of this test are valid values of each type)', () => {
    for (const name of FIELD_NAMES) {
      for (const e of variants(name)) {
        const checked = checkEntry(e, { userFile: true })
        assert.ok(checked.entry, `${name}: ${JSON.stringify(checked.problems)}`)
      }
    }
  })
})

describe('rules the table states', () => {
  test('a partial local override may set exactly the fields marked override', () => {
    for (const name of FIELD_NAMES) {
      if (name === 'command' || name === 'url') continue
      const [, value] = SAMPLES[fieldSpec(name).type]
      const checked = checkEntry(
        { [name]: name === 'transport' || name === 'type' ? 'stdio' : value },
        { allowPartial: true },
      )
      const conflict = checked.problems.some((p) => p.code === 'conflict' && p.path[0] === name)
      assert.equal(conflict, !fieldSpec(name).override, name)
    }
  })

  test('a field of one transport on a server of the other is an error naming it', () => {
    for (const name of FIELD_NAMES) {
      const spec = fieldSpec(name)
      if (spec.transport === 'both' || name === 'command' || name === 'url') continue
      const wrong = spec.transport === 'stdio' ? HTTP : STDIO
      const checked = checkEntry({ ...wrong, [name]: SAMPLES[spec.type][0] })
      assert.ok(
        checked.problems.some((p) => p.code === 'conflict' && p.path[0] === name && p.message.includes(spec.transport)),
        `${name}: ${JSON.stringify(checked.problems)}`,
      )
    }
  })

  test('a repository file may not raise a capped field above its cap: clamped, with a warning at the field; the user file may', () => {
    const capped = FIELD_NAMES.filter((n) => fieldSpec(n).repositoryMax !== undefined)
    assert.deepEqual(capped, ['startupTimeoutMs'])
    for (const name of capped) {
      const max = fieldSpec(name).repositoryMax as number
      const repo = checkEntry({ command: 'node', [name]: max + 1 })
      assert.equal((repo.entry as Record<string, unknown>)[name], max)
      const warning = repo.problems.find((p) => p.path[0] === name)
      assert.equal(warning?.severity, 'warning')
      assert.match(warning?.message ?? '', new RegExp(`may not set more than ${max}`))
      const atCap = checkEntry({ command: 'node', [name]: max })
      assert.deepEqual(atCap.problems, [])
      const user = checkEntry({ command: 'node', [name]: max + 1 }, { userFile: true })
      assert.equal((user.entry as Record<string, unknown>)[name], max + 1)
      assert.deepEqual(user.problems, [])
    }
  })
})

describe('keys and fingerprints', () => {
  test('the trust fingerprint moves exactly with the fields marked for trust', () => {
    for (const name of FIELD_NAMES) {
      const spec = fieldSpec(name)
      const alone = differs((e) => trustFingerprint(e), name)
      const merged = differs((e) => trustFingerprint(e, ['project:mcp.yml', 'local:mcp.local.yml']), name)
      assert.equal(alone, spec.trust !== false && spec.trust !== 'merged', `${name} (one file)`)
      assert.equal(merged, spec.trust !== false, `${name} (merged)`)
    }
  })

  test('the tool-cache key moves exactly with the fields marked for it', () => {
    for (const name of FIELD_NAMES)
      assert.equal(
        differs((e) => cacheFingerprint({ name: 's', origin: '/p', launch: launchOf(e) }, SECRET), name),
        fieldSpec(name).cacheKey !== false,
        name,
      )
  })

  test('the mount key moves exactly with the fields marked for it; host fields reach the mount as settings', () => {
    const plan = (entry: Entry) => {
      const row: Row = { name: 's', scope: 'user', file: '/home/mcp.yml', state: 'active', entry, diagnostics: [] }
      const view = judgeView([row], null, { env: {}, dshHome: '/home', platform: 'linux', trust: () => 'trusted' })
      assert.equal(view.mounts.length, 1, JSON.stringify(view.placements))
      return view.mounts[0]!
    }
    for (const name of FIELD_NAMES) {
      const spec = fieldSpec(name)
      // `enabled: false` is not mounted at all: written vs absent instead.
      const [a, b] = name === 'enabled' ? [STDIO, { ...STDIO, enabled: true }] : variants(name)
      assert.equal(plan(a).key !== plan(b).key, spec.mount !== false, name)
      const settings = plan(b).settings ?? {}
      assert.equal(name in settings, spec.mount === 'host', `${name} in MountSpec.settings`)
    }
  })

  test('the official client gets the mapped fields and a copy of each copied one, nothing else', () => {
    const full = (base: Entry, transport: 'stdio' | 'http') =>
      Object.fromEntries(
        FIELD_NAMES.filter((n) => {
          const t = fieldSpec(n).transport
          return (t === 'both' || t === transport) && n !== 'transport' && n !== 'type' && n !== 'enabled'
        }).map((n) => [n, (base as Record<string, unknown>)[n] ?? SAMPLES[fieldSpec(n).type][0]]),
      ) as Entry
    for (const [transport, base] of [
      ['stdio', STDIO],
      ['http', HTTP],
    ] as const) {
      const entry = full(base, transport)
      assert.ok(checkEntry(entry).entry, JSON.stringify(checkEntry(entry).problems))
      const official = toOfficialConfig('s', entry, { root: '/p', platform: 'linux' }) as Record<string, unknown>
      const expected = FIELD_NAMES.filter((n) => n in entry && fieldSpec(n).official !== undefined)
      assert.deepEqual(Object.keys(official).sort(), ['serverName', 'transport', ...expected].sort(), transport)
      for (const n of expected)
        if (fieldSpec(n).official === 'copied') assert.deepEqual(official[n], (entry as Record<string, unknown>)[n], n)
    }
  })
})

/** The field column of the first table whose header starts `| field` / `| 字段`, top-level names in order. */
function docsTable(file: string): { names: string[]; transport: Map<string, string> } {
  const text = readFileSync(new URL(`../../docs/guide/${file}`, import.meta.url), 'utf8')
  const lines = text.split('\n')
  const start = lines.findIndex((l) => /^\| (field|字段) \|/.test(l))
  const names: string[] = []
  const transport = new Map<string, string>()
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim())
    const name = /^`([A-Za-z]+)/.exec(cells[1] ?? '')?.[1] ?? ''
    if (!names.includes(name)) names.push(name)
    transport.set(name, cells[3] ?? '')
  }
  return { names, transport }
}

describe('the docs', () => {
  for (const file of ['format.md', 'format.zh.md']) {
    test(`the field table of ${file} lists the table's fields in its order, each with its transport`, () => {
      const docs = docsTable(file)
      assert.deepEqual(docs.names, FIELD_NAMES)
      const word = { stdio: 'stdio', http: 'http', both: file.endsWith('zh.md') ? '两者' : 'both' }
      for (const name of FIELD_NAMES) assert.equal(docs.transport.get(name), word[FIELDS[name].transport], name)
    })
  }
})
