/**
 * The real peer CLIs (Claude Code, Codex, Gemini CLI), installed once into the shared cache at pinned
 * versions, for the interop tests and `npm run bench:peers`.
 *
 * Contract:
 * - `ensurePeers()` resolves each CLI's executable, installing `PEER_VERSIONS` with npm into
 *   `${CACHE_ROOT}/peers-<versions>` on first use (one install across concurrent processes). It never
 *   throws for an unreachable registry: it resolves `{ skip: reason }` so a caller can skip visibly.
 * - `ensureRealServers()` does the same for the real MCP servers the peers bench configures in every
 *   CLI (`REAL_SERVER_VERSIONS`): each server's entry script (an absolute path, run with `node`).
 * - `peerEnv(home)` is the private environment every peer run gets: its own HOME (their config scopes
 *   live there), no inherited model keys or telemetry, Node 22 first on PATH.
 */
import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { ensureCached, installEnv, NODE22 } from './dsh-cli.ts'

const exec = promisify(execFile)

/** The versions the interop tests and the peers bench were written against. */
export const PEER_VERSIONS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332' },
  codex: { pkg: '@openai/codex', version: '0.171.0' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0' },
} as const

export type PeerName = keyof typeof PEER_VERSIONS
export type PeerBins = Record<PeerName, string>

const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin']

/** The cache key: changes whenever a pinned version does. */
function cacheKey(): string {
  return `peers-${Object.values(PEER_VERSIONS)
    .map((p) => p.version)
    .join('-')}`
}

/** Each peer's executable inside an install dir (npm's `.bin` links). */
function binsIn(dir: string): PeerBins {
  const bin = (name: string) => join(dir, 'node_modules', '.bin', name)
  return { claude: bin('claude'), codex: bin('codex'), gemini: bin('gemini') }
}

/**
 * Install `pins` (exact versions) once into the cache under `key`, checked by `verify(staging)`; the
 * install dir, or why it cannot be had here (`what` names it in the reason).
 */
async function installPinned(
  key: string,
  pins: Record<string, { pkg: string; version: string }>,
  verify: (dir: string) => void,
  what: string,
): Promise<{ dir: string } | { skip: string }> {
  try {
    const { dir } = await ensureCached(key, async (staging) => {
      await writeFile(join(staging, 'package.json'), '{ "private": true }\n')
      const specs = Object.values(pins).map((p) => `${p.pkg}@${p.version}`)
      const env = {
        ...(process.env as Record<string, string>),
        ...installEnv(),
        PATH: `${dirname(NODE22)}:${process.env.PATH ?? ''}`,
      }
      await exec('npm', ['install', '-E', '--no-audit', '--no-fund', '--no-save', ...specs], {
        cwd: staging,
        env,
        timeout: 900_000,
        maxBuffer: 16 * 1024 * 1024,
      })
      verify(staging)
    })
    return { dir }
  } catch (error) {
    const first = String((error as Error).message ?? error).split('\n')[0]
    return { skip: `${what} could not be installed from the registry: ${first}` }
  }
}

/** Install (once) and return the three CLIs, or why they cannot be had here. */
export async function ensurePeers(): Promise<PeerBins | { skip: string }> {
  const got = await installPinned(
    cacheKey(),
    PEER_VERSIONS,
    (staging) => {
      for (const [name, bin] of Object.entries(binsIn(staging))) {
        if (!existsSync(bin)) throw new Error(`${name}: no executable at ${bin} after the install`)
      }
    },
    'the peer CLIs',
  )
  return 'skip' in got ? got : binsIn(got.dir)
}

/** The real MCP servers the peers bench runs in every CLI, pinned. */
export const REAL_SERVER_VERSIONS = {
  memory: { pkg: '@modelcontextprotocol/server-memory', version: '2026.8.31' },
  filesystem: { pkg: '@modelcontextprotocol/server-filesystem', version: '2026.8.31' },
  everything: { pkg: '@modelcontextprotocol/server-everything', version: '2026.8.31' },
} as const

export type RealServerName = keyof typeof REAL_SERVER_VERSIONS
/** Each real server's entry script: run it as `node <script> ...args`. */
export type RealServers = Record<RealServerName, string>

/** The entry script a package's `bin` names (its first, or only, bin). */
function entryScript(dir: string, pkg: string): string {
  const root = join(dir, 'node_modules', pkg)
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>
  }
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0]
  if (!bin) throw new Error(`${pkg}: no bin in its package.json`)
  return join(root, bin)
}

/** Install (once) and return the real servers' entry scripts, or why they cannot be had here. */
export async function ensureRealServers(): Promise<RealServers | { skip: string }> {
  const key = `mcp-servers-${Object.values(REAL_SERVER_VERSIONS)
    .map((p) => p.version)
    .join('-')}`
  const got = await installPinned(
    key,
    REAL_SERVER_VERSIONS,
    (staging) => {
      for (const p of Object.values(REAL_SERVER_VERSIONS)) entryScript(staging, p.pkg)
    },
    'the real MCP servers',
  )
  if ('skip' in got) return got
  const out = {} as RealServers
  for (const [name, p] of Object.entries(REAL_SERVER_VERSIONS))
    out[name as RealServerName] = entryScript(got.dir, p.pkg)
  return out
}

/** A private environment for one peer run: HOME of its own, Node 22 first, nothing inherited. */
export function peerEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: home,
    PATH: [dirname(NODE22), ...SYSTEM_PATH].join(':'),
    XDG_CONFIG_HOME: join(home, '.config'),
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    GEMINI_CLI_NO_RELAUNCH: '1',
    NO_COLOR: '1',
    ...extra,
  }
}
