/**
 * Shared set-up of the `test/security/trust-*` files: a temp directory for
 * marker files (one line per spawn, see the stdio fixture's `--marker`) and
 * pidfiles, reaped and removed after the file's tests.
 */
import { after } from 'node:test'
import { reapAll } from './procs.ts'
import { cleanupAll, makeTempDir, type TempDir } from './tmp.ts'

export interface Marks {
  dir: TempDir
  /** Where the fixtures write their pidfiles. */
  pids: string
  /** A fresh marker file path (absent until something starts). */
  marker(name: string): string
}

/** Register the file's hooks (reap children and clean up after) and return its marker factory. */
export function securitySetup(prefix: string): Marks {
  after(() => cleanupAll())
  const dir = makeTempDir(`dsh-mcp-sec-${prefix}-`)
  const pids = dir.mkdir('pids')
  after(() => reapAll(pids))
  let seq = 0
  return { dir, pids, marker: (n) => dir.join(`${n}-${++seq}.log`) }
}
