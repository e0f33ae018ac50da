/**
 * Shared rig of the `files-*` security tests: temp dirs cleaned, marker
 * files (a fixture server appends its pid when it starts, so an empty marker
 * proves it never ran) and the fixture entry that writes one.
 */
import { after } from 'node:test'
import { reapAll } from './procs.ts'
import { stdioEntry } from './runtime.ts'
import { cleanupAll, makeTempDir } from './tmp.ts'

/** Tests run as root; "another user" is any uid other than process.getuid(). */
export const asRoot = process.getuid?.() === 0
export const OTHER = 65534

/** Register the hooks and return `marker(name)` (a fresh marker path) and `entry(name, marker)` (a fixture with one tool `t`). */
export function markerRig(): { marker: (name: string) => string; entry: (name: string, marker: string) => Record<string, unknown> } {
  after(() => cleanupAll())
  const marks = makeTempDir('dsh-mcp-marks-')
  const pids = marks.mkdir('pids')
  after(() => reapAll(pids))
  let seq = 0
  return {
    marker: (n) => marks.join(`${n}-${++seq}.log`),
    entry: (n, m) => stdioEntry(n, { tools: ['t'], marker: m, pidfileDir: pids }),
  }
}
