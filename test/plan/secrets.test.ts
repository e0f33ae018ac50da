// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text holds literal ${secret:NAME} templates
/**
 * `${secret:NAME}` through expansion and the plan (pure): a row needing an
 * unset secret is skipped naming it and the command that sets it, no value is
 * read for a row that cannot run, a running row's secret values are its
 * mount's redaction values, and the memo re-judges when a secret changes.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { expandEntry, type SecretSource, scanTemplate, templateVariables } from '../../src/config/expand.ts'
import { type LayerFile, type LayerInput, projectLayerFiles, userLayerFile } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { desiredState, type PlanInput } from '../../src/plan/desired.ts'
import { createPlanMemo } from '../../src/plan/memo.ts'

const HOME = '/home/u/.dsh'
const USER = userLayerFile(HOME)
const project = (root: string) => projectLayerFiles(root)[1] as LayerFile
const CANARY = 'canary-secret-8f3a9'

function input(layer: LayerFile, servers: Record<string, unknown>): LayerInput {
  return {
    layer,
    parsed: parseConfigText(JSON.stringify({ servers }), { file: layer.file, format: 'friendly' }),
  }
}

/** A store of `values` (the names in `user` set with `--user`), recording every name whose value was read. */
function store(values: Record<string, string>, user: readonly string[] = []): SecretSource & { reads: string[] } {
  const reads: string[] = []
  return {
    reads,
    has: (n) => Object.hasOwn(values, n),
    userScoped: (n) => user.includes(n),
    read(n) {
      reads.push(n)
      return values[n]
    },
  }
}

const http = (headers: Record<string, string>, url = 'https://mcp.example.test/mcp') => ({ url, headers })

describe('${secret:NAME}', () => {
  it('scans as a secret piece, not a variable; a bad name says where, never what', () => {
    assert.deepEqual(scanTemplate('Bearer ${secret:API_TOKEN}'), [{ text: 'Bearer ' }, { secret: 'API_TOKEN' }])
    assert.deepEqual(templateVariables('${secret:A} ${B}'), [{ name: 'B', hasDefault: false }])
    const bad = scanTemplate('${secret:not a name sk-live-123}')
    assert.ok(!Array.isArray(bad))
    assert.ok(!bad.message.includes('sk-live-123'))
  })

  it('expands env, headers, args and url from the store', () => {
    const s = store({ T: CANARY })
    const r = expandEntry(
      {
        command: 'node',
        args: ['--token=${secret:T}'],
        env: { TOKEN: '${secret:T}' },
      },
      {},
      { secrets: s },
    )
    assert.ok('entry' in r)
    assert.deepEqual(r.entry.args, [`--token=${CANARY}`])
    assert.equal(r.entry.env?.TOKEN, CANARY)
    const u = expandEntry({ url: 'https://h.test/${secret:T}', headers: { A: 'x ${secret:T}' } }, {}, { secrets: s })
    assert.ok('entry' in u)
    assert.equal(u.entry.url, `https://h.test/${CANARY}`)
  })

  it('reads no value when any secret of the entry is unset, and names it with the command', () => {
    const s = store({ A: CANARY })
    const r = expandEntry(
      { url: 'https://h.test/', headers: { X: '${secret:A}', Y: '${secret:B}' } },
      {},
      { secrets: s },
    )
    assert.ok('errors' in r)
    assert.deepEqual(s.reads, [], 'nothing read for an entry that cannot run')
    assert.deepEqual(r.errors[0]!.missingSecrets, ['B'])
    assert.match(r.errors[0]!.hint!, /dsh-mcp secret set B/)
    assert.ok(!JSON.stringify(r).includes(CANARY))
  })
})

