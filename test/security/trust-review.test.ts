/**
 * Issue 12 class 3 (review content): the trust review shows everything that
 * decides what runs — the full command line, the resolved working
 * directory, the URL — and in full, flagged, every env var whose name can
 * load or redirect code (a reviewed constant, pinned here), while every
 * other value stays redacted; it warns on an unpinned package runner with
 * the exact pinned form. Tried as an attacker: a hidden `LD_PRELOAD`, a
 * `npx -y` of whatever a name resolves to today, and a review that nobody
 * confirmed — the host spawns nothing until the user says yes (markers).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CODE_ENV_NAMES, CODE_ENV_PREFIXES, CODE_ENV_SUFFIXES, isCodeEnv } from '../../src/config/code-env.ts'
import { unpinnedRunner } from '../../src/config/runners.ts'
import { mcpToolNames } from '../support/host.ts'
import { readMarker } from '../support/procs.ts'
import { projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cli, reconcileTimes, serverOf, untilTools } from '../support/trust.ts'
import { markerRig } from '../support/markers.ts'

const { pids, marker } = markerRig('review')

test('the code-loading env list: every name the issue lists (and the researched ones) is flagged; ordinary names are not', () => {
  const flagged = [
    'NODE_OPTIONS',
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'LD_AUDIT',
    'DYLD_INSERT_LIBRARIES',
    'DYLD_LIBRARY_PATH',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'PYTHONHOME',
    'PERL5OPT',
    'PERL5LIB',
    'RUBYOPT',
    'RUBYLIB',
    'JAVA_TOOL_OPTIONS',
    '_JAVA_OPTIONS',
    'JDK_JAVA_OPTIONS',
    'CLASSPATH',
    'BASH_ENV',
    'ENV',
    'PATH',
    'npm_config_registry',
    'NPM_CONFIG_USERCONFIG',
    'GIT_SSH_COMMAND',
    'GIT_CONFIG_GLOBAL',
    'NODE_PATH',
    'ELECTRON_RUN_AS_NODE',
    'PROMPT_COMMAND',
    'ZDOTDIR',
    'SHELLOPTS',
    'BASH_FUNC_ls%%',
    'DOTNET_STARTUP_HOOKS',
    'GCONV_PATH',
    'HTTPS_PROXY',
    'NODE_EXTRA_CA_CERTS',
    'PIP_INDEX_URL',
    'UV_INDEX_URL',
    'HOME',
  ]
  for (const n of flagged) assert.ok(isCodeEnv(n), `${n} must be flagged`)
  for (const n of ['API_TOKEN', 'GITHUB_TOKEN', 'DEBUG', 'MY_SETTING', 'LOG_LEVEL', 'TZ', 'LANG'])
    assert.ok(!isCodeEnv(n), `${n} must stay redacted`)
  // The constant is reviewed: any change to it changes this pin (update it on purpose, with the reason in the commit).
  assert.equal(CODE_ENV_NAMES.length, 113)
  assert.deepEqual(
    [...CODE_ENV_PREFIXES],
    [
      'LD_',
      'DYLD_',
      'BASH_FUNC_',
      'PYTHON',
      'PERL',
      'RUBY',
      'NPM_CONFIG_',
      'YARN_',
      'PNPM_',
      'COREPACK_',
      'GIT_',
      'PIP_',
      'UV_',
      'CARGO_',
      'DOTNET_',
      'CORECLR_',
      'OPENSSL_',
      'GO',
      'RUSTUP_',
      'MAVEN_',
      'GRADLE_',
      'SBT_',
      'TS_NODE_',
      'CONDA_',
      'DENO_',
      'BUN_',
      'ELECTRON_',
      'JAVA',
      'R_',
      'HG',
      'CMAKE_',
    ],
  )
  assert.equal(CODE_ENV_SUFFIXES.length, 42)
  // Found by the second red team: tools' own option, toolchain and compiler variables; the suffix rule catches the next tool too.
  for (const n of [
    'MAVEN_OPTS',
    'GRADLE_OPTS',
    'SBT_OPTS',
    'RUSTUP_TOOLCHAIN',
    'GOENV',
    'GOROOT',
    'TS_NODE_COMPILER',
    'ANT_OPTS',
    'LEIN_JVM_OPTS',
    'ERL_FLAGS',
    'ELIXIR_ERL_OPTIONS',
    'NEWTOOL_PLUGIN_PATH',
    'PHP_INI_SCAN_DIR',
    'JULIA_LOAD_PATH',
    'R_PROFILE_USER',
  ])
    assert.ok(isCodeEnv(n), `${n} is flagged`)
  for (const n of ['GOOGLE_API_KEY', 'NEWTOOL_KEY', 'SERVICE_AUTH', 'DB_PASS'])
    assert.ok(!isCodeEnv(n), `${n} stays redacted`)
  for (const n of CODE_ENV_NAMES) assert.equal(n, n.toUpperCase(), `${n} is written upper case`)
  // Found by the red team: each loads code or runs a command at start-up.
  for (const n of [
    'OPENSSL_CONF',
    'openssl_modules',
    'GLIBC_TUNABLES',
    'GCONV_PATH',
    'SSH_ASKPASS',
    'AWS_CONFIG_FILE',
    'DOCKER_HOST',
    'KUBECONFIG',
    'NODE_ICU_DATA',
  ])
    assert.ok(isCodeEnv(n), `${n} is flagged`)
  // Found by the third red team: run code in a native build or an editor, or redirect where a token goes.
  for (const n of [
    'CC',
    'CXX',
    'MAKEFLAGS',
    'HGRCPATH',
    'EXINIT',
    'GH_HOST',
    'GITHUB_HOST',
    'GITHUB_API_URL',
    'VAULT_ADDR',
    'CMAKE_C_COMPILER_LAUNCHER',
  ])
    assert.ok(isCodeEnv(n), `${n} is flagged`)
  // A secret-shaped name in a flagged family keeps its value redacted (the review shows flagged values in full).
  for (const n of [
    'GIT_TOKEN',
    'PIP_PASSWORD',
    'NPM_CONFIG__AUTH_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'CARGO_REGISTRY_TOKEN',
  ])
    assert.ok(!isCodeEnv(n), `${n} stays redacted`)
})

test('unpinned package runners: each is caught with its exact pinned form; an exact version is left alone', () => {
  const cases: [string, string[], string | undefined][] = [
    ['npx', ['-y', 'some-mcp'], 'npx -y some-mcp@<version>'],
    ['npx', ['some-mcp', '--stdio'], 'npx some-mcp@<version> --stdio'],
    ['npx', ['-y', '@scope/srv@latest'], 'npx -y @scope/srv@<version>'],
    ['npx', ['-y', '@scope/srv@1.2.3'], undefined],
    ['npx', ['--package', 'srv', 'srv-bin'], 'npx --package srv@<version> srv-bin'],
    ['/usr/local/bin/npx', ['-y', 'srv@^1'], '/usr/local/bin/npx -y srv@<version>'],
    ['pnpm', ['dlx', 'srv'], 'pnpm dlx srv@<version>'],
    ['yarn', ['dlx', 'srv'], 'yarn dlx srv@<version>'],
    ['bunx', ['srv'], 'bunx srv@<version>'],
    ['npm', ['exec', 'srv'], 'npm exec srv@<version>'],
    ['uvx', ['mcp-server-git'], 'uvx mcp-server-git@<version>'],
    ['uvx', ['mcp-server-git@0.6.2'], undefined],
    ['uv', ['tool', 'run', 'srv'], 'uv tool run srv@<version>'],
    ['pipx', ['run', 'srv'], 'pipx run --spec srv==<version> srv'],
    ['pipx', ['run', '--spec', 'srv==1.0.0', 'srv'], undefined],
    ['node', ['server.js'], undefined],
    ['pnpm', ['install'], undefined],
  ]
  for (const [command, args, want] of cases) {
    const got = unpinnedRunner(command, args)
    assert.equal(got ? got.pinned.join(' ') : undefined, want, `${command} ${args.join(' ')}`)
  }
})

test('the review shows code-loading env values in full and flagged, other values redacted, the cwd resolved, and the pinned form of npx -y', async (t) => {
  const w = await startWorld({ trust: 'require' })
  t.after(() => w.dispose())
  const p = projectWith({
    srv: {
      command: 'npx',
      args: ['-y', 'helpful-mcp'],
      cwd: 'tools',
      env: { LD_PRELOAD: '/tmp/evil.so', npm_config_registry: 'http://127.0.0.1:9/', API_TOKEN: 'sekrit-value-123' },
    },
    web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer hdr-secret-456' } },
  })
  const r = await cli(w, p.path, ['trust', '--all', '--yes'])
  const out = r.stdout
  assert.match(out, /command: +npx -y helpful-mcp\n/)
  assert.match(out, new RegExp(`cwd: +${p.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/tools\\n`))
  assert.match(out, /url: +http:\/\/127\.0\.0\.1:9\/mcp\n/)
  assert.match(out, /! env LD_PRELOAD=\/tmp\/evil\.so +\(can load or redirect code: shown in full\)/)
  assert.match(out, /! env npm_config_registry=http:\/\/127\.0\.0\.1:9\/ +\(can load or redirect code/)
  assert.match(out, /! npx fetches "helpful-mcp" as it is on the registry at each start/)
  assert.match(out, /pin an exact version instead: npx -y 'helpful-mcp@<version>'/)
  assert.doesNotMatch(out + r.stderr, /sekrit-value-123|hdr-secret-456/, 'other values stay redacted')
  assert.match(out, /env keys: +LD_PRELOAD, npm_config_registry, API_TOKEN/)
})

test('a review nobody confirmed trusts nothing: the host never spawns the server; confirmed, it runs', async (t) => {
  const m = marker('review')
  const w = await startWorld({ trust: 'require', debounceMs: 20 })
  t.after(() => w.dispose())
  const p = projectWith({
    s: stdioEntry('s', { tools: ['t'], marker: m, pidfileDir: pids, env: { NODE_OPTIONS: '--max-old-space-size=64' } }),
  })
  const agent = (await w.host.createAgent({ cwd: p.path })).agent
  const refused = await cli(w, p.path, ['trust', 's'], { expectFail: true })
  assert.equal(refused.code, 1)
  assert.match(refused.stdout, /! env NODE_OPTIONS=--max-old-space-size=64/)
  assert.match(refused.stderr, /not trusting without confirmation/)
  await reconcileTimes(w, 2)
  assert.deepEqual(readMarker(m), [])
  assert.deepEqual(mcpToolNames(w.host.ctx, agent), [])
  assert.equal(serverOf(w, p.path, 's').state, 'untrusted')
  await cli(w, p.path, ['trust', 's', '--yes'])
  await untilTools(w, agent, ['mcp__s__t'], 'confirmed, it runs')
  assert.equal(readMarker(m).length, 1)
})
