/**
 * Differential test against the REAL official schema of the installed
 * `@deepseek-ai/dsh-mcp-client` (a Schemastery union; `Config(value)`
 * validates + fills defaults and throws on invalid input, and lets unknown
 * keys through untouched).
 *
 * The official verdict on a value is `Config(value)` followed by the
 * client's own mount-time reconnect check: its real `apply` is called with a
 * stub context whose first `ctx.effect` throws a sentinel — `apply` judges
 * the reconnect policy before that first effect, so a sentinel means
 * "accepted", anything else is the client's own refusal. Nothing connects.
 *
 * For every corpus case (test/fixtures/config/official-corpus.json):
 * - our pipeline (parse → checkEntry → expandEntry → toOfficialConfig) and
 *   the official verdict on the naive mapping of the raw entry both match the
 *   expected verdicts, and any difference is explained (`why`);
 * - whatever we accept, the real Config accepts, keeping every field we wrote;
 * - whatever we reject comes with a clear error diagnostic.
 * The drift test compares the official union's keys (and types, defaults,
 * required-ness) with the zod mirror in src/config/official.ts: it fails
 * loudly when the official Config gains, loses or retypes a field. The
 * mirror may hold more than the installed client — only the fields later
 * lines add (LATER_FIELDS) — and the host gate (hostGaps over the shape read
 * from the installed client's own Config) then refuses each of them, for
 * every field and transport, while passing every field the client has.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { apply, Config } from '@deepseek-ai/dsh-mcp-client'
import { formatDiagnostic } from '../../src/config/diagnostics.ts'
import { expandEntry } from '../../src/config/expand.ts'
import {
  gapMessage,
  hostGaps,
  LATER_FIELDS,
  mirroredKeys,
  OfficialHttpSchema,
  OfficialStdioSchema,
  toOfficialConfig,
} from '../../src/config/official.ts'
import { hostClientShape } from '../../src/host/client-shape.ts'
import { allDiagnostics, parseConfigText } from '../../src/config/parse.ts'
import { OFFICIAL_RECONNECT_DEFAULTS, ReconnectSchema } from '../../src/config/schema.ts'
import { SERVER_NAME_PATTERN } from '../../src/config/server-name.ts'

interface Case {
  name: string
  server?: string
  entry: Record<string, unknown>
  env?: Record<string, string>
  ours: 'accept' | 'reject'
  official: 'accept' | 'reject'
  why?: string
}

const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/config/official-corpus.json', import.meta.url), 'utf8'),
) as { cases: Case[] }
const ROOT = '/proj'
const FRIENDLY_ONLY = ['type', 'tools', 'description', 'enabled']

type Verdict = { ok: true; value: Record<string, unknown> } | { ok: false; error: string }

const SENTINEL = new Error('sentinel: reconnect policy accepted')
const stubCtx = {
  effect() {
    throw SENTINEL
  },
}

/** The installed client's verdict: schema, then its mount-time reconnect check. */
async function official(value: unknown): Promise<Verdict> {
  let normalized: Record<string, unknown>
  try {
    normalized = Config(value as never) as unknown as Record<string, unknown>
  } catch (err) {
    return { ok: false, error: (err as Error).message }
  }
  try {
    await apply(stubCtx as never, normalized as never)
    return { ok: false, error: 'apply resolved with a stub context: the differential probe needs updating' }
  } catch (err) {
    if (err !== SENTINEL) return { ok: false, error: (err as Error).message }
  }
  return { ok: true, value: normalized }
}

/** What a user would get writing the entry straight into the official config (transport spelled or inferred). */
function naive(server: string, entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(entry)) if (!FRIENDLY_ONLY.includes(k) && k !== 'transport') out[k] = v
  const spelled = (entry.transport ?? entry.type) as unknown
  const transport =
    spelled === 'http'
      ? 'streamable-http'
      : (spelled ?? (entry.command !== undefined ? 'stdio' : entry.url !== undefined ? 'streamable-http' : undefined))
  return { ...(transport !== undefined ? { transport } : {}), serverName: server, ...out }
}

type Ours = { ok: true; config: Record<string, unknown> } | { ok: false; errors: string[] }

