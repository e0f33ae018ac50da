/**
 * The README's quickstart works as written, from a clean prefix: its fenced
 * `sh` blocks (section "Quickstart") are extracted and run in order by bash,
 * line by line with `set -e`, on a machine that has nothing but Node 22 and
 * npm on PATH (a fresh HOME, no `DSH_HOME`, no pnpm, no `dsh`, an empty
 * global npm prefix). Block 0 installs the host itself as the README says
 * (pnpm from npm, `@deepseek-ai/dsh` with pnpm, hmr pinned by the override):
 * npm and pnpm resolve every version themselves, so the test fails the day
 * the registry's answer breaks the README. The only substitutions: the
 * package spec `dsh-project-mcp` of the registry block (1') becomes the
 * packed tarball, and the model endpoint comes from the environment
 * (`DEEPSEEK_BASE_URL`, `DEEPSEEK_API_KEY`) of the fake model. Two flows:
 * the checkout block (1, `npm pack` in a staged copy of this working tree)
 * and the registry block (1', substituted). The flagship server
 * (`@modelcontextprotocol/server-memory` through npx) really starts: the
 * model is offered its tools. README.zh.md carries the same blocks.
 * Caches shared across runs hold content only (npm cache, pnpm store).
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { after, before, test } from 'node:test'
import {
  CACHE_ROOT,
  describeRun,
  HMR_VERSION,
  installEnv,
  NODE22,
  REPO_ROOT,
  type RunResult,
  reapDshChildren,
  runIsolated,
} from '../support/dsh-cli.ts'
import { type FakeModel, startFakeModel } from '../support/fake-model.ts'
import { cleanupAll, makeProject, makeTempDir, type TempDir } from '../support/tmp.ts'
import { packTarball, stageWorkingTree, type Tarball } from '../support/tarball.ts'

/** The fenced `sh` blocks of a README's quickstart section, in order. */
function quickstartBlocks(markdown: string, heading: RegExp): string[] {
  const start = markdown.search(heading)
  assert.ok(start >= 0, `no quickstart heading ${heading}`)
  const rest = markdown.slice(start)
  const next = rest.slice(3).search(/^## /m)
  const section = next < 0 ? rest : rest.slice(0, next + 3)
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!)
}

