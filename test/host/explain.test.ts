// biome-ignore-all lint/suspicious/noTemplateCurlyInString: reasons quote literal ${VAR} templates
/**
 * The one mapping from a placement to why it does not run and its fix
 * (src/host/explain.ts): each kind, the exact commands (quoted roots), no
 * value ever in the words, and the size bound of `summarize`.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { explain, explainFile, explainProject, summarize } from '../../src/host/explain.ts'
import type { Placement } from '../../src/plan/desired.ts'

const base = { layer: 'project' as const, file: '/p/.dsh/mcp.yml' }
const row = (name: string, want: Placement['want'], more: Partial<Placement> = {}): Placement => ({
  name,
  ...base,
  want,
  ...more,
})

test('each reason maps to words and the exact fix; running, starting, disabled and shadowed rows are no problem', () => {
  const root = '/work/my app'
  assert.deepEqual(explain(root, row('a', 'untrusted', { trust: 'untrusted' }), { state: 'untrusted' }), {
    name: 'a',
    kind: 'untrusted',
    words: 'not trusted yet: review it, then trust it',
    fix: "dsh-mcp trust -C '/work/my app' a",
  })
  assert.equal(explain(root, row('a', 'untrusted', { trust: 'changed' }), { state: 'untrusted' })?.kind, 'changed')
  const skipped = explain(
    root,
    row('k', 'skipped', {
      reason: 'server "k": env.T uses ${TOKEN}, ${OTHER}, which is not set (set it, or write ${VAR:-default})',
    }),
    { state: 'failed' },
  )
  assert.equal(skipped?.kind, 'needs-variable')
  assert.equal(skipped?.fix, 'export TOKEN=…; export OTHER=…')
  assert.match(skipped?.words ?? '', /^needs \$TOKEN, \$OTHER, which are not set/)
  assert.deepEqual(explain(root, row('bad', 'invalid', { reason: 'x:1:2 nope' }), { state: 'invalid' }), {
    name: 'bad',
    kind: 'invalid',
    words: 'its entry is not valid',
    fix: "dsh-mcp doctor -C '/work/my app' bad",
  })
  assert.equal(explain(root, row('m', 'mount', { key: 'k' }), { state: 'failed' })?.kind, 'failed')
  for (const state of ['mounted', 'starting', 'idle', 'stopped'] as const)
    assert.equal(explain(root, row('m', 'mount', { key: 'k' }), { state }), undefined, state)
  assert.equal(explain(root, row('d', 'disabled'), { state: 'disabled' }), undefined)
  assert.equal(explain(root, row('s', 'shadowed'), { state: 'shadowed' }), undefined)
  assert.equal(
    explain(null, row('u', 'mount', { key: 'k', layer: 'user' }), { state: 'failed' })?.fix,
    'dsh-mcp doctor u',
  )
})

test('words never carry a reason text (values, file contents): only names and fixed phrases', () => {
  const leaky = 'server "x": env.T=sk-live-123 uses ${TOKEN}, which is not set'
  const why = explain('/p', row('x', 'skipped', { reason: leaky }), { state: 'failed' })
  assert.ok(!JSON.stringify(why).includes('sk-live-123'))
  const inv = explain('/p', row('x', 'invalid', { reason: 'headers.A: sk-live-123' }), { state: 'invalid' })
  assert.ok(!JSON.stringify(inv).includes('sk-live-123'))
})

test('a refused file points at validate; a project lists servers in order, then files', () => {
  assert.deepEqual(explainFile('/p', { file: '/p/.dsh/mcp.yml', keptLastGood: true }), {
    name: '/p/.dsh/mcp.yml',
    kind: 'refused-file',
    words: 'this config file was refused; its last good version is still used',
    fix: 'dsh-mcp validate -C /p',
  })
  const list = explainProject(
    '/p',
    [row('a', 'untrusted'), row('b', 'mount', { key: 'k' }), row('c', 'invalid')],
    [{ state: 'untrusted' }, { state: 'mounted' }, { state: 'invalid' }],
    [{ file: '/p/.mcp.json', layer: 'legacy', reason: 'r', keptLastGood: false }],
  )
  assert.deepEqual(
    list.map((w) => w.name),
    ['a', 'c', '/p/.mcp.json'],
  )
})

test('summarize keeps what fits, then one "and N more" line, within both bounds', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i} ${'x'.repeat(80)}`)
  assert.deepEqual(
    summarize(lines.slice(0, 3), 20, 2048, (n) => `+${n}`),
    lines.slice(0, 3),
  )
  const out = summarize(lines, 20, 2048, (n) => `and ${n} more`)
  assert.ok(out.length <= 20)
  assert.ok(Buffer.byteLength(out.join('\n')) <= 2048)
  assert.equal(out.at(-1), `and ${30 - (out.length - 1)} more`)
  const few = summarize(lines, 5, 100_000, (n) => `and ${n} more`)
  assert.deepEqual(few, [...lines.slice(0, 4), 'and 26 more'])
})
