/**
 * Environment variables whose value can load or redirect code, or redirect
 * where traffic or downloads go: the trust review shows them in full and
 * flagged (every other env value stays redacted).
 *
 * Contract: pure. `isCodeEnv(name)` is true for a name in `CODE_ENV_NAMES`,
 * starting with one of `CODE_ENV_PREFIXES` or ending with one of
 * `CODE_ENV_SUFFIXES` (the naming conventions tools use for options,
 * toolchains, search paths and hooks: `MAVEN_OPTS`, `RUSTUP_TOOLCHAIN`,
 * `TS_NODE_COMPILER`, `GOROOT` — a list of exact names always misses
 * the next tool), compared case-insensitively
 * (Windows names are case-insensitive, and npm reads `npm_config_*` in any
 * case). How a name is decided: it is flagged when the program it
 * configures (a dynamic loader, an interpreter, a shell, a package manager,
 * a toolchain the server may start) reads it to load code, run a command,
 * or choose where code, certificates or requests come from — an exact name
 * for a known variable (`NODE_OPTIONS`, `PYTHONSTARTUP`, `BASH_ENV`), a
 * family prefix only when the whole family configures such a program
 * (`LD_`, `PYTHON`, `NPM_CONFIG_`), a suffix only when the suffix itself says
 * loader (`_OPTS`, `_PRELOAD`, `_LIBRARY_PATH`, `_PLUGIN_PATH`). A bare
 * `_PATH` is not such a suffix: `MEMORY_FILE_PATH` names a data file and stays
 * redacted like any other value. A secret-shaped name (`GIT_TOKEN`) is never flagged: the review
 * shows flagged values in full, and a secret never prints. The lists are a reviewed constant — a unit test pins them.
 *
 * @module
 */

/** Exact names (upper case). */
export const CODE_ENV_NAMES: readonly string[] = [
  // search paths and shells
  'PATH',
  'PATHEXT',
  'COMSPEC',
  'SHELL',
  'HOME',
  'XDG_CONFIG_HOME',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'ZDOTDIR',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PS4',
  'CDPATH',
  // the dynamic linker and glibc loaders
  'GCONV_PATH',
  'HOSTALIASES',
  'RESOLV_HOST_CONF',
  'GLIBC_TUNABLES',
  'LOCPATH',
  'NLSPATH',
  'TERMINFO',
  'TERMINFO_DIRS',
  'TMPDIR',
  // Node.js, Electron, Deno, Bun
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'NODE_REPL_EXTERNAL_MODULE',
  'NODE_ICU_DATA',
  'ELECTRON_RUN_AS_NODE',
  'DENO_DIR',
  'BUN_OPTIONS',
  'BUN_INSTALL',
  'TS_NODE_COMPILER_OPTIONS',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  // Java and .NET
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'JAVA_OPTS',
  'JAVA_HOME',
  'CLASSPATH',
  'COR_PROFILER',
  'COR_PROFILER_PATH',
  'COR_ENABLE_PROFILING',
  // Ruby, Lua, PHP, Go, Rust
  'GEM_HOME',
  'GEM_PATH',
  'BUNDLE_GEMFILE',
  'LUA_PATH',
  'LUA_CPATH',
  'LUA_INIT',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'GOFLAGS',
  'GOPROXY',
  'GONOSUMDB',
  'GOINSECURE',
  'GOTOOLCHAIN',
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTFLAGS',
  // helpers other programs run
  'EDITOR',
  'VISUAL',
  'PAGER',
  'BROWSER',
  'LESSOPEN',
  'LESSCLOSE',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'KUBECONFIG',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  // credential_process in an AWS config file runs a command
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_ENDPOINT_URL',
  'AWS_CA_BUNDLE',
  // where traffic and certificates go
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  // compilers and make, which a native build (`npx` of a package with an install script) runs
  'CC',
  'CXX',
  'CPP',
  'LD',
  'AR',
  'AS',
  'NM',
  'RANLIB',
  'STRIP',
  'CFLAGS',
  'CXXFLAGS',
  'CPPFLAGS',
  'LDFLAGS',
  'MAKE',
  'MAKEFLAGS',
  'MFLAGS',
  'GNUMAKEFLAGS',
  'MAKEFILES',
  // start-up files of editors and tools
  'EXINIT',
  'VIMINIT',
  'GVIMINIT',
  'MYVIMRC',
  'INPUTRC',
  'WGETRC',
  'GNUPGHOME',
  'SVN_SSH',
  'CVS_RSH',
  'RSYNC_RSH',
]

