/**
 * The real `dsh` CLI for end-to-end tests (docs/adaptation/dsh-0.1.0-rc.8.md).
 *
 * Contract:
 * - {@link ensureDshCli} installs `@deepseek-ai/dsh@DSH_VERSION` with pnpm
 *   (hmr pinned to HMR_VERSION through a workspace override) into a cache dir
 *   keyed by version, `${os.tmpdir()}/dsh-project-mcp-e2e/dsh-<version>`, and
 *   reuses it on later runs. pnpm itself comes from this repo's devDependency
 *   when it has the pinned version, else from a cached `npm install`.
 * - Concurrency-safe without locks: each installer builds in a private staging
 *   dir, verifies it, marks it ready and publishes it with one atomic
 *   `rename`; the loser of a race discards its copy and uses the winner's.
 * - Any failure throws (a test that needs the CLI fails loudly, never skips).
 * - {@link runDsh} runs `env -i <explicit env> node22 <dsh bin> ...args`; the
 *   env is only what {@link isolatedEnv} builds, so nothing (DEEPSEEK_*, .env,
 *   DSH_TOOLS_MODE) leaks in from the test process. Every child is killed as
 *   a process group on timeout or by {@link reapDshChildren}.
 * - Install steps (pnpm, `dsh plugin add`) additionally get {@link installEnv}:
 *   npm's configured registry, CA/proxy variables and a shared pnpm store
 *   under the cache dir, so a warm cache installs offline-fast.
 */
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const DSH_VERSION = '0.1.0-rc.8'
export const HMR_VERSION = '1.0.17'
export const PNPM_VERSION = '12.4.2'

/** This repository's root. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The Node 22 binary (devDependency `node`), by absolute path. */
export const NODE22 = join(REPO_ROOT, 'node_modules', '.bin', 'node')
/** Shared cache root for every e2e artefact that survives runs. */
export const CACHE_ROOT = join(tmpdir(), 'dsh-project-mcp-e2e')
/** The pnpm content store shared by every install step. */
export const PNPM_STORE = join(CACHE_ROOT, 'pnpm-store')

export interface DshCli {
  readonly version: string
  /** The install dir (`.../dsh-<version>`). */
  readonly dir: string
  /** `lib/bin.js` of `@deepseek-ai/dsh`, run with {@link NODE22}. */
  readonly bin: string
  /** The pnpm executable `dsh plugin` finds on PATH. */
  readonly pnpm: string
  /** Whether this call installed it (false = cache hit). */
  readonly installed: boolean
  /** Time spent in this call (install or cache check), ms. */
  readonly ms: number
}

export interface RunResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
  /** A copy-pasteable shell line for the run (for failure messages). */
  readonly command: string
}

export interface RunOptions {
  readonly cwd: string
  readonly env: Record<string, string>
  /** Kill the whole process group after this long (default 60 s). */
  readonly timeoutMs?: number
}

const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin']
const live = new Set<ChildProcess>()

/**
 * Run `env -i ...env command ...args` in its own process group, collecting output.
 * Never rejects for a non-zero exit; rejects only when it cannot spawn.
 */
