/**
 * Helpers for the CLI tests of list/get/validate/trust: run the built
 * `bin/dsh-mcp.js` as a child process in a clean environment, and rebuild
 * `lib/` first when any `src/` file is newer (tsc in place, then the CLI
 * bundle the bin runs, `lib/cli-bundle/`, swapped in whole). Parallel test
 * files of one `node --test` run (same parent pid) decide once, under a
 * lock: the first one builds if needed, the others never rebuild under a
 * running test.
 */
import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import lockfile from 'proper-lockfile'
import type { ServerView } from '../../src/cli/present.ts'

export const REPO = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = join(REPO, 'bin', 'dsh-mcp.js')
const PROGRAM = join(REPO, 'lib', 'cli', 'program.js')
const BUNDLE = join(REPO, 'lib', 'cli-bundle')

function newestSource(dir: string): number {
  let newest = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs)
  }
  return newest
}

function olderThan(file: string, newest: number): boolean {
  return !existsSync(file) || statSync(file).mtimeMs < newest
}

/** Bundle the CLI into a fresh directory and swap it in as `lib/cli-bundle/`. */
async function rebundle(): Promise<void> {
  const { bundleCli } = (await import(join(REPO, 'scripts', 'bundle-cli.mjs'))) as { bundleCli: (outdir: string) => Promise<unknown> }
  const next = join(REPO, 'lib', `.cli-bundle-next-${process.pid}`)
  const old = join(REPO, 'lib', `.cli-bundle-old-${process.pid}`)
  await bundleCli(next)
  if (existsSync(BUNDLE)) renameSync(BUNDLE, old)
  renameSync(next, BUNDLE)
  rmSync(old, { recursive: true, force: true })
}

/** Stamps of runs whose runner is gone, or older than 30 minutes (a recycled pid), are removed. */
function forgetOldRuns(lockDir: string): void {
  for (const f of readdirSync(lockDir)) {
    const m = /^run-(\d+)$/.exec(f)
    if (!m) continue
    let alive = true
    try {
      process.kill(Number(m[1]), 0)
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM'
    }
    if (!alive || statSync(join(lockDir, f)).mtimeMs < Date.now() - 30 * 60_000) rmSync(join(lockDir, f), { force: true })
  }
}

/** Compile `lib/` when it is missing or older than `src/`. tsc errors in other files do not stop emission. */
export async function ensureBuilt(): Promise<void> {
  const lockDir = join(tmpdir(), `dsh-mcp-build-${createHash('sha256').update(REPO).digest('hex').slice(0, 12)}`)
  mkdirSync(lockDir, { recursive: true })
  const release = await lockfile.lock(lockDir, { realpath: false, stale: 120_000, retries: { retries: 600, minTimeout: 100, maxTimeout: 500 } })
  const stamp = join(lockDir, `run-${process.ppid}`)
  try {
    forgetOldRuns(lockDir)
    if (existsSync(stamp)) return
    const newest = newestSource(join(REPO, 'src'))
    if (olderThan(PROGRAM, newest)) {
      try {
        // tsc alone rewrites lib/ in place (scripts/build.mjs swaps in a new lib/, which would pull it away from CLI tests of other runs).
        execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: REPO, stdio: 'ignore' })
      } catch {}
      if (!existsSync(PROGRAM)) throw new Error('build did not produce lib/cli/program.js')
    }
    if (olderThan(join(BUNDLE, 'cli.cjs'), newest)) await rebundle()
    writeFileSync(stamp, '')
  } finally {
    await release()
  }
}

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export interface RunCliOptions {
  cwd: string
  /** `$DSH_HOME`; HOME is set to its parent unless `home` is given. */
  dshHome: string
  home?: string
  env?: Record<string, string>
  node?: string
}

/** Run `dsh-mcp <args>` with a clean environment (only PATH, HOME, DSH_HOME and `env`). */
export function runCli(args: string[], opts: RunCliOptions): Promise<CliRun> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.home ?? join(opts.dshHome, '..'), DSH_HOME: opts.dshHome, ...opts.env }
  return new Promise((resolve) => {
    execFile(opts.node ?? process.execPath, [BIN, ...args], { cwd: opts.cwd, env, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

/** `list --json`, parsed (asserting exit 0). */
export async function listJson(opts: RunCliOptions, extra: string[] = []): Promise<{ rows: ListRow[]; stderr: string }> {
  const r = await runCli(['list', '--json', ...extra], opts)
  if (r.code !== 0) throw new Error(`list --json exited ${r.code}: ${r.stderr}`)
  return { rows: JSON.parse(r.stdout) as ListRow[], stderr: r.stderr }
}

/** One row of `list --json` (the presenter's view, as JSON). */
export type ListRow = Omit<ServerView, 'check'>

/** The one row of `name` from `scope` (throws when absent or ambiguous). */
export function rowOf(rows: readonly ListRow[], name: string, scope: string, file?: string): ListRow {
  const found = rows.filter((r) => r.name === name && r.scope === scope && (file === undefined || r.file === file))
  if (found.length !== 1) throw new Error(`expected one row ${name}/${scope}, found ${found.length}`)
  return found[0]!
}