const en = quickstartBlocks(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'), /^## Quickstart$/m)
const zh = quickstartBlocks(readFileSync(join(REPO_ROOT, 'README.zh.md'), 'utf8'), /^## 快速上手$/m)
const hostBlock = en.find((b) => /\bpnpm add\b/.test(b))
const checkoutBlock = en.find((b) => /\bnpm pack\b/.test(b))
const registryBlock = en.find((b) => /^dsh plugin --profile \S+ add dsh-project-mcp$/m.test(b))
/** The blocks after the plugin's (the HMR row, a server, trust, an agent), in order. */
const steps = en.filter((b) => b !== hostBlock && b !== checkoutBlock && b !== registryBlock)
const NPM_CACHE = join(CACHE_ROOT, 'npm-cache')

let tarball: Tarball
let model: FakeModel
let work: TempDir
let cleanBin: string

/** Replace the spec of the install lines by the tarball; returns the block and how many lines changed. */
function substituteSpec(block: string, spec: string): { text: string; count: number } {
  let count = 0
  const text = block
    .split('\n')
    .map((line) =>
      line.replace(/^((?:dsh plugin --profile \S+ add|npm i -g) )dsh-project-mcp$/, (_m, head: string) => {
        count++
        return `${head}${spec}`
      }),
    )
    .join('\n')
  return { text, count }
}

/** A clean machine: a fresh HOME, an empty global npm prefix, only Node 22 and npm (then system tools) on PATH. */
function machine(name: string): { env: Record<string, string>; home: string } {
  const home = work.mkdir(`${name}/home`)
  const prefix = work.mkdir(`${name}/npm-global`)
  const env = {
    ...installEnv(),
    HOME: home,
    PATH: `${cleanBin}:${join(prefix, 'bin')}:/usr/local/bin:/usr/bin:/bin`,
    DSH_TELEMETRY_DISABLED: '1',
    npm_config_prefix: prefix,
    npm_config_cache: NPM_CACHE,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    DEEPSEEK_BASE_URL: model.baseURL,
    DEEPSEEK_API_KEY: 'sk-fake-readme',
  }
  return { env, home }
}

/** A bin dir with `node` (Node 22), `npm` and `npx` only: what "Node 22 and npm" gives a newcomer. */
function nodeAndNpm(): string {
  const bin = work.mkdir('node22-bin')
  const npmCli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim())
  symlinkSync(realpathSync(NODE22), join(bin, 'node'))
  symlinkSync(npmCli, join(bin, 'npm'))
  symlinkSync(join(dirname(npmCli), 'npx-cli.js'), join(bin, 'npx'))
  return bin
}

/** Run one block with bash, line by line, stopping at the first failing line. */
async function runBlock(block: string, cwd: string, env: Record<string, string>, label: string): Promise<RunResult> {
  const script = work.write(
    `scripts/${label}.sh`,
    `set -e\ntrap 'echo "README line failed: $BASH_COMMAND" >&2' ERR\n${block}`,
  )
  return runIsolated('/bin/bash', [script], { cwd, env, timeoutMs: 400_000 })
}

before(async () => {
  work = makeTempDir('dsh-readme-')
  cleanBin = nodeAndNpm()
  tarball = packTarball(work.mkdir('pack'))
  model = await startFakeModel({
    responder: (request) => ({
      text: `tools: ${request.toolNames.filter((n) => n.startsWith('mcp__')).join(',') || 'none'}`,
    }),
  })
  // Warm the shared npm cache with the flagship server so npx starts it within the first-step wait.
  const warm = machine('warm')
  const run = await runIsolated(
    'npm',
    ['exec', '--yes', '--package=@modelcontextprotocol/server-memory', '--', 'node', '-e', '0'],
    { cwd: warm.home, env: warm.env, timeoutMs: 300_000 },
  )
  assert.equal(run.code, 0, `warming the npm cache failed\n${describeRun(run)}`)
})

after(async () => {
  reapDshChildren()
  await model?.close()
  cleanupAll()
})

test('the quickstart has the host, both plugin routes and its steps, and README.zh.md runs the same blocks', () => {
  assert.ok(hostBlock, 'a block installing the host (pnpm add @deepseek-ai/dsh)')
  assert.ok(checkoutBlock, 'a block with npm pack (install from a checkout)')
  assert.ok(registryBlock, 'a block installing dsh-project-mcp by name (once published)')
  assert.ok(en.indexOf(checkoutBlock!) < en.indexOf(registryBlock!), 'the tarball route is shown first')
  assert.ok(steps.length >= 4, `four steps after the plugin, got ${steps.length}`)
  assert.match(hostBlock!, /cordis-plugin-hmr/, 'the host block pins hmr')
  assert.ok(!/^dsh .*--patch/m.test(steps.join('\n')), 'no --patch on every run: the HMR row lives in a patch layer')
  assert.deepEqual(zh, en, 'README.zh.md has the same shell blocks as README.md')
  for (const b of en)
    for (const line of b.split('\n'))
      if (/^dsh /.test(line) && !/^dsh --version$/.test(line))
        assert.match(line, /--profile /, `every dsh line names a profile: ${line}`)
})

/** Block 0 as written in a fresh machine; asserts the hmr pin took. */
async function installHost(env: Record<string, string>, home: string, label: string): Promise<void> {
  const run = await runBlock(hostBlock!, home, env, `${label}-host`)
  assert.equal(run.code, 0, `README block 0 (the host) failed (${label})\n${hostBlock}\n${describeRun(run)}`)
  assert.match(run.stdout, /^0\.1\.0-rc\.8$/m, 'dsh --version')
  const hmr = readdirSync(join(home, '.dsh-cli', 'node_modules', '.pnpm')).filter((n) =>
    n.startsWith('@deepseek-ai+cordis-plugin-hmr@'),
  )
  assert.ok(
    hmr.length === 1 && hmr[0]!.startsWith(`@deepseek-ai+cordis-plugin-hmr@${HMR_VERSION}`),
    `hmr pinned: ${hmr.join(', ')}`,
  )
}

/** The steps after the plugin in a fresh repository, then what the run produced. */
async function runSteps(blocks: readonly string[], env: Record<string, string>, label: string): Promise<void> {
  const repo = makeProject({ 'README.md': 'a repository\n' }, `dsh-readme-${label}-`)
  const from = model.requests.length
  for (const [i, block] of blocks.entries()) {
    const run = await runBlock(block, repo.path, env, `${label}-${i}`)
    assert.equal(run.code, 0, `README block failed (${label})\n${block}\n${describeRun(run)}`)
  }
  const yml = readFileSync(repo.join('.dsh', 'mcp.yml'), 'utf8')
  assert.match(yml, /^# yaml-language-server: \$schema=mcp\.schema\.json$/m)
  assert.ok(existsSync(repo.join('.dsh', 'mcp.schema.json')), 'the $schema line resolves inside the repository')
  assert.match(yml, /server-memory/)
  const turns = model.turns(from)
  assert.ok(turns.length >= 1, 'the agent asked the model')
  const offered = turns[0]!.toolNames.filter((n) => n.startsWith('mcp__'))
  assert.ok(
    offered.some((n) => n.startsWith('mcp__memory__')),
    `the flagship server's tools are offered: ${offered.join(', ') || 'none'}`,
  )
}

test('from the registry (once published): the blocks as written, the package spec replaced by the tarball', async () => {
  const m = machine('registry')
  await installHost(m.env, m.home, 'registry')
  const sub = substituteSpec(registryBlock!, tarball.file)
  assert.equal(sub.count, 2, 'both install lines name the package')
  const run = await runBlock(sub.text, m.home, m.env, 'registry-plugin')
  assert.equal(run.code, 0, `the registry block failed\n${sub.text}\n${describeRun(run)}`)
  await runSteps(steps, m.env, 'registry')
})

test('from a checkout (shown first): npm pack in the checkout, then the same steps', async () => {
  const m = machine('checkout')
  await installHost(m.env, m.home, 'checkout')
  const checkout = stageWorkingTree()
  const run = await runBlock(checkoutBlock!, checkout, m.env, 'checkout')
  assert.equal(run.code, 0, `the checkout block failed\n${checkoutBlock}\n${describeRun(run)}`)
  await runSteps(steps, m.env, 'checkout')
})
