// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${VAR} templates
/**
 * The CLI's field lists derive from the field table (src/config/fields.ts):
 * `get`'s detail rows and `list --json`'s `settings`, `export`'s output keys
 * and its "no place for" note per target (a lazy server's `lifecycle` and
 * `idleTimeoutMs` are named, not dropped in silence), the importers' own
 * spellings (Codex's `startup_timeout_sec` → `startupTimeoutMs` in ms), and
 * `add`'s field flags. The repository cap reads as a warning in `list` and
 * `validate`; the user file is not capped.
 */
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { FIELD_NAMES, fieldSpec, flagName, REPOSITORY_STARTUP_CAP_MS } from '../../src/config/fields.ts'
import { importCodex } from '../../src/cli/importers/codex.ts'
import { importGemini } from '../../src/cli/importers/gemini.ts'
import { makeEnv } from '../support/cli-env.ts'
import { cleanupAll } from '../support/tmp.ts'

after(cleanupAll)

/** A stdio and an http entry with every field their transport takes (valid for a repository file). */
const STDIO_ALL = {
  command: 'node',
  args: ['s.js'],
  env: { A: '${A}' },
  cwd: 'tools',
  toolCallTimeoutMs: 5000,
  startupTimeoutMs: 7000,
  failOnStartupError: true,
  maxInstructionBytes: 4096,
  reconnect: { maxAttempts: 3 },
  tools: { exclude: ['rm'] },
  alwaysLoad: ['read_*'],
  description: 'all of it',
  enabled: true,
  lifecycle: 'lazy',
  idleTimeoutMs: 0,
}
const HTTP_ALL = {
  url: 'https://mcp.test/mcp',
  headers: { X: '${X}' },
  transport: 'http',
  toolCallTimeoutMs: 5000,
  startupTimeoutMs: 7000,
  oauth: { clientName: 'dsh' },
  alwaysLoad: true,
  lifecycle: 'eager',
}
const yaml = (servers: Record<string, unknown>) => `${JSON.stringify({ servers }, null, 2)}\n`

test('every field is written by the entries of this test (so the checks below cover the whole table)', () => {
  const covered = new Set([...Object.keys(STDIO_ALL), ...Object.keys(HTTP_ALL), 'type'])
  assert.deepEqual(
    FIELD_NAMES.filter((n) => !covered.has(n)),
    [],
  )
})

for (const format of ['claude', 'cursor', 'vscode'] as const) {
  test(`export --format ${format}: keys spelled as the table says, every other written field named in the note`, async () => {
    const env = makeEnv({ '.dsh/mcp.yml': yaml({ s: STDIO_ALL, h: HTTP_ALL }) })
    const r = await env.run(['export', '--format', format])
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    const servers = doc.mcpServers ?? doc.servers
    for (const [name, entry] of [
      ['s', STDIO_ALL],
      ['h', HTTP_ALL],
    ] as const) {
      const written = FIELD_NAMES.filter((k) => k in entry)
      const spelled = written.flatMap((k) => {
        const e = fieldSpec(k).export
        return e === 'implicit' || e[format] === undefined ? [] : [e[format]]
      })
      const noPlace = written.filter((k) => {
        const e = fieldSpec(k).export
        return e !== 'implicit' && e[format] === undefined
      })
      assert.deepEqual(
        Object.keys(servers[name]).filter((k) => k !== 'type'),
        spelled,
        `${name} keys`,
      )
      const note = new RegExp(
        `note: ${name}: ${format} has no place for ${noPlace.map((k) => `"${k}"`).join(', ')} \\(`,
      )
      assert.match(r.stderr, note, `${name} note`)
    }
  })
}

