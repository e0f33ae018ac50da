/**
 * The package tarball exactly as `npm pack` ships it, built hermetically.
 *
 * Contract: {@link packTarball} copies this checkout's working tree (tracked
 * plus untracked-but-not-ignored files, i.e. what `npm pack` would see here,
 * modes preserved) into a temp dir with `node_modules` symlinked to the
 * repo's, runs the real build (`scripts/build.mjs`, Node 22) there and then
 * `npm pack --json`. The repo's own `lib/` is never touched, so other test
 * files that import it can run at the same time. Throws on any failure.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { NODE22, REPO_ROOT } from './dsh-cli.ts'
import { makeTempDir } from './tmp.ts'

export interface PackedFile {
  readonly path: string
  readonly size: number
  /** Unix mode as recorded in the tarball (e.g. 0o755). */
  readonly mode: number
}

export interface Tarball {
  /** Absolute path of the `.tgz`. */
  readonly file: string
  readonly name: string
  readonly version: string
  readonly files: readonly PackedFile[]
  readonly buildMs: number
  readonly packMs: number
}

function run(command: string, args: string[], cwd: string): string {
  const env = { ...process.env, PATH: `${dirname(NODE22)}:${process.env.PATH ?? ''}` }
  try {
    return execFileSync(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 180_000,
    })
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
  }
}

/** Copy the working tree into a fresh dir (node_modules symlinked); returns the dir. */
export function stageWorkingTree(): string {
  const stage = makeTempDir('dsh-mcp-stage-')
  const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO_ROOT)
  for (const rel of new Set(listed.split('\0').filter((f) => f.length > 0))) {
    const from = join(REPO_ROOT, rel)
    if (rel.startsWith('node_modules/') || !existsSync(from) || !statSync(from).isFile()) continue
    const to = stage.join(rel)
    mkdirSync(dirname(to), { recursive: true })
    copyFileSync(from, to)
    chmodSync(to, statSync(from).mode & 0o777)
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), stage.join('node_modules'), 'dir')
  return stage.path
}

/** Build a staged copy and `npm pack` it into `destination`. */
export function packTarball(destination: string): Tarball {
  const stage = stageWorkingTree()
  const t0 = Date.now()
  run(NODE22, ['scripts/build.mjs'], stage)
  const t1 = Date.now()
  const out = run('npm', ['pack', '--json', '--pack-destination', destination], stage)
  const [entry] = JSON.parse(out.slice(out.indexOf('['))) as {
    filename: string
    name: string
    version: string
    files: PackedFile[]
  }[]
  if (entry === undefined) throw new Error(`npm pack printed no entry:\n${out}`)
  const file = join(destination, entry.filename)
  if (!existsSync(file)) throw new Error(`npm pack reported ${entry.filename} but ${file} does not exist`)
  return {
    file,
    name: entry.name,
    version: entry.version,
    files: entry.files,
    buildMs: t1 - t0,
    packMs: Date.now() - t1,
  }
}
