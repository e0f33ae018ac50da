// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the planted bin.js is source text with a template literal
/**
 * Ambient files (issue 24, item 3): a file a commit adds to the checkout
 * never changes what a trusted package-runner server runs. On a real host:
 * - npm: a committed `.npmrc` with `node-options=--require ./x.cjs` (in the
 *   server's cwd, and in the checkout root above a `cwd: sub` with a
 *   `package.json` there) under a trusted `npx -y --package=<local tarball>`
 *   and `npm exec` server: the package's bin runs (its marker), `x.cjs`
 *   never does (its marker stays absent). No network: the package is a local
 *   tarball packed here, npm's cache a temp dir.
 * - pnpm and bun (no switch to ignore a project file): a fake runner on an
 *   absolute PATH entry outside the checkout records that it ran; with
 *   `.npmrc` / `pnpm-workspace.yaml` / `bunfig.toml` in the checkout it never
 *   runs (refused, the log says why); without, it runs (the control).
 * - yarn dlx and uvx: a fake runner records the environment it receives:
 *   `YARN_RC_FILENAME` (a name no checkout holds), `YARN_IGNORE_PATH=1`,
 *   `UV_NO_CONFIG=1`.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { stdioFixtureArgs } from '../support/fixture-config.ts'
import { markerRig } from '../support/markers.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { makeTempDir } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'

const rig = markerRig('ambient')
const worlds: RuntimeWorld[] = []
after(async () => {
  for (const w of worlds) await w.dispose()
})
async function world(): Promise<RuntimeWorld> {
  const w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 60_000 })
  worlds.push(w)
  return w
}

/** A local npm package whose bin appends to `$RAN_MARKER`, then runs the stdio fixture (a real MCP server). */
function tarball(): string {
  const pkg = makeTempDir('dsh-mcp-ambient-pkg-')
  pkg.write('package.json', JSON.stringify({ name: 'fakesrv', version: '1.2.3', bin: { fakesrv: 'bin.js' } }))
  pkg.write(
    'bin.js',
    [
      '#!/usr/bin/env node',
      "const { appendFileSync } = require('node:fs')",
      "const { spawn } = require('node:child_process')",
      "appendFileSync(process.env.RAN_MARKER, `ran ${process.env.NODE_OPTIONS || ''}\\n`)",
      "const c = spawn(process.env.FIXTURE_NODE, JSON.parse(process.env.FIXTURE_ARGS), { stdio: 'inherit' })",
      "c.on('exit', (code) => process.exit(code ?? 1))",
      "for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => c.kill(s))",
      '',
    ].join('\n'),
  )
  chmodSync(pkg.join('bin.js'), 0o755)
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', pkg.path], {
    cwd: pkg.path,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: pkg.join('cache') },
  })
  return pkg.join(out.trim().split('\n').pop() as string)
}

const TGZ = tarball()
const NPM_CACHE = makeTempDir('dsh-mcp-ambient-cache-').path

