/** The reviewed list of env names that load or redirect code: every researched name is flagged, ordinary names are not. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CODE_ENV_NAMES, CODE_ENV_PREFIXES, CODE_ENV_SUFFIXES, isCodeEnv } from '../../src/config/code-env.ts'

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
    // version managers pick what a shim runs (issue 24, item 3)
    'PYENV_VERSION',
    'PYENV_ROOT',
    'NODENV_VERSION',
    'RBENV_VERSION',
    'ASDF_PYTHON_VERSION',
    'ASDF_DATA_DIR',
    'MISE_PYTHON_VERSION',
    'MISE_ENV',
    'VOLTA_HOME',
    'VOLTA_FEATURE_PNPM',
    'NVM_DIR',
    'UV_PYTHON',
    'UV_CONFIG_FILE',
    'PIP_CONFIG_FILE',
    'PIP_REQUIRE_VIRTUALENV',
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
      'PYENV',
      'NODENV_',
      'RBENV_',
      'ASDF_',
      'MISE_',
      'RTX_',
      'VOLTA_',
      'NVM_',
      'FNM_',
      'JENV_',
      'SDKMAN_',
    ],
  )
  assert.equal(CODE_ENV_SUFFIXES.length, 54)
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

test('a bare _PATH (a data file) is not flagged: only loader paths are (issue 29)', () => {
  for (const n of ['MEMORY_FILE_PATH', 'DB_PATH', 'OUTPUT_PATH', 'ALLOWED_PATH', 'LOG_PATH'])
    assert.ok(!isCodeEnv(n), `${n} names data, stays redacted`)
  for (const n of ['NODE_OPTIONS', 'LD_PRELOAD', 'PYTHONSTARTUP', 'BASH_ENV', 'LUA_PATH', 'GEM_PATH', 'PERL5LIB'])
    assert.ok(isCodeEnv(n), `${n} loads code`)
  for (const n of ['JULIA_LOAD_PATH', 'NEWTOOL_PLUGIN_PATH', 'GIT_EXEC_PATH', 'QT_PLUGIN_PATH', 'FOO_LIBRARY_PATH'])
    assert.ok(isCodeEnv(n), `${n} is a loader path`)
})
