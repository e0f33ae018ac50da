/**
 * `dsh-mcp status [--json]`: what a running host mounted for the project of
 * `-C/--dir` (default cwd), read from the status file the plugin writes
 * (`$DSH_HOME/mcp-status/<sha256(root)[0..16]>.json`).
 *
 * Contract:
 * - Shows, per server: state (`dormant`: a lazy server that is stopped,
 *   offering its cached tools), name, effective name, layer, lifecycle,
 *   tool count (and whether the tools come from the cache), last use and
 *   the last error; for the project: how old the status is and whether the
 *   writing process is still alive (a dead writer means nothing is mounted
 *   now — the rows are what it last saw).
 * - No status file: exit 0 with one line saying no host has written status
 *   for this project (`--json`: `{"projects": []}`). It is an answer, not a
 *   failure. A status file that cannot be read or decoded: exit 1.
 * - `--json`: `{ projects: [{ root, file, pid, alive, updatedAt, servers:
 *   [{ name, effectiveName, layer, file, state, toolCount, error,
 *   updatedAt, lifecycle, toolSource, lastUsedAt }] }] }` — the current project only.
 * - Reads one file: no network, no child process, no MCP SDK.
 *
 * @module
 */
import { ageText, pidAlive, type ProjectStatus, readProjectStatus, type StatusState } from '../../doctor/status.ts'
import { projectRootOf } from '../../files/read.ts'
import { canonicalRoot } from '../../trust/store.ts'
import { failure } from '../errors.ts'
import type { Output } from '../output.ts'
import type { CliContext } from '../program.ts'

export interface StatusOptions {
  json?: boolean
}

interface ProjectStatusJson extends ProjectStatus {
  file: string
  alive: boolean
}

function paintState(state: StatusState, paint: Output['paint']): string {
  if (state === 'mounted') return paint('green', state)
  if (state === 'failed' || state === 'invalid') return paint('red', state)
  if (state === 'untrusted' || state === 'unknown') return paint('yellow', state)
  if (state === 'dormant') return paint('green', state)
  return paint('gray', state)
}

export async function run(cli: CliContext, opts: StatusOptions = {}): Promise<number> {
  const root = canonicalRoot(projectRootOf(cli.dir, cli.loc).root)
  const read = readProjectStatus(cli.loc.dshHome, root)
  if (read.kind === 'unreadable') throw failure(`status file ${read.file} ${read.reason}`, [`project: ${root}`])
  if (read.kind === 'absent') {
    if (opts.json) cli.out.json({ projects: [] })
    else {
      cli.out.out(`no running host has written status for ${root}`)
      cli.out.out(`  (looked for ${read.file}; start dsh in this project with DSH_HOME=${cli.loc.dshHome}, or run "dsh-mcp doctor" to check the servers without a host)`)
    }
    return 0
  }
  const s = read.status
  const alive = pidAlive(s.pid)
  if (opts.json) {
    const project: ProjectStatusJson = { root: s.root, file: read.file, pid: s.pid, alive, updatedAt: s.updatedAt, servers: s.servers }
    cli.out.json({ projects: [project] })
    return 0
  }
  const p = cli.out.paint
  cli.out.out(p('bold', s.root))
  const who = s.pid === null ? 'by an unknown process' : `by pid ${s.pid}`
  const life = s.pid === null ? '' : alive ? ' (running)' : p('yellow', ', which is no longer running: nothing is mounted now; this is what it last saw')
  cli.out.out(`  updated ${ageText(s.updatedAt)} ${who}${life}`)
  if (s.servers.length === 0) {
    cli.out.out('  no servers')
    return 0
  }
  const tools = (v: (typeof s.servers)[number]) => (v.state === 'mounted' || v.state === 'dormant' ? `${v.toolCount}${v.toolSource === 'cache' ? ' (cache)' : ''}` : '-')
  // Lifecycle columns only when a server is lazy (an all-eager project's table keeps its shape).
  const lazy = s.servers.some((v) => v.lifecycle === 'lazy')
  const rows = s.servers.map((v) => [paintState(v.state, p), v.name, v.effectiveName ?? '-', v.layer ?? '-', ...(lazy ? [v.lifecycle ?? '-'] : []), tools(v), ...(lazy ? [v.lastUsedAt ? ageText(v.lastUsedAt) : '-'] : []), v.error ?? ''])
  cli.out.table(rows, ['STATE', 'NAME', 'EFFECTIVE', 'LAYER', ...(lazy ? ['LIFECYCLE'] : []), 'TOOLS', ...(lazy ? ['LAST USE'] : []), 'ERROR'])
  return 0
}
