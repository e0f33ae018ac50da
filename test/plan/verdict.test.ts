// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config entries hold literal ${VAR} templates
/**
 * The one judgement of a row (`verdictOf`), as a unit: the order of cause (one tag per row), trust judged
 * before any variable is read, the host's post-expansion checks, a whole file's verdict. The attack framing
 * (doctor never starts what the host would not; every surface agrees) is test/security/trust-verdict.test.ts.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type LayerInput, mergeLayers, type Row } from '../../src/config/layers.ts'
import { parseConfigText } from '../../src/config/parse.ts'
import { fileVerdictOf, verdictOf, type VerdictInput } from '../../src/plan/verdict.ts'

const ROOT = '/p'
function rows(files: { scope: 'local' | 'project' | 'user'; file: string; text: string }[]): Row[] {
  const inputs: LayerInput[] = files.map((f, i) => ({
    layer: {
      scope: f.scope,
      format: 'friendly',
      file: f.file,
      rank: f.scope === 'local' ? 0 : f.scope === 'project' ? 1 : 4 + i,
    },
    parsed: parseConfigText(f.text, { file: f.file, format: 'friendly', allowPartial: f.scope === 'local' }),
  }))
  return mergeLayers(inputs)
}
const rowNamed = (rs: Row[], name: string, state?: string) =>
  rs.find((r) => r.name === name && (state === undefined || r.state === state))!

function input(
  o: Partial<VerdictInput> & { answer?: ReturnType<VerdictInput['trust']> } = {},
): VerdictInput & { asked: string[] } {
  const asked: string[] = []
  return {
    root: ROOT,
    env: {},
    dshHome: '/h',
    platform: 'linux',
    trust: (r) => {
      asked.push(r.name)
      return o.answer ?? 'trusted'
    },
    asked,
    ...o,
  }
}

test('verdictOf: the order of cause, one tag per row', () => {
  const rs = rows([
    { scope: 'local', file: '/p/.dsh/mcp.local.yml', text: 'servers:\n  u:\n    env: {NODE_OPTIONS: "--require x"}\n' },
    {
      scope: 'project',
      file: '/p/.dsh/mcp.yml',
      text: 'servers:\n  a:\n    command: node\n  off:\n    command: node\n    enabled: false\n  bad:\n    command: node\n    url: http://x\n  v:\n    command: ${CMD}\n  s:\n    command: shadowed-by-local\n',
    },
    {
      scope: 'user',
      file: '/h/mcp.yml',
      text: 'servers:\n  u:\n    command: node\n  mine:\n    command: node\n  a:\n    command: user-a\n',
    },
  ])
  const tag = (r: Row, i = input()) => {
    const v = verdictOf(r, i)
    return v.tag === 'needs-trust' || v.tag === 'refused'
      ? `${v.tag}:${v.why}`
      : v.tag === 'skipped'
        ? `skipped:${v.variables.join(',')}`
        : v.tag
  }
  assert.equal(tag(rowNamed(rs, 'a', 'active')), 'runs')
  assert.equal(tag(rowNamed(rs, 'a', 'shadowed')), 'shadowed')
  assert.equal(tag(rowNamed(rs, 'off')), 'disabled')
  assert.equal(tag(rowNamed(rs, 'bad')), 'refused:invalid')
  assert.equal(tag(rowNamed(rs, 'v')), 'skipped:CMD')
  assert.equal(tag(rowNamed(rs, 'mine')), 'runs', 'a user-only row needs no trust')
  // Trust answers map to their reasons; a user row with a repository override reads as a repository contribution.
  assert.equal(tag(rowNamed(rs, 'a', 'active'), input({ answer: 'untrusted' })), 'needs-trust:new')
  assert.equal(tag(rowNamed(rs, 'a', 'active'), input({ answer: 'changed' })), 'needs-trust:changed')
  assert.equal(
    tag(rowNamed(rs, 'a', 'active'), input({ answer: 'store-problem', storeProblem: 'x is a symbolic link' })),
    'needs-trust:store-problem',
  )
  assert.equal(tag(rowNamed(rs, 'u'), input({ answer: 'untrusted' })), 'needs-trust:repository-contribution')
  const noTrustAsked = input({ answer: 'untrusted' })
  verdictOf(rowNamed(rs, 'mine'), noTrustAsked)
  assert.deepEqual(noTrustAsked.asked, [], 'the gate is never asked about a user-only row')
  // A file the reading edge refused has no rows: it is judged as a whole (refused, with its kind), never row by row.
  const refusedFile = {
    file: '/p/.dsh/mcp.local.yml',
    ok: false,
    diagnostics: [],
    refused: { reason: 'ownership' as const, message: 'owned by uid 7' },
  }
  assert.deepEqual(fileVerdictOf(refusedFile), {
    tag: 'refused',
    why: 'ownership',
    file: '/p/.dsh/mcp.local.yml',
    reason: 'owned by uid 7',
  })
  assert.equal(fileVerdictOf({ file: '/p/.dsh/mcp.yml', ok: true, diagnostics: [] }), undefined)
  // Gate off: no trust asked, the row runs.
  const off = input({ answer: 'untrusted', gateOff: true })
  assert.equal(tag(rowNamed(rs, 'u'), off), 'runs')
  assert.deepEqual(off.asked, [])
})

test('verdictOf judges trust before reading any variable: an untrusted row reads no env at all', () => {
  const rs = rows([
    {
      scope: 'project',
      file: '/p/.dsh/mcp.yml',
      text: 'servers:\n  v:\n    command: ${CMD}\n    env: {T: "${TOKEN}"}\n',
    },
  ])
  const read: string[] = []
  const env = new Proxy({} as Record<string, string>, {
    get: (_t, k) => {
      if (typeof k === 'string') read.push(k)
      return undefined
    },
  })
  const v = verdictOf(rowNamed(rs, 'v'), input({ env, answer: 'untrusted' }))
  assert.equal(v.tag, 'needs-trust')
  assert.deepEqual(read, [])
  assert.equal(verdictOf(rowNamed(rs, 'v'), input({ env })).tag, 'skipped')
})

test('verdictOf keeps the host post-expansion checks: a variable that brings a line break into a header is skipped, never run', () => {
  const rs = rows([
    {
      scope: 'project',
      file: '/p/.dsh/mcp.yml',
      text: 'servers:\n  h:\n    url: http://127.0.0.1:1/mcp\n    headers: {X-A: "${H}"}\n',
    },
  ])
  const v = verdictOf(rowNamed(rs, 'h'), input({ env: { H: 'a\r\nInjected: 1' } }))
  assert.equal(v.tag, 'skipped')
  assert.match(v.reason, /headers\.X-A .*once its variables are expanded/)
  assert.doesNotMatch(v.reason, /Injected/)
})