/** Name prefixes (upper case): whole families that configure a loader, an interpreter or a package manager. */
export const CODE_ENV_PREFIXES: readonly string[] = [
  'LD_', // LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, …
  'DYLD_', // macOS: DYLD_INSERT_LIBRARIES, DYLD_LIBRARY_PATH, …
  'BASH_FUNC_', // exported bash functions
  'PYTHON', // PYTHONPATH, PYTHONSTARTUP, PYTHONHOME, PYTHONWARNINGS, PYTHONBREAKPOINT, …
  'PERL', // PERL5OPT, PERL5LIB, PERLLIB, PERL5DB, …
  'RUBY', // RUBYOPT, RUBYLIB, …
  'NPM_CONFIG_', // npm_config_* (registry, script-shell, node-options, …)
  'YARN_',
  'PNPM_',
  'COREPACK_',
  'GIT_', // GIT_SSH_COMMAND, GIT_CONFIG_*, GIT_EXEC_PATH, …
  'PIP_', // PIP_INDEX_URL, …
  'UV_', // UV_INDEX_URL, …
  'CARGO_',
  'DOTNET_', // DOTNET_STARTUP_HOOKS, …
  'CORECLR_',
  'OPENSSL_', // OPENSSL_CONF (providers load shared objects), OPENSSL_ENGINES, OPENSSL_MODULES
  'GO', // GOENV, GOROOT, GOPATH, GOFLAGS, GOPROXY, GOTOOLCHAIN, …
  'RUSTUP_', // RUSTUP_TOOLCHAIN, RUSTUP_HOME, …
  'MAVEN_', // MAVEN_OPTS, MAVEN_ARGS, …
  'GRADLE_', // GRADLE_OPTS, GRADLE_USER_HOME, …
  'SBT_',
  'TS_NODE_', // TS_NODE_COMPILER, TS_NODE_PROJECT, …
  'CONDA_',
  'DENO_',
  'BUN_',
  'ELECTRON_',
  'JAVA', // JAVA_HOME, JAVA_OPTS, JAVACMD, …
  'R_', // R_PROFILE, R_LIBS, …
  'HG', // HGRCPATH, HGEDITOR, HGPLAIN, …
  'CMAKE_',
  // version managers: their shims pick the interpreter a bare `python3` / `node` / `ruby` runs (`PYENV_VERSION`)
  'PYENV', // PYENV_VERSION, PYENV_ROOT, PYENV_DIR, …
  'NODENV_',
  'RBENV_',
  'ASDF_',
  'MISE_',
  'RTX_', // mise's former name
  'VOLTA_',
  'NVM_',
  'FNM_',
  'JENV_',
  'SDKMAN_',
]

/** Name suffixes (upper case): options, toolchains, interpreters, search paths, hooks and configs of any tool. */
export const CODE_ENV_SUFFIXES: readonly string[] = [
  '_OPTS',
  '_OPTIONS',
  '_ARGS',
  '_FLAGS',
  '_TOOLCHAIN',
  '_COMPILER',
  '_INTERPRETER',
  '_WRAPPER',
  '_LAUNCHER',
  '_LOADER',
  '_PRELOAD',
  '_HOOK',
  '_HOOKS',
  '_PLUGIN',
  '_PLUGINS',
  '_EXTENSIONS',
  // search paths a loader reads code from — never a bare `_PATH` (`MEMORY_FILE_PATH`, `DB_PATH` name data files)
  '_LIBRARY_PATH',
  '_LOAD_PATH',
  '_MODULE_PATH',
  '_MODULES_PATH',
  '_PLUGIN_PATH',
  '_PLUGINS_PATH',
  '_EXTENSION_PATH',
  '_EXEC_PATH',
  '_BIN_PATH',
  '_LIB_PATH',
  '_CLASSPATH',
  '_INCLUDE_PATH',
  '_SCRIPT_PATH',
  '_HOME',
  '_ROOT',
  '_LIB',
  '_LIBS',
  '_BIN',
  '_CMD',
  '_COMMAND',
  '_EXEC',
  '_SHELL',
  '_STARTUP',
  '_INIT',
  '_RC',
  '_CONF',
  '_CONFIG',
  '_PROFILE',
  '_REGISTRY',
  '_PROXY',
  '_INDEX_URL',
  '_ENDPOINT',
  // where a tool sends its requests (and its token): `GH_HOST`, `GITHUB_API_URL`, `VAULT_ADDR`
  '_HOST',
  '_HOSTNAME',
  '_URL',
  '_URI',
  '_SERVER',
  '_ADDR',
]

import { isSecretName } from './redact-shapes.ts'

const NAMES = new Set(CODE_ENV_NAMES)

/** A secret-shaped name (`GIT_TOKEN`, `PIP_PASSWORD`) inside a flagged family: its value stays redacted. */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|ACCESS_KEY|API_KEY|PRIVATE_KEY/i

/** Whether an env var of this name can load or redirect code (or traffic); a secret-shaped name never is (its value is never shown). */
export function isCodeEnv(name: string): boolean {
  const upper = name.toUpperCase()
  if (SECRET_NAME.test(upper) || isSecretName(name)) return false
  return (
    NAMES.has(upper) ||
    CODE_ENV_PREFIXES.some((p) => upper.startsWith(p)) ||
    CODE_ENV_SUFFIXES.some((x) => upper.endsWith(x))
  )
}
