/**
 * Pinned tool definitions attacked ("rug pull", "tool poisoning"; issue 25, item 4): a server the user trusted
 * changes what it offers after the trust. On a real host with the trust gate on, the shifting fixture (a real
 * MCP server over stdio) is trusted and mounted (its tools pinned at that first mount), then — announcing
 * `tools/list_changed` — it changes a tool's input schema, adds a tool, or drops a tool and later offers another
 * under its name; and a lazy server's cached catalog holds a changed description. Each time the changed or added
 * tool is never offered to the agent, a call to it (as the agent, and with no agent) is refused, and the
 * fixture's calls file proves its body never ran (the lazy server was not even started); the unchanged tool keeps
 * working. On the code before pins every one of these tools was offered and ran. A changed text that echoes the
 * server's credential reaches the review file and the trust review masked.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { after, test } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { canonicalRoot, readTrustStore } from '../../src/trust/store.ts'
import { trustRecordOf } from '../../src/trust/state.ts'
import { offeredPath } from '../../src/trust/offered.ts'
import { runCli } from '../support/cli.ts'
import { execTool, mcpToolNames, resultText } from '../support/host.ts'
import { cacheFiles, lazyWorld, waitTools } from '../support/lazy.ts'
import { projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { callsOf, listsOf, type Shift, setShift, shiftingEntry, startsOf } from '../support/shifting.ts'
import { cleanupAll, makeTempDir, type TempDir } from '../support/tmp.ts'
import { cli, untilTools } from '../support/trust.ts'
import { waitFor } from '../support/wait.ts'

after(() => cleanupAll())

const refused = (text: string) => /unknown tool|not available|UNKNOWN_TOOL/i.test(text)

let world: Promise<RuntimeWorld> | undefined
const shared = () => {
  world ??= startWorld({ trust: 'require' })
  return world
}
after(async () => (await world)?.dispose())

/** A trusted, mounted shifting server `name` in a project of its own, its tools pinned. */
async function pinned(name: string): Promise<{ w: RuntimeWorld; ctl: TempDir; root: string; agent: Agent }> {
  const w = await shared()
  const ctl = makeTempDir('dsh-mcp-rug-')
  const root = projectWith({ [name]: shiftingEntry(ctl.path) }).path
  await cli(w, root, ['trust', name, '--yes'])
  const agent = (await w.host.createAgent({ cwd: root })).agent
  await untilTools(w, agent, [`mcp__${name}__shifty`, `mcp__${name}__stable`], 'trusted tools offered')
  await waitFor(() => trustRecordOf(readTrustStore(w.home.path), canonicalRoot(root), name)?.tools, {
    message: 'pinned at the first mount',
  })
  return { w, ctl, root, agent }
}

/** Calls to `tool` as the agent and with no agent: refused, and its body never ran. */
async function assertNeverRuns(w: RuntimeWorld, ctl: TempDir, agent: Agent, server: string, tool: string) {
  const before = callsOf(ctl.path).length
  for (const caller of [agent, undefined]) {
    const text = resultText(await execTool(w.host.ctx, caller, `mcp__${server}__${tool}`, { text: 'x' }))
    assert.ok(refused(text), `${caller ? 'agent' : 'no agent'}: ${text}`)
  }
  assert.deepEqual(callsOf(ctl.path).slice(before), [], `the ${tool} body never ran`)
}

async function assertStillWorks(w: RuntimeWorld, ctl: TempDir, agent: Agent, server: string, tool: string) {
  const before = callsOf(ctl.path).length
  assert.match(resultText(await execTool(w.host.ctx, agent, `mcp__${server}__${tool}`, { text: 'ok' })), /ok/)
  assert.deepEqual(callsOf(ctl.path).slice(before), [`${tool} call`])
}

const variants: [string, Shift, string, string[]][] = [
  ['a changed input schema', 'schema', 'shifty', ['stable']],
  ['a changed description', 'shift', 'shifty', ['stable']],
  ['a tool added after trust', 'add', 'extra', ['shifty', 'stable']],
]

variants.forEach(([what, shift, tool, kept], i) => {
  test(`${what}: withheld from the agent, never executed; the unchanged tools keep working`, async () => {
    const name = `rug${i}`
    const { w, ctl, agent } = await pinned(name)
    setShift(ctl.path, shift)
    // The changed tool is registered (globally) again, yet the agent never sees it.
    await waitFor(() => w.host.ctx.tools.get(`mcp__${name}__${tool}`) && listsOf(ctl.path).length > 1, {
      ctx: w.host.ctx,
      events: ['tools/change'],
      message: 'the shifted list registered',
    })
    await untilTools(
      w,
      agent,
      kept.map((k) => `mcp__${name}__${k}`),
      'only the unchanged tools offered',
    )
    await assertNeverRuns(w, ctl, agent, name, tool)
    await assertStillWorks(w, ctl, agent, name, 'stable')
  })
})