test('export names a lazy server’s lifecycle and idleTimeoutMs (they were dropped in silence)', async () => {
  const env = makeEnv({
    '.dsh/mcp.yml': yaml({ lazy: { command: 'node', args: ['l.js'], lifecycle: 'lazy', idleTimeoutMs: 60000 } }),
  })
  const r = await env.run(['export'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /note: lazy: claude has no place for "lifecycle", "idleTimeoutMs" \(not exported\)/)
})

test('get shows a detail row per written setting of the table; list --json carries them as settings', async () => {
  const env = makeEnv({ '.dsh/mcp.yml': yaml({ s: STDIO_ALL, h: HTTP_ALL }) })
  for (const [name, entry] of [
    ['s', STDIO_ALL],
    ['h', HTTP_ALL],
  ] as const) {
    const r = await env.run(['get', name])
    assert.equal(r.code, 0, r.stderr)
    const settings = FIELD_NAMES.filter((k) => k in entry && fieldSpec(k).view === 'setting')
    for (const k of settings) {
      const label = fieldSpec(k).label ?? k
      assert.ok(label.length <= 11, `${k}: label "${label}" fits get's label column`)
      assert.match(r.stdout, new RegExp(`\\n  ${label.replace('.', '\\.')}: +\\S`), `${name}: ${k}`)
    }
  }
  const list = await env.run(['list', '--json'])
  const rows = JSON.parse(list.stdout) as { name: string; settings: Record<string, unknown> }[]
  assert.deepEqual(rows.find((r) => r.name === 's')?.settings, {
    toolCallTimeoutMs: 5000,
    startupTimeoutMs: 7000,
    failOnStartupError: true,
    maxInstructionBytes: 4096,
    reconnect: { maxAttempts: 3 },
    alwaysLoad: ['read_*'],
  })
  assert.match((await env.run(['get', 's'])).stdout, /\n {2}startup: +7000 ms\n/)
})

test('a repository value above the startup cap is clamped with a warning (list, validate); the user file is not capped', async () => {
  const over = REPOSITORY_STARTUP_CAP_MS * 5
  const env = makeEnv({ '.dsh/mcp.yml': yaml({ slow: { command: 'node', startupTimeoutMs: over } }) })
  mkdirSync(env.dshHome, { recursive: true })
  writeFileSync(`${env.dshHome}/mcp.yml`, yaml({ mine: { command: 'node', startupTimeoutMs: over } }))
  const rows = JSON.parse((await env.run(['list', '--json'])).stdout) as {
    name: string
    issues: string[]
    settings: Record<string, unknown>
  }[]
  const slow = rows.find((r) => r.name === 'slow')
  const mine = rows.find((r) => r.name === 'mine')
  assert.equal(slow?.settings.startupTimeoutMs, REPOSITORY_STARTUP_CAP_MS)
  assert.ok(
    slow?.issues.some((i) => /mcp\.yml:\d+:\d+: warning.*startupTimeoutMs.*may not set more than 120000/.test(i)),
    JSON.stringify(slow?.issues),
  )
  assert.equal(mine?.settings.startupTimeoutMs, over)
  assert.deepEqual(mine?.issues, [])
  const v = await env.run(['validate'])
  assert.match(`${v.stdout}${v.stderr}`, /startupTimeoutMs.*may not set more than 120000/)
})

test('the importers take the table’s spellings (seconds to ms)', () => {
  const codex = importCodex(
    '[mcp_servers.a]\ncommand = "node"\nstartup_timeout_sec = 20\ntool_timeout_sec = 1.5\n[mcp_servers.b]\ncommand = "node"\nstartup_timeout_ms = 2500\n[mcp_servers.c]\ncommand = "node"\nstartup_timeout_sec = "soon"\n',
  )
  assert.ok(Array.isArray(codex))
  assert.deepEqual(codex[0]?.entry, { command: 'node', startupTimeoutMs: 20000, toolCallTimeoutMs: 1500 })
  assert.deepEqual(codex[0]?.notes, [])
  assert.deepEqual(codex[1]?.entry, { command: 'node', startupTimeoutMs: 2500 })
  assert.equal(codex[2]?.invalid, '"startup_timeout_sec" is not a number')
  const gemini = importGemini(JSON.stringify({ mcpServers: { g: { command: 'node', timeout: 9000 } } }))
  assert.ok(Array.isArray(gemini))
  assert.deepEqual(gemini[0]?.entry, { command: 'node', toolCallTimeoutMs: 9000 })
  // Every spelling the table declares is one of these two importers'.
  for (const n of FIELD_NAMES)
    for (const source of Object.keys(fieldSpec(n).import ?? {})) assert.ok(['codex', 'gemini'].includes(source), n)
})

test('add: each field flag of the table writes its field', async () => {
  const values: Record<string, string> = {
    cwd: 'tools',
    toolCallTimeoutMs: '5000',
    startupTimeoutMs: '7000',
    description: 'd',
    lifecycle: 'lazy',
    idleTimeoutMs: '0',
  }
  const flagged = FIELD_NAMES.filter((n) => fieldSpec(n).flag !== undefined)
  assert.deepEqual(flagged, Object.keys(values))
  const env = makeEnv()
  const args = flagged.flatMap((n) => [flagName(fieldSpec(n).flag!.flags), values[n]!])
  const r = await env.run(['add', ...args, 'all', 'node', 's.js'])
  assert.equal(r.code, 0, r.stderr)
  const written = JSON.parse(JSON.stringify((await import('yaml')).parse(env.read('.dsh/mcp.yml')).servers.all))
  assert.deepEqual(Object.keys(written), ['command', 'args', ...flagged], 'keys in the table’s order')
  for (const n of flagged) assert.equal(String(written[n]), values[n], n)
  const bad = await env.run(['add', '--startup-timeout', 'soon', 'x', 'node'])
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /--startup-timeout: expected a whole number of milliseconds/)
})