/** Our whole pipeline, from file text to the official config. */
function ours(server: string, entry: Record<string, unknown>, env: Record<string, string>): Ours {
  const parsed = parseConfigText(JSON.stringify({ servers: { [server]: entry } }), {
    file: '<corpus>',
    format: 'friendly',
  })
  const errors = allDiagnostics(parsed)
    .filter((d) => d.severity === 'error')
    .map((d) => formatDiagnostic(d))
  const e = parsed.entries[0]
  if (!e?.entry) return { ok: false, errors }
  const expanded = expandEntry(e.entry, env)
  if ('errors' in expanded) return { ok: false, errors: expanded.errors.map((x) => x.message) }
  return {
    ok: true,
    config: toOfficialConfig(server, expanded.entry, { root: ROOT, platform: 'linux' }) as unknown as Record<
      string,
      unknown
    >,
  }
}

describe('official differential', () => {
  it('the corpus has at least 40 cases, both transports, and both verdicts', () => {
    const cases = corpus.cases
    assert.ok(cases.length >= 40)
    assert.equal(new Set(cases.map((c) => c.name)).size, cases.length)
    assert.ok(cases.some((c) => c.entry.url !== undefined && c.ours === 'accept'))
    assert.ok(cases.some((c) => c.entry.command !== undefined && c.ours === 'accept'))
    assert.ok(cases.some((c) => c.ours === 'reject' && c.official === 'reject'))
    assert.ok(cases.filter((c) => c.entry.reconnect !== undefined).length >= 10)
  })
  for (const c of corpus.cases) {
    it(c.name, async () => {
      const server = c.server ?? 'srv'
      const raw = await official(naive(server, c.entry))
      assert.equal(
        raw.ok ? 'accept' : 'reject',
        c.official,
        `official verdict on the raw mapping${raw.ok ? '' : `: ${raw.error}`}`,
      )
      const mine = ours(server, c.entry, c.env ?? {})
      assert.equal(
        mine.ok ? 'accept' : 'reject',
        c.ours,
        mine.ok ? JSON.stringify(mine.config) : mine.errors.join('\n'),
      )
      if (c.ours !== c.official)
        assert.match(c.why ?? '', c.ours === 'reject' ? /^stricter: / : /^lenient: /, 'a difference must be explained')
      else assert.equal(c.why, undefined)
      if (mine.ok && hostGaps(mine.config, hostClientShape()!).length > 0) {
        // A later-line transport or field: the installed client refuses it, and so does the host gate, by name.
        assert.equal((await official(mine.config)).ok, false)
        assert.match(gapMessage(hostGaps(mine.config, hostClientShape()!), hostClientShape()!), /does not support/)
      } else if (mine.ok) {
        const produced = await official(mine.config)
        assert.ok(produced.ok, `the real Config refused what we produced: ${produced.ok ? '' : produced.error}`)
        for (const [key, value] of Object.entries(mine.config)) {
          if (key === 'reconnect')
            assert.deepEqual(
              { ...(produced.value.reconnect as object), ...(value as object) },
              produced.value.reconnect,
            )
          else assert.deepEqual(produced.value[key], value, `official Config changed "${key}"`)
        }
        for (const key of Object.keys(c.entry)) {
          if (FRIENDLY_ONLY.includes(key) || key === 'transport') continue
          assert.ok(key in mine.config, `"${key}" was written by the user but is missing from the official config`)
          if (key === 'toolCallTimeoutMs' || key === 'failOnStartupError') assert.equal(mine.config[key], c.entry[key])
        }
        const written = new Set([...Object.keys(c.entry), 'transport', 'serverName', 'cwd'])
        for (const key of Object.keys(mine.config))
          assert.ok(written.has(key), `"${key}" was written though the user did not write it`)
        assert.equal(mine.config.transport, c.entry.url !== undefined ? 'streamable-http' : 'stdio')
        if (mine.config.transport === 'stdio') assert.match(String(mine.config.cwd), /^\//)
      } else {
        assert.ok(mine.errors.length > 0)
        for (const m of mine.errors) {
          assert.ok(m.length > 10)
          assert.doesNotMatch(m, /\n|\bError:|^\s+at /)
        }
      }
    })
  }
})

interface SchemaNode {
  type: string
  value?: unknown
  meta: { required?: boolean; default?: unknown; pattern?: { source: string } }
  dict?: Record<string, SchemaNode>
  list?: SchemaNode[]
  inner?: SchemaNode
}

/** zod type name of a mirror field → the Schemastery type name it mirrors. */
const ZOD_TO_SCHEMASTERY: Record<string, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  array: 'array',
  record: 'dict',
  object: 'object',
  literal: 'const',
}

