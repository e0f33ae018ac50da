/**
 * Proves the e2e harness on its own parts, with no plugin involved:
 * - the fake model answers the OpenAI SSE protocol and records requests;
 * - the cached real `dsh` CLI answers `--version` and composes the headless
 *   profile (`--dump-config`);
 * - a real `dsh --profile headless "hi"` run talks to the fake model (title
 *   request + one turn) and prints the final text with exit 0.
 */
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { after, before, test } from 'node:test'
import {
  DSH_VERSION,
  type DshCli,
  describeRun,
  ensureDshCli,
  isolatedEnv,
  reapDshChildren,
  runDsh,
  writeHostPatch,
} from '../support/dsh-cli.ts'
import { type FakeModel, scriptToolCall, startFakeModel } from '../support/fake-model.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

let cli: DshCli
let model: FakeModel

before(async () => {
  cli = await ensureDshCli()
  model = await startFakeModel()
})

after(async () => {
  reapDshChildren()
  await model?.close()
  cleanupAll()
})

function freshHome() {
  const home = makeTempDir('dsh-e2e-home-')
  mkdirSync(home.join('.dsh'))
  return { home, env: isolatedEnv(cli, { home: home.path, dshHome: home.join('.dsh') }) }
}

test('fake model: SSE text and tool-call replies, recorded requests', async () => {
  const fake = await startFakeModel({
    responder: scriptToolCall(
      (r) => (r.toolNames.includes('t') ? { name: 't', arguments: { x: 1 } } : undefined),
      'final',
    ),
  })
  try {
    const post = (body: unknown) =>
      fetch(`${fake.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.text())
    const call = await post({
      messages: [{ role: 'user', content: 'go' }],
      tools: [{ type: 'function', function: { name: 't' } }],
    })
    const frames = call.split('\n\n').filter((f) => f.startsWith('data: '))
    assert.equal(frames.at(-1), 'data: [DONE]')
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)))
    const args = chunks.flatMap((c) =>
      c.choices.flatMap(
        (ch: { delta: { tool_calls?: { function: { arguments?: string } }[] } }) => ch.delta.tool_calls ?? [],
      ),
    )
    assert.equal(args[0].function.name, 't')
    assert.equal(args.map((a: { function: { arguments?: string } }) => a.function.arguments ?? '').join(''), '{"x":1}')
    assert.ok(chunks.some((c) => c.choices[0]?.finish_reason === 'tool_calls'))
    const done = await post({
      messages: [{ role: 'tool', tool_call_id: 'c', content: 'r' }],
      tools: [{ type: 'function', function: { name: 't' } }],
    })
    assert.match(done, /"content":"final"/)
    const title = await post({ messages: [{ role: 'user', content: 'x' }], max_tokens: 64 })
    assert.match(title, /Fake title/)
    assert.deepEqual(
      fake.requests.map((r) => r.kind),
      ['turn', 'turn', 'title'],
    )
    assert.deepEqual(fake.turns()[0]?.toolNames, ['t'])
    assert.equal((await fetch(`${fake.baseURL}/nope`)).status, 404)
  } finally {
    await fake.close()
  }
})

test('dsh CLI: cached install answers --version', async (t) => {
  t.diagnostic(`dsh ${cli.installed ? 'installed' : 'cached'} at ${cli.dir} in ${cli.ms} ms`)
  const { home, env } = freshHome()
  const run = await runDsh(cli, ['--version'], { cwd: home.path, env })
  assert.equal(run.code, 0, describeRun(run))
  assert.equal(run.stdout.trim(), DSH_VERSION)
})

test('dsh CLI: headless profile composes (--dump-config) with the host patch', async () => {
  const { home, env } = freshHome()
  const patch = writeHostPatch(home.join('host.patch.yml'), model.baseURL)
  const run = await runDsh(cli, ['--profile', 'headless', '--patch', patch, '--dump-config'], { cwd: home.path, env })
  assert.equal(run.code, 0, describeRun(run))
  assert.match(run.stdout, /- id: headless-runner/)
  assert.match(
    run.stdout,
    /- id: llm-deepseek\n\s+name: '@deepseek-ai\/dsh-llm-deepseek'\n\s+config:\n\s+baseURL: '?http:\/\/127\.0\.0\.1:\d+/,
  )
  assert.match(
    run.stdout,
    /- id: hmr\n\s+name: '@deepseek-ai\/cordis-plugin-hmr'\n\s+config:\n\s+root: \[\]\n\s+disabled: false/,
  )
})

test('dsh CLI: headless "hi" reaches the fake model and prints its final text', async (t) => {
  const { home, env } = freshHome()
  const patch = writeHostPatch(home.join('host.patch.yml'), model.baseURL)
  const from = model.requests.length
  model.respond(() => ({ text: 'hello from the fake model' }))
  const run = await runDsh(cli, ['--profile', 'headless', '--patch', patch, 'hi'], {
    cwd: home.path,
    env: { ...env, DEEPSEEK_BASE_URL: model.baseURL, DEEPSEEK_API_KEY: 'sk-fake-e2e' },
  })
  t.diagnostic(`headless run: ${run.ms} ms`)
  assert.equal(run.code, 0, describeRun(run))
  assert.equal(run.stdout.trim(), 'hello from the fake model')
  const turns = model.turns(from)
  assert.equal(turns.length, 1, `one turn request, got ${turns.length}`)
  const turn = turns[0]!
  assert.equal(turn.headers.authorization, 'Bearer sk-fake-e2e')
  assert.equal(turn.body.stream, true)
  assert.ok(turn.toolNames.length > 0, 'built-in tools are offered')
  assert.ok(!turn.toolNames.some((n) => n.startsWith('mcp__')), 'no MCP tool without a plugin')
  const user = turn.body.messages?.find((m) => m.role === 'user')
  assert.match(JSON.stringify(user?.content), /hi/)
  assert.ok(
    model.requests.slice(from).some((r) => r.kind === 'title'),
    'the session-title request was classified as title',
  )
})