function npmServer(command: string[], ran: string, cwd?: string): Record<string, unknown> {
  return {
    command: command[0],
    args: command.slice(1),
    ...(cwd ? { cwd } : {}),
    env: {
      RAN_MARKER: ran,
      FIXTURE_NODE: process.execPath,
      FIXTURE_ARGS: JSON.stringify(stdioFixtureArgs({ name: 'fakesrv', tools: ['t'] })),
      npm_config_cache: NPM_CACHE,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
  }
}

const PLANT = (pwn: string) => `require('node:fs').appendFileSync(${JSON.stringify(pwn)}, 'x.cjs ran\\n')\n`

const NPM_VARIANTS: {
  label: string
  command: string[]
  files: (pwn: string) => Record<string, string>
  cwd?: string
}[] = [
  {
    label: 'npx, .npmrc in the cwd',
    command: ['npx', '-y', `--package=${TGZ}`, 'fakesrv'],
    files: (pwn) => ({ '.npmrc': 'node-options=--require ./x.cjs\n', 'x.cjs': PLANT(pwn) }),
  },
  {
    label: 'npx, .npmrc at the checkout root above cwd: sub',
    command: ['npx', '-y', `--package=${TGZ}`, 'fakesrv'],
    cwd: 'sub',
    files: (pwn) => ({
      'package.json': '{"name":"victim","private":true}\n',
      '.npmrc': `node-options=--require ${JSON.stringify('__ROOT__/x.cjs').slice(1, -1)}\n`,
      'x.cjs': PLANT(pwn),
      'sub/.keep': '',
    }),
  },
  {
    label: 'npm exec, .npmrc in the cwd',
    command: ['npm', 'exec', '-y', `--package=${TGZ}`, '--', 'fakesrv'],
    files: (pwn) => ({ '.npmrc': 'node-options=--require ./x.cjs\n', 'x.cjs': PLANT(pwn) }),
  },
]

for (const v of NPM_VARIANTS) {
  test(`npm: ${v.label} — the package runs, the checkout's x.cjs never does`, async () => {
    const w = await world()
    const ran = rig.marker('ran')
    const pwn = rig.marker('pwn')
    const p = projectWith({})
    for (const [f, text] of Object.entries(v.files(pwn))) p.write(f, text.replaceAll('__ROOT__', p.path))
    p.write('.dsh/mcp.yml', friendly({ fake: npmServer(v.command, ran, v.cwd) }))
    await w.host.createAgent({ cwd: p.path })
    await waitFor(() => existsSync(ran), { message: `${v.label}: the package's bin never ran` })
    await w.mcp.whenIdle()
    const row = w.mcp.snapshot().projects.find((x) => x.root === p.path)?.servers[0]
    assert.equal(row?.state, 'mounted', `${v.label}: ${row?.lastError ?? ''}`)
    assert.doesNotMatch(readFileSync(ran, 'utf8'), /x\.cjs/, 'NODE_OPTIONS from the checkout reached the server')
    assert.equal(existsSync(pwn), false, `${v.label}: the checkout's x.cjs ran`)
  })
}

/** A fake runner (`name`) on an absolute PATH entry outside the checkout: records its env, then runs nothing. */
function fakeRunner(name: string, record: string): string {
  const dir = makeTempDir(`dsh-mcp-fake-${name}-`)
  dir.write(
    name,
    `#!/bin/sh\nprintf 'ran YARN_RC_FILENAME=%s YARN_IGNORE_PATH=%s UV_NO_CONFIG=%s ARGS=%s\\n' "$YARN_RC_FILENAME" "$YARN_IGNORE_PATH" "$UV_NO_CONFIG" "$*" >> '${record}'\nexit 3\n`,
  )
  chmodSync(dir.join(name), 0o755)
  return dir.path
}

const REFUSED: { runner: string; args: string[]; file: string }[] = [
  { runner: 'pnpm', args: ['dlx', 'fakesrv@1.2.3'], file: '.npmrc' },
  { runner: 'pnpx', args: ['fakesrv@1.2.3'], file: 'pnpm-workspace.yaml' },
  { runner: 'pnpm', args: ['dlx', 'fakesrv@1.2.3'], file: '.pnpmfile.cjs' },
  { runner: 'bunx', args: ['fakesrv@1.2.3'], file: 'bunfig.toml' },
  { runner: 'bun', args: ['x', 'fakesrv@1.2.3'], file: '.npmrc' },
]

test('pnpm and bun: a project file they would read refuses the server (never started); without it, it starts', async () => {
  const w = await world()
  for (const r of REFUSED) {
    const record = rig.marker(`${r.runner}-refused`)
    const bin = fakeRunner(r.runner, record)
    const p = projectWith(
      { fake: { command: r.runner, args: r.args, env: { PATH: `${bin}:/usr/bin:/bin` } } },
      { [r.file]: 'x=1\n' },
    )
    await w.host.createAgent({ cwd: p.path })
    await w.mcp.whenIdle()
    const row = w.mcp.snapshot().projects.find((x) => x.root === p.path)?.servers[0]
    assert.notEqual(row?.state, 'mounted', `${r.runner} ${r.file}`)
    assert.equal(existsSync(record), false, `${r.runner} started despite ${r.file}`)
    // Control: the same server in a checkout without the file starts the runner.
    const ok = rig.marker(`${r.runner}-control`)
    const okBin = fakeRunner(r.runner, ok)
    const q = projectWith({ fake: { command: r.runner, args: r.args, env: { PATH: `${okBin}:/usr/bin:/bin` } } })
    await w.host.createAgent({ cwd: q.path })
    await waitFor(() => existsSync(ok), { message: `control: ${r.runner} never ran` })
  }
})

test('yarn dlx and uvx receive the switches that turn their project config off', async () => {
  const w = await world()
  for (const [runner, args, want] of [
    ['yarn', ['dlx', 'fakesrv@1.2.3'], /YARN_RC_FILENAME=\.yarnrc\.dsh-mcp-none\.yml YARN_IGNORE_PATH=1 /],
    ['uvx', ['fakesrv==1.2.3'], /UV_NO_CONFIG=1 /],
    ['uv', ['tool', 'run', 'fakesrv==1.2.3'], /UV_NO_CONFIG=1 /],
  ] as const) {
    const record = rig.marker(`${runner}-env`)
    const bin = fakeRunner(runner, record)
    const p = projectWith(
      { fake: { command: runner, args: [...args], env: { PATH: `${bin}:/usr/bin:/bin` } } },
      { '.yarnrc.yml': 'yarnPath: ./x.cjs\n', 'uv.toml': 'index-url = "http://127.0.0.1:1/"\n' },
    )
    await w.host.createAgent({ cwd: p.path })
    await waitFor(() => existsSync(record), { message: `${runner} never ran` })
    assert.match(readFileSync(record, 'utf8'), want, runner)
  }
})