function zodInfo(field: unknown): { type: string; optional: boolean } {
  let def = (field as { def: { type: string; innerType?: unknown } }).def
  const optional = def.type === 'optional'
  if (optional) def = (def.innerType as { def: typeof def }).def
  return { type: def.type, optional }
}

describe('official schema drift', () => {
  const union = Config as unknown as SchemaNode
  const branches = new Map((union.list ?? []).map((b) => [String(b.dict?.transport?.value), b]))
  const mirrors = { stdio: OfficialStdioSchema.shape, 'streamable-http': OfficialHttpSchema.shape } as Record<
    string,
    Record<string, unknown>
  >

  it('the official Config is a union of transports we all map', () => {
    assert.equal(union.type, 'union')
    assert.deepEqual([...branches.keys()].sort(), ['stdio', 'streamable-http'])
    for (const t of branches.keys()) assert.ok(t in mirroredKeys(), `${t} is mapped`)
  })
  for (const transport of ['stdio', 'streamable-http'] as const) {
    it(`${transport}: the mirror has exactly the official keys, types and required fields`, () => {
      const dict = branches.get(transport)?.dict ?? {}
      const official = Object.keys(dict).sort()
      const later = mirroredKeys()[transport].filter((k) => !official.includes(k))
      assert.deepEqual(
        mirroredKeys()[transport].filter((k) => official.includes(k)),
        official,
        'every official key is mirrored',
      )
      for (const k of later)
        assert.ok(
          LATER_FIELDS[k],
          `${transport}.${k} is mirrored but neither in the installed client nor a known later-line field`,
        )
      for (const [key, node] of Object.entries(dict)) {
        const mine = zodInfo(mirrors[transport]![key])
        assert.equal(
          ZOD_TO_SCHEMASTERY[mine.type],
          node.type,
          `${transport}.${key}: official type ${node.type}, mirror ${mine.type}`,
        )
        if (node.type === 'array' || node.type === 'dict')
          assert.equal(node.inner?.type, 'string', `${transport}.${key} holds strings`)
        // The mirror requires transport on purpose (omitting it fails obscurely); otherwise required-ness matches.
        if (key !== 'transport')
          assert.equal(!mine.optional, node.meta.required === true, `${transport}.${key} required-ness`)
      }
    })
    it(`${transport}: reconnect keys and defaults match`, () => {
      const rc = branches.get(transport)?.dict?.reconnect?.dict ?? {}
      assert.deepEqual(Object.keys(rc).sort(), Object.keys(ReconnectSchema.shape).sort())
      assert.equal(rc.initialDelayMs?.meta.default, OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs)
      assert.equal(rc.maxDelayMs?.meta.default, OFFICIAL_RECONNECT_DEFAULTS.maxDelayMs)
    })
    it(`${transport}: serverName pattern matches ours`, () => {
      assert.equal(branches.get(transport)?.dict?.serverName?.meta.pattern?.source, SERVER_NAME_PATTERN.source)
    })
  }
})

/** A sample value the official Config would accept for each mirrored field. */
const SAMPLE: Record<string, unknown> = {
  command: 'node',
  args: ['a.js'],
  env: { A: 'b' },
  cwd: '/proj',
  url: 'https://mcp.example.test/mcp',
  headers: { A: 'b' },
  toolCallTimeoutMs: 5000,
  failOnStartupError: true,
  maxInstructionBytes: 4096,
  oauth: { clientName: 'dsh' },
  reconnect: { maxAttempts: 2 },
}

