/**
 * The README's quickstart works as written: its fenced `sh` blocks (section
 * "Quickstart") are extracted and run in order by bash, line by line with
 * `set -e`, against the real `dsh` CLI (rc.8) on PATH, the packed plugin, a
 * real global `npm i -g` (prefix in a temp dir) and the fake model on
 * 127.0.0.1. The only substitutions: the package spec `dsh-project-mcp` of
 * the two install lines becomes the packed tarball, and the model endpoint
 * comes from the environment (`DEEPSEEK_BASE_URL`, `DEEPSEEK_API_KEY`).
 * Two flows: from the registry (spec substituted) and from a checkout (the
 * checkout block runs verbatim in a staged copy of this working tree).
 * The flagship server (`@modelcontextprotocol/server-memory` through npx)
 * really starts: the model is offered its tools. README.zh.md carries the
 * same blocks.
 */
import assert from 'node:assert/strict'
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import {
  CACHE_ROOT,
  type DshCli,
  describeRun,
  ensureDshCli,
  installEnv,
  isolatedEnv,
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
const checkoutBlock = en.find((b) => /\bnpm pack\b/.test(b))
const steps = en.filter((b) => b !== checkoutBlock)
const NPM_CACHE = join(CACHE_ROOT, 'npm-cache')

let cli: DshCli
let tarball: Tarball
let model: FakeModel
let work: TempDir

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

/** A machine: HOME, DSH_HOME, a global npm prefix, `dsh` on PATH. */
function machine(name: string): { env: Record<string, string>; home: string } {
  const home = work.mkdir(`${name}/home`)
  const prefix = work.mkdir(`${name}/npm-global`)
  const bin = work.mkdir(`${name}/bin`)
  const dsh = work.write(
    `${name}/bin/dsh`,
    `#!/bin/sh\nexec ${JSON.stringify(NODE22)} ${JSON.stringify(cli.bin)} "$@"\n`,
  )
  chmodSync(dsh, 0o755)
  const base = isolatedEnv(cli, { home, dshHome: join(home, '.dsh') })
  const env = {
    ...base,
    ...installEnv(),
    PATH: `${bin}:${join(prefix, 'bin')}:${base.PATH}`,
    npm_config_prefix: prefix,
    npm_config_cache: NPM_CACHE,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    DEEPSEEK_BASE_URL: model.baseURL,
    DEEPSEEK_API_KEY: 'sk-fake-readme',
  }
  return { env, home }
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
  cli = await ensureDshCli()
  work = makeTempDir('dsh-readme-')
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

test('the quickstart has its steps and a checkout variant, and README.zh.md runs the same blocks', () => {
  assert.ok(checkoutBlock, 'a block with npm pack (install from a checkout)')
  assert.ok(steps.length >= 4, `four steps, got ${steps.length}`)
  assert.deepEqual(zh, en, 'README.zh.md has the same shell blocks as README.md')
  for (const b of en)
    for (const line of b.split('\n'))
      if (/^dsh /.test(line)) assert.match(line, /--profile /, `every dsh line names a profile: ${line}`)
})

/** Steps 2.. in a fresh repository, then what the run produced. */
async function runSteps(blocks: readonly string[], env: Record<string, string>, label: string): Promise<void> {
  const repo = makeProject({ 'README.md': 'a repository\n' }, `dsh-readme-${label}-`)
  const from = model.requests.length
  for (const [i, block] of blocks.entries()) {
    const run = await runBlock(block, repo.path, env, `${label}-${i}`)
    assert.equal(run.code, 0, `README block ${i + 1} failed (${label})\n${block}\n${describeRun(run)}`)
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

test('from the registry: the blocks as written, the package spec replaced by the tarball', async () => {
  const m = machine('registry')
  const [install, ...rest] = steps
  const sub = substituteSpec(install!, tarball.file)
  assert.equal(sub.count, 2, 'both install lines name the package')
  await runSteps([sub.text, ...rest], m.env, 'registry')
})

test('from a checkout: npm pack in the checkout, then the same steps', async () => {
  const m = machine('checkout')
  const checkout = stageWorkingTree()
  const run = await runBlock(checkoutBlock!, checkout, m.env, 'checkout')
  assert.equal(run.code, 0, `the checkout block failed\n${checkoutBlock}\n${describeRun(run)}`)
  await runSteps(steps.slice(1), m.env, 'checkout')
})
