/**
 * Helpers for the write-command tests: a temp project plus a separate home
 * (`$HOME` and `$DSH_HOME = $HOME/.dsh`, outside the project), a runner for
 * the CLI in that environment (in process, support/cli.ts), and byte snapshots of both trees so a
 * test can prove a failed command changed nothing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { makeProject, makeTempDir, type TempDir } from './tmp.ts'
import { type CliRun, runCli } from './cli.ts'

export interface Env {
  project: TempDir
  home: TempDir
  dshHome: string
  run(args: string[], opts?: { cwd?: string; env?: Record<string, string> }): Promise<CliRun>
  read(rel: string): string
  snapshot(): Map<string, string>
}

export function makeEnv(files: Record<string, string> = {}): Env {
  const project = makeProject(files)
  const home = makeTempDir('dsh-mcp-home-')
  const dshHome = home.join('.dsh')
  return {
    project,
    home,
    dshHome,
    run: (args, opts = {}) =>
      // The file backend of the secret store: no in-process test writes to a real keychain.
      runCli(args, {
        cwd: opts.cwd ?? project.path,
        dshHome,
        home: home.path,
        env: { DSH_MCP_SECRET_BACKEND: 'file', ...opts.env },
      }),
    read: (rel) => readFileSync(project.join(rel), 'utf8'),
    // Without the CLI's own code cache (`~/.cache/dsh-mcp`, bin/load-bundle.js): compiled code, no config.
    snapshot: () =>
      new Map([
        ...snapshotTree(project.path),
        ...[...snapshotTree(home.path)].filter(
          ([p]) => !p.startsWith(join(home.path, '.cache', 'dsh-mcp')) && p !== join(home.path, '.cache/'),
        ),
      ]),
  }
}

/** Every file under `dir` (relative path → content, base64) and every directory (→ 'dir'). */
export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) {
        out.set(`${p}/`, 'dir')
        walk(p)
      } else if (e.isSymbolicLink()) out.set(p, 'symlink')
      else out.set(p, `${statSync(p).mode.toString(8)}:${readFileSync(p).toString('base64')}`)
    }
  }
  walk(dir)
  return out
}

/** Keys whose value differs between two snapshots (for a readable assertion). */
export function changed(a: Map<string, string>, b: Map<string, string>, root = '/'): string[] {
  const keys = new Set([...a.keys(), ...b.keys()])
  return [...keys].filter((k) => a.get(k) !== b.get(k)).map((k) => relative(root, k))
}