describe('the mirror against the installed client, field by field (host gate)', () => {
  const host = hostClientShape()
  const installed = (Config as unknown as SchemaNode).list ?? []
  it('the installed client shape is read from its own Config, with its version', () => {
    assert.ok(host, 'the installed Config reads as a union of transports')
    assert.deepEqual(Object.keys(host.transports).sort(), ['stdio', 'streamable-http'])
    assert.equal(
      host.version,
      JSON.parse(
        readFileSync(new URL('../../node_modules/@deepseek-ai/dsh-mcp-client/package.json', import.meta.url), 'utf8'),
      ).version,
    )
  })
  for (const transport of ['stdio', 'streamable-http'] as const) {
    const dict = installed.find((b) => b.dict?.transport?.value === transport)?.dict ?? {}
    const base =
      transport === 'stdio'
        ? { transport, serverName: 'srv', command: 'node' }
        : { transport, serverName: 'srv', url: 'https://mcp.example.test/mcp' }
    for (const key of mirroredKeys()[transport].filter((k) => k !== 'transport' && k !== 'serverName')) {
      it(`${transport}.${key}: ${key in dict ? 'passed, and kept by the real Config' : 'refused with the field and the host version'}`, async () => {
        assert.ok(key in SAMPLE, `a sample value for ${key}`)
        const config = { ...base, [key]: SAMPLE[key] }
        const gaps = hostGaps(config, host!)
        if (key in dict) {
          assert.deepEqual(gaps, [])
          const verdict = await official(config)
          assert.ok(verdict.ok, verdict.ok ? '' : verdict.error)
          if (key === 'reconnect') assert.equal((verdict.value.reconnect as { maxAttempts: number }).maxAttempts, 2)
          else assert.deepEqual(verdict.value[key], SAMPLE[key])
        } else {
          assert.equal(gaps.length, 1)
          const message = gapMessage(gaps, host!)
          assert.ok(message.includes(`"${key}" (from ${LATER_FIELDS[key]})`), message)
          assert.ok(message.includes(host!.version), message)
        }
      })
    }
  }
  it('a transport the installed client lacks is refused by name', () => {
    assert.deepEqual(hostGaps({ transport: 'sse', serverName: 'srv', url: 'https://x.test/sse' }, host!), [
      'the "sse" transport (from a later line)',
    ])
    const mine = ours('srv', { type: 'sse', url: 'https://x.test/sse', headers: { A: 'b' } }, {})
    assert.ok(mine.ok)
    assert.deepEqual(mine.config, {
      transport: 'sse',
      serverName: 'srv',
      url: 'https://x.test/sse',
      headers: { A: 'b' },
    })
    assert.match(
      gapMessage(hostGaps(mine.config, host!), host!),
      /does not support the "sse" transport \(from a later line\)/,
    )
  })
  it('oauth travels to an http config as written; a stdio entry with oauth is refused', () => {
    const mine = ours(
      'srv',
      { url: 'https://x.test/mcp', oauth: { clientName: 'dsh', redirectUrl: 'http://127.0.0.1:9/cb' } },
      {},
    )
    assert.ok(mine.ok)
    assert.deepEqual(mine.config.oauth, { clientName: 'dsh', redirectUrl: 'http://127.0.0.1:9/cb' })
    const bad = ours('srv', { command: 'node', oauth: { clientName: 'dsh' } }, {})
    assert.ok(!bad.ok && bad.errors.some((e) => /"oauth" applies only to http servers/.test(e)))
    const unknown = parseConfigText(
      JSON.stringify({ servers: { s: { url: 'https://x.test/mcp', oauth: { clientId: 'x' } } } }),
      { file: '<t>', format: 'friendly' },
    )
    assert.ok(
      allDiagnostics(unknown).some((d) => /clientId/.test(d.message)),
      'an unknown oauth key is named',
    )
  })
  it('maxInstructionBytes travels from the friendly file to the mapped config, as written', () => {
    const mine = ours('srv', { command: 'node', maxInstructionBytes: 4096 }, {})
    assert.ok(mine.ok)
    assert.equal(mine.config.maxInstructionBytes, 4096)
    const bad = ours('srv', { command: 'node', maxInstructionBytes: 0 }, {})
    assert.ok(!bad.ok && bad.errors.some((e) => /maxInstructionBytes/.test(e)))
  })
})