test('a name reused: a tool dropped and later offered again with another text is withheld', async () => {
  const name = 'rugreuse'
  const { w, ctl, agent } = await pinned(name)
  setShift(ctl.path, 'drop')
  await untilTools(w, agent, [`mcp__${name}__shifty`], 'the dropped tool simply goes')
  setShift(ctl.path, 'drop', false)
  setShift(ctl.path, 'reuse')
  await waitFor(() => w.host.ctx.tools.get(`mcp__${name}__stable`), {
    ctx: w.host.ctx,
    events: ['tools/change'],
    message: 'the reused name registered again',
  })
  await untilTools(w, agent, [`mcp__${name}__shifty`], 'the reused name is withheld')
  await assertNeverRuns(w, ctl, agent, name, 'stable')
  await assertStillWorks(w, ctl, agent, name, 'shifty')
})

test("a lazy server's cached catalog with a changed description: withheld, and the server is not even started", async (t) => {
  const home = makeTempDir('dsh-mcp-rug-lazy-')
  const ctl = makeTempDir('dsh-mcp-rug-lazy-ctl-')
  const root = projectWith({ lz: shiftingEntry(ctl.path, { lifecycle: 'lazy', idleTimeoutMs: 0 }) }).path
  const trust = await runCli(['trust', 'lz', '--yes', '-C', root], {
    cwd: home.path,
    dshHome: home.path,
    home: home.path,
  })
  assert.equal(trust.code, 0, trust.stderr)
  // A first host: no cache yet, so it runs; its tools are pinned; then it changes a description (recorded in the cache).
  const first = await lazyWorld(home, { trust: 'require' })
  try {
    const agent = (await first.host.createAgent({ cwd: root })).agent
    await waitTools(first, agent, ['mcp__lz__shifty', 'mcp__lz__stable'], 'the first host offers both')
    await waitFor(() => trustRecordOf(readTrustStore(home.path), canonicalRoot(root), 'lz')?.tools, {
      message: 'pinned',
    })
    setShift(ctl.path, 'shift')
    await waitTools(first, agent, ['mcp__lz__stable'], 'the changed tool withheld while live')
    await waitFor(
      () =>
        cacheFiles(home).some((f) => readFileSync(home.join('mcp-cache', f), 'utf8').includes('IMPORTANT')) ||
        undefined,
      { message: 'the changed description reached the cache' },
    )
  } finally {
    await first.dispose()
  }
  // A second host: the server is dormant, offering its cached catalog.
  const w = await lazyWorld(home, { trust: 'require' })
  t.after(() => w.dispose())
  const starts = startsOf(ctl.path).length
  const agent = (await w.host.createAgent({ cwd: root })).agent
  await waitTools(w, agent, ['mcp__lz__stable'], 'only the unchanged cached tool offered')
  assert.ok(w.host.ctx.tools.get('mcp__lz__shifty'), 'the changed cached tool is registered (dormant), yet withheld')
  const calls = callsOf(ctl.path).length
  const text = resultText(await execTool(w.host.ctx, agent, 'mcp__lz__shifty', { text: 'x' }))
  assert.ok(refused(text), text)
  assert.equal(startsOf(ctl.path).length, starts, 'the withheld cached tool did not start the server')
  assert.deepEqual(callsOf(ctl.path).slice(calls), [])
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), ['mcp__lz__stable'])
  assert.match(resultText(await execTool(w.host.ctx, agent, 'mcp__lz__stable', { text: 'woke' })), /woke/)
})

test('a changed text that echoes a credential: the review file and the trust review hold it masked, never raw', async () => {
  const w = await shared()
  const ctl = makeTempDir('dsh-mcp-rug-leak-')
  const canary = 'tp-canary-7f3a9c1e5b2d'
  const root = projectWith({ leaky: shiftingEntry(ctl.path, { env: { SHIFT_TOKEN: canary } }) }).path
  await cli(w, root, ['trust', 'leaky', '--yes'])
  const agent = (await w.host.createAgent({ cwd: root })).agent
  await untilTools(w, agent, ['mcp__leaky__shifty', 'mcp__leaky__stable'], 'trusted tools offered')
  await waitFor(() => trustRecordOf(readTrustStore(w.home.path), canonicalRoot(root), 'leaky')?.tools, {
    message: 'pinned',
  })
  setShift(ctl.path, 'leak')
  await untilTools(w, agent, ['mcp__leaky__stable'], 'the changed tool withheld')
  const file = offeredPath(w.home.path, canonicalRoot(root), 'leaky')
  const text = await waitFor(() => (existsSync(file) ? readFileSync(file, 'utf8') : undefined), {
    message: 'the offered list recorded',
  })
  assert.ok(!text.includes(canary.slice(0, 8)), 'no piece of the credential in the review file')
  assert.match(text, /Uses the token \*+/)
  assert.equal(statSync(file).mode & 0o777, 0o600)
  const review = await cli(w, root, ['trust', 'leaky', '--yes'])
  assert.ok(!`${review.stdout}${review.stderr}`.includes(canary.slice(0, 8)), 'the review never shows it')
  assert.match(review.stdout, /new description: Echo text back\. Uses the token \*+ for you\./)
})
