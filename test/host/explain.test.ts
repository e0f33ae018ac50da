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
import type { VerdictView } from '../../src/plan/verdict.ts'

const base = { layer: 'project' as const, file: '/p/.dsh/mcp.yml' }
const V: Record<string, VerdictView> = {
  untrusted: { tag: 'needs-trust', why: 'new', reason: 'r', fix: "dsh-mcp trust -C '/work/my app' a" },
  changed: { tag: 'needs-trust', why: 'changed', reason: 'r', fix: "dsh-mcp trust -C '/work/my app' a" },
  invalid: { tag: 'refused', why: 'invalid', reason: 'x:1:2 nope' },
  mount: { tag: 'runs', why: null, reason: null },
  disabled: { tag: 'disabled', why: null, reason: 'enabled: false' },
  shadowed: { tag: 'shadowed', why: null, reason: 'shadowed' },
}
const row = (name: string, v: keyof typeof V | VerdictView, more: Partial<Placement> = {}): Placement => ({
  name,
  ...base,
  verdict: typeof v === 'string' ? V[v]! : v,
  ...more,
})
const skippedV = (variables: string[], withheld: string[] = [], reason = 'r'): VerdictView => ({
  tag: 'skipped',
  why: variables.join(', '),
  reason,
  variables,
  withheld,
})

test('each reason maps to words and the exact fix; running, starting, disabled and shadowed rows are no problem', () => {
  const root = '/work/my app'
  assert.deepEqual(explain(root, row('a', 'untrusted'), { state: 'untrusted' }), {
    name: 'a',
    kind: 'untrusted',
    words: 'not trusted yet: review it, then trust it',
    fix: "dsh-mcp trust -C '/work/my app' a",
  })
  assert.equal(explain(root, row('a', 'changed'), { state: 'untrusted' })?.kind, 'changed')
  const skipped = explain(root, row('k', skippedV(['TOKEN', 'OTHER'])), { state: 'skipped' })
  assert.equal(skipped?.kind, 'needs-variable')
  assert.equal(skipped?.fix, 'export TOKEN=…; export OTHER=…')
  assert.match(skipped?.words ?? '', /^needs \$TOKEN, \$OTHER, which are not set/)
  assert.deepEqual(explain(root, row('bad', 'invalid'), { state: 'invalid' }), {
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
  const why = explain('/p', row('x', skippedV(['TOKEN'], [], leaky)), { state: 'skipped' })
  assert.ok(!JSON.stringify(why).includes('sk-live-123'))
  const inv = explain('/p', row('x', { ...V.invalid!, reason: 'headers.A: sk-live-123' }), { state: 'invalid' })
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

test('rendered from the verdict fields: a variable withheld from the checkout .env, and a broken trust store', () => {
  // Only in the checkout's .env: `${VAR}` never reads it, so `export VAR=…` (in a shell) is not the whole story and no literal `${VAR}` reaches the words.
  const withheld = explain('/p', row('w', skippedV(['TOKEN'], ['TOKEN'])), { state: 'skipped' })
  assert.equal(withheld?.kind, 'env-withheld')
  assert.match(withheld?.words ?? '', /^needs \$TOKEN, set only in the checkout's \.env/)
  assert.ok(!/\$\{TOKEN\}/.test(withheld?.words ?? ''))
  assert.equal(withheld?.fix, 'dsh-mcp doctor -C /p w')
  // One unset, one withheld: the unset one is the fix.
  const mixed = explain('/p', row('m', skippedV(['A', 'B'], ['B'])), { state: 'skipped' })
  assert.equal(mixed?.kind, 'needs-variable')
  assert.equal(mixed?.fix, 'export A=…')
  // A broken store is not "not trusted yet": trusting cannot help until it is repaired.
  const store = explain(
    '/p',
    row('s', { tag: 'needs-trust', why: 'store-problem', reason: 'the trust store cannot be used' }),
    { state: 'untrusted' },
  )
  assert.equal(store?.kind, 'store-problem')
  assert.match(store?.words ?? '', /repair it/)
  assert.ok(!/dsh-mcp trust/.test(store?.fix ?? ''))
})

test('a signed approval that does not count is named in the words (the prompt line and the panel say which)', () => {
  const v: VerdictView = { ...V.untrusted!, signature: { state: 'unknown-signer' } }
  const why = explain('/p', row('a', v), { state: 'untrusted' })
  assert.equal(why?.words, 'not trusted yet (signed by an unknown key): review it, then trust it')
  const stale: VerdictView = { ...V.changed!, signature: { state: 'stale' } }
  assert.match(explain('/p', row('a', stale), { state: 'untrusted' })?.words ?? '', /signed for an older version/)
})