describe('the plan', () => {
  const rows = (servers: Record<string, unknown>) => [{ root: '/p', layers: [input(project('/p'), servers)] }]
  const plan = (over: Partial<PlanInput>) =>
    desiredState({
      projects: [],
      user: [],
      env: {},
      dshHome: HOME,
      platform: 'linux',
      trust: () => 'trusted',
      ...over,
    })

  it('skips a row needing an unset secret: the skipped verdict names it and the exact command', () => {
    const s = store({})
    const p = plan({ projects: rows({ api: http({ Authorization: 'Bearer ${secret:API_TOKEN}' }) }), secrets: () => s })
    const row = p.projects.get('/p')![0]!
    assert.equal(row.verdict.tag, 'skipped')
    assert.equal(row.verdict.why, 'secret:API_TOKEN')
    assert.match(row.verdict.reason!, /\$\{secret:API_TOKEN\}, which is not set .*dsh-mcp secret set API_TOKEN/)
    assert.deepEqual(s.reads, [])
  })

  it('a user row names --user in its command (the global view reads the user scope)', () => {
    const seen: (string | null)[] = []
    const p = plan({
      user: [input(USER, { u: http({ A: '${secret:U}' }) })],
      secrets: (root) => {
        seen.push(root)
        return store({})
      },
    })
    assert.match(p.global[0]!.verdict.reason!, /dsh-mcp secret set --user U/)
    assert.ok(seen.includes(null))
  })

  it('a running row reads its secret once and carries it as a redaction value, untrusted rows read nothing', () => {
    const s = store({ T: CANARY })
    const p = plan({
      projects: rows({
        api: http({ Authorization: 'Bearer ${secret:T}' }),
        arg: { command: 'node', args: ['${secret:T}'] },
      }),
      secrets: () => s,
    })
    for (const m of p.mounts.values()) assert.ok(m.secrets.includes(CANARY), `${m.name} redacts the secret`)
    assert.ok(!JSON.stringify([...p.mounts.values()].map((m) => m.cacheKey)).includes(CANARY))
    const untrusted = store({ T: CANARY })
    const q = plan({
      projects: rows({ api: http({ A: '${secret:T}' }) }),
      secrets: () => untrusted,
      trust: () => 'untrusted',
    })
    assert.equal(q.projects.get('/p')![0]!.verdict.tag, 'needs-trust')
    assert.deepEqual(untrusted.reads, [], 'no value read for a row that needs trust')
  })

  it("a repository row never reads the user's own (--user) secret: skipped, pointed at the project scope (red team)", () => {
    const s = store({ T: CANARY }, ['T'])
    const p = plan({ projects: rows({ api: http({ Authorization: 'Bearer ${secret:T}' }) }), secrets: () => s })
    const row = p.projects.get('/p')![0]!
    assert.equal(row.verdict.tag, 'skipped')
    assert.match(row.verdict.reason!, /dsh-mcp secret set T\b/)
    assert.doesNotMatch(row.verdict.reason!, /--user/)
    assert.deepEqual(s.reads, [], 'the user secret was never read')
    const own = store({ T: CANARY }, ['T'])
    const mine = plan({ user: [input(USER, { u: http({ A: '${secret:T}' }) })], secrets: () => own })
    assert.equal(mine.global[0]!.verdict.tag, 'runs', "the user's own server still reads it")
  })

  it('the memo judges again when a secret is set or its value changes', () => {
    const values: Record<string, string> = {}
    const memo = createPlanMemo()
    const projects = rows({ api: http({ A: '${secret:T}' }) })
    const run = () =>
      memo.plan({
        projects,
        user: [],
        env: {},
        dshHome: HOME,
        platform: 'linux',
        trust: () => 'trusted',
        secrets: () => store(values),
      })
    assert.equal(run().projects.get('/p')![0]!.verdict.tag, 'skipped')
    values.T = 'first-value'
    const a = run().projects.get('/p')![0]!
    assert.equal(a.verdict.tag, 'runs')
    values.T = 'second-value'
    const b = run().projects.get('/p')![0]!
    assert.notEqual(a.key, b.key, 'a new value is a new mount')
  })
})
