/**
 * The one marker set-up of the tests that prove what ran: a temp directory
 * of marker files (the stdio fixture appends its pid when it starts, so an
 * empty marker proves it never ran) and pidfiles, every child reaped and the
 * temp dirs removed after the file's tests; the fixture entry that writes
 * one.
 */
import { after } from 'node:test'
import { reapAll } from './procs.ts'
import { stdioEntry } from './runtime.ts'
import { cleanupAll, makeTempDir, type TempDir } from './tmp.ts'

/** Tests run as root; "another user" is any uid other than process.getuid(). */
export const asRoot = process.getuid?.() === 0
export const OTHER = 65534

export interface MarkerRig {
  dir: TempDir
  /** Where the fixtures write their pidfiles. */
  pids: string
  /** A fresh marker file path (absent until something starts). */
  marker(name: string): string
  /** A friendly entry of the stdio fixture `name` writing `marker`, with these tools (default one, `t`). */
  entry(name: string, marker: string, tools?: readonly string[]): Record<string, unknown>
}

/** Register the file's hooks (reap children, remove temp dirs) and return its markers. */
export function markerRig(prefix = 'marks'): MarkerRig {
  after(() => cleanupAll())
  const dir = makeTempDir(`dsh-mcp-${prefix}-`)
  const pids = dir.mkdir('pids')
  after(() => reapAll(pids))
  let seq = 0
  return {
    dir,
    pids,
    marker: (n) => dir.join(`${n}-${++seq}.log`),
    entry: (n, m, tools = ['t']) => stdioEntry(n, { tools, marker: m, pidfileDir: pids }),
  }
}
