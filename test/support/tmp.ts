/**
 * Temporary project directories for tests. Every directory lives under the OS
 * temp dir, is realpath-resolved (macOS /var → /private/var), and is removed by
 * `cleanup()` / `cleanupAll()`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'

export interface TempDir {
  /** Absolute, realpath-resolved directory. */
  readonly path: string
  /** Absolute path of `rel` inside the directory. */
  join(...rel: string[]): string
  /** Write (creating parents) a file relative to the directory; returns its absolute path. */
  write(rel: string, content: string | Uint8Array): string
  /** Create (recursively) a sub-directory; returns its absolute path. */
  mkdir(rel: string): string
  /** Remove the whole directory (idempotent). */
  cleanup(): void
}

const live = new Set<TempDir>()

/** A fresh empty temp directory. */
export function makeTempDir(prefix = 'dsh-mcp-test-'): TempDir {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  const dir: TempDir = {
    path,
    join: (...rel) => join(path, ...rel),
    write(rel, content) {
      const file = isAbsolute(rel) ? rel : join(path, rel)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
      return file
    },
    mkdir(rel) {
      const sub = join(path, rel)
      mkdirSync(sub, { recursive: true })
      return sub
    },
    cleanup() {
      live.delete(dir)
      rmSync(path, { recursive: true, force: true })
    },
  }
  live.add(dir)
  return dir
}

/**
 * A temp project root: a directory with an empty `.git/` directory (enough for
 * "find the project root" logic) plus optional files, `{ 'rel/path': content }`.
 */
export function makeProject(files: Record<string, string> = {}, prefix = 'dsh-mcp-project-'): TempDir {
  const dir = makeTempDir(prefix)
  dir.mkdir('.git')
  for (const [rel, content] of Object.entries(files)) dir.write(rel, content)
  return dir
}

/** Remove every temp dir made by this module and not yet cleaned up. */
export function cleanupAll(): void {
  for (const dir of [...live]) dir.cleanup()
}
