/**
 * Node 20: the plugin needs the Node the host needs (22). Wherever its
 * module is evaluated on Node 20 (the copy `dsh plugin add` installed,
 * imported as a host imports it), it fails with that cause in one line on
 * stderr and rejects with it, before loading anything of the host. The
 * real rc.8 `dsh` on Node 20 fails earlier, in its own loader, before any
 * plugin module runs ("plugin(s) failed to load: …, dsh-project-mcp; …
 * could not be resolved"): recorded here, and named in the README. The same
 * install on Node 22 boots with the plugin (the control). Node 20 is the
 * system `node`; skipped, saying so, where the system node is not 20.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { after, before, test } from 'node:test'
import { describeRun, NODE22, runDsh, runIsolated } from '../support/dsh-cli.ts'
import { installPackedPlugin, type PackedPlugin } from '../support/packed-plugin.ts'

let node20: string | undefined
try {
  const path = execFileSync('sh', ['-c', 'command -v node'], {
    encoding: 'utf8',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  }).trim()
  const v = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim()
  if (/^v20\./.test(v)) node20 = path
} catch {}

let p: PackedPlugin
before(async () => {
  if (node20) p = await installPackedPlugin({ prefix: 'dsh-node20-' })
})
after(async () => {
  await p?.close()
})

test('on Node 20 the plugin, wherever its module is evaluated, fails with the cause in one line', {
  skip: node20 ? false : 'no Node 20 system node here',
}, async () => {
  // The copy `dsh plugin add` installed into the profile, imported as a host imports it.
  const profile = join(p.env.DSH_HOME!, 'profiles', 'headless')
  const script =
    "import('dsh-project-mcp').then(() => console.log('loaded'), (e) => console.log('rejected: ' + e.message))"
  const run = await runIsolated(node20!, ['-e', script], {
    cwd: profile,
    env: { HOME: p.env.HOME!, PATH: '/usr/bin:/bin' },
  })
  assert.equal(run.code, 0, describeRun(run))
  const line =
    /^dsh-project-mcp needs Node >= 22 \(the Node the dsh host needs\); this host runs on Node v20\.\d+\.\d+: run dsh with Node 22 or later$/
  const stderr = run.stderr.trimEnd().split('\n')
  assert.equal(stderr.length, 1, `one line on stderr\n${describeRun(run)}`)
  assert.match(stderr[0]!, line)
  assert.match(run.stdout, /^rejected: dsh-project-mcp needs Node >= 22/, 'the import rejects with the same cause')
})

test("the rc.8 host on Node 20 fails before any plugin module runs (recorded: the README names this line's cause)", {
  skip: node20 ? false : 'no Node 20 system node here',
}, async () => {
  const env = {
    ...p.env,
    PATH: p.env
      .PATH!.split(':')
      .filter((d) => d !== dirname(NODE22))
      .join(':'),
    DEEPSEEK_API_KEY: 'sk-fake',
  }
  const run = await runIsolated(node20!, [p.cli.bin, '--profile', 'headless', '--patch', p.hostPatch, 'hello'], {
    cwd: p.work.path,
    env,
    timeoutMs: 120_000,
  })
  assert.notEqual(run.code, 0, describeRun(run))
  assert.match(run.stderr, /plugin\(s\) failed to load: .*dsh-project-mcp/, describeRun(run))
})

test('the control: on Node 22 the same install boots with the plugin', {
  skip: node20 ? false : 'no Node 20 system node here',
}, async () => {
  const run = await runDsh(p.cli, ['--profile', 'headless', '--patch', p.hostPatch, 'hello'], {
    cwd: p.work.path,
    env: { ...p.env, DEEPSEEK_API_KEY: 'sk-fake' },
    timeoutMs: 120_000,
  })
  assert.doesNotMatch(run.stderr, /needs Node >= 22/)
  assert.doesNotMatch(run.stderr, /failed to load/, describeRun(run))
})