export function runIsolated(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const envArgs = Object.entries(options.env).map(([k, v]) => `${k}=${v}`)
  const argv = ['-i', ...envArgs, command, ...args]
  const quoted = ['env', ...argv]
    .map((a) => (/^[\w./:=@,+-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`))
    .join(' ')
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/env', argv, { cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    live.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d
    })
    const timer = setTimeout(() => {
      stderr += `\n[runIsolated] timeout after ${options.timeoutMs ?? 60_000} ms: killing process group\n`
      killGroup(child)
    }, options.timeoutMs ?? 60_000)
    child.on('error', (error) => {
      clearTimeout(timer)
      live.delete(child)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      live.delete(child)
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, command: `(cd ${options.cwd} && ${quoted})` })
    })
  })
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {}
}

/** SIGKILL the process group of every child still running (for `after()` hooks). */
export function reapDshChildren(): number {
  const n = live.size
  for (const child of live) killGroup(child)
  return n
}

/** Explain a run for an assertion message. */
export function describeRun(run: RunResult): string {
  return `${run.command}\n-> code ${run.code} signal ${run.signal} in ${run.ms} ms\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr.slice(-4000)}`
}

/**
 * The explicit environment of one isolated run: HOME, PATH (Node 22 first,
 * then pnpm, then system dirs), DSH_HOME, telemetry off, plus `extra`.
 */
export function isolatedEnv(
  cli: DshCli,
  vars: { home: string; dshHome: string; extra?: Record<string, string> },
): Record<string, string> {
  const path = [dirname(NODE22), dirname(cli.pnpm), ...SYSTEM_PATH].join(':')
  return { HOME: vars.home, PATH: path, DSH_HOME: vars.dshHome, DSH_TELEMETRY_DISABLED: '1', ...vars.extra }
}

let registry: string | undefined
/** Variables an install step needs on top of {@link isolatedEnv}: registry, CA, proxies, the shared store. */
export function installEnv(): Record<string, string> {
  registry ??= execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim()
  const env: Record<string, string> = {
    npm_config_registry: registry,
    pnpm_config_registry: registry,
    pnpm_config_store_dir: PNPM_STORE,
    pnpm_config_update_notifier: 'false',
    npm_config_update_notifier: 'false',
    XDG_CACHE_HOME: join(CACHE_ROOT, 'xdg-cache'),
  }
  const pass = /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY)$/
  for (const [k, v] of Object.entries(process.env)) if (pass.test(k) && v !== undefined) env[k] = v
  return env
}

/**
 * Publish `build`'s output at `${CACHE_ROOT}/${key}` exactly once across
 * concurrent processes. Returns the final dir and whether this call built it.
 */
export async function ensureCached(
  key: string,
  build: (staging: string) => Promise<void>,
): Promise<{ dir: string; built: boolean }> {
  const dir = join(CACHE_ROOT, key)
  const ready = (d: string) => existsSync(join(d, '.ready'))
  if (ready(dir)) return { dir, built: false }
  mkdirSync(CACHE_ROOT, { recursive: true })
  sweepStale(key)
  const staging = join(CACHE_ROOT, `.staging-${key}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`)
  mkdirSync(staging)
  try {
    await build(staging)
    writeFileSync(join(staging, '.ready'), `${new Date().toISOString()} pid ${process.pid}\n`)
    if (existsSync(dir) && !ready(dir)) renameSync(dir, `${staging}.broken`)
    renameSync(staging, dir)
    return { dir, built: true }
  } catch (error) {
    if (ready(dir)) return { dir, built: false } // lost the race: the winner's copy is good
    throw error
  } finally {
    rmSync(staging, { recursive: true, force: true })
    rmSync(`${staging}.broken`, { recursive: true, force: true })
  }
}

/** Remove staging dirs of `key` left by dead processes. */
function sweepStale(key: string): void {
  for (const name of readdirSync(CACHE_ROOT)) {
    const m = new RegExp(`^\\.staging-${key.replace(/[.]/g, '\\.')}-(\\d+)-`).exec(name)
    if (m === null) continue
    try {
      process.kill(Number(m[1]), 0)
    } catch {
      rmSync(join(CACHE_ROOT, name), { recursive: true, force: true })
    }
  }
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs: number): string {
  try {
    return execFileSync(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      timeout: timeoutMs,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
  }
}

/** The pnpm executable: this repo's devDependency at PNPM_VERSION, else a cached npm install. */
export async function ensurePnpm(): Promise<string> {
  const local = join(REPO_ROOT, 'node_modules', 'pnpm')
  if (existsSync(join(local, 'package.json'))) {
    const { version } = JSON.parse(readFileSync(join(local, 'package.json'), 'utf8')) as { version: string }
    if (version === PNPM_VERSION) return join(REPO_ROOT, 'node_modules', '.bin', 'pnpm')
  }
  const { dir } = await ensureCached(`pnpm-${PNPM_VERSION}`, async (staging) => {
    writeFileSync(join(staging, 'package.json'), '{ "private": true }\n')
    const env = { ...(process.env as Record<string, string>), PATH: `${dirname(NODE22)}:${process.env.PATH ?? ''}` }
    run('npm', ['install', '-E', `pnpm@${PNPM_VERSION}`, '--no-audit', '--no-fund', '--no-save'], staging, env, 300_000)
    const got = run(join(staging, 'node_modules', '.bin', 'pnpm'), ['--version'], staging, env, 30_000).trim()
    if (got !== PNPM_VERSION) throw new Error(`pnpm --version printed ${got}, expected ${PNPM_VERSION}`)
  })
  return join(dir, 'node_modules', '.bin', 'pnpm')
}

/** The installed dsh CLI (installing it into the cache on first use). */
export async function ensureDshCli(): Promise<DshCli> {
  const started = Date.now()
  const node = execFileSync(NODE22, ['--version'], { encoding: 'utf8' }).trim()
  if (!/^v2[2-9]\./.test(node)) throw new Error(`${NODE22} is ${node}; the dsh CLI needs Node >= 22`)
  const pnpm = await ensurePnpm()
  const binOf = (dir: string) => join(dir, 'node_modules', '@deepseek-ai', 'dsh', 'lib', 'bin.js')
  const { dir, built } = await ensureCached(`dsh-${DSH_VERSION}`, async (staging) => {
    writeFileSync(join(staging, 'package.json'), '{ "private": true }\n')
    writeFileSync(
      join(staging, 'pnpm-workspace.yaml'),
      `overrides:\n  '@deepseek-ai/cordis-plugin-hmr': '${HMR_VERSION}'\nstrictDepBuilds: false\n`,
    )
    const env = {
      ...(process.env as Record<string, string>),
      ...installEnv(),
      PATH: `${dirname(NODE22)}:${dirname(pnpm)}:${process.env.PATH ?? ''}`,
    }
    run(pnpm, ['add', '-E', `@deepseek-ai/dsh@${DSH_VERSION}`], staging, env, 600_000)
    const version = run(NODE22, [binOf(staging), '--version'], staging, env, 30_000).trim()
    if (version !== DSH_VERSION) throw new Error(`dsh --version printed ${version}, expected ${DSH_VERSION}`)
    const hmr = readdirSync(join(staging, 'node_modules', '.pnpm')).filter((n) =>
      n.startsWith('@deepseek-ai+cordis-plugin-hmr@'),
    )
    if (hmr.length !== 1 || !hmr[0]!.startsWith(`@deepseek-ai+cordis-plugin-hmr@${HMR_VERSION}`)) {
      throw new Error(`expected exactly cordis-plugin-hmr@${HMR_VERSION}, found ${hmr.join(', ') || 'none'}`)
    }
  })
  return { version: DSH_VERSION, dir, bin: binOf(dir), pnpm, installed: built, ms: Date.now() - started }
}

/** Run the dsh CLI (Node 22, `env -i`) with `args`. */
export function runDsh(cli: DshCli, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return runIsolated(NODE22, [cli.bin, ...args], options)
}

/**
 * Write the host patch every e2e boot needs: the rc.8 headless boot workaround (patches/hmr.yml, docs/adaptation/dsh-0.1.0-rc.8.md) and
 * `llm-deepseek` pinned to `baseURL` with no retries and thinking disabled.
 * Returns the patch file path (for `--patch`).
 */
export function writeHostPatch(file: string, baseURL: string): string {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(
    file,
    [
      '# e2e host patch: hmr on (rc.8 headless boot), the fake model, no retries, no thinking',
      '- id: hmr',
      '  disabled: false',
      '  config: {root: []}',
      '- id: llm-deepseek',
      '  config:',
      `    baseURL: '${baseURL}'`,
      '    apiKeyEnv: DEEPSEEK_API_KEY',
      '    thinking: disabled',
      '    retryPolicy: {mode: normal, maxRetries: 0}',
      '',
    ].join('\n'),
  )
  return file
}
