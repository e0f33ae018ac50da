/**
 * `dsh-mcp status [--json]`: what the running hosts mounted for the project of
 * `-C/--dir` (default cwd), read from the status files the plugin writes, one
 * per host (`$DSH_HOME/mcp-status/<sha256(root)[0..16]>.<pid>.json`): every
 * running host's, newest first, each with its pid; with none running, the
 * newest file alone (doctor/status.ts `mergeStatuses`; a gone host's file is
 * left out while another runs, and the next host to start removes it).
 *
 * Contract:
 * - Shows, per server: state (`dormant`: a lazy server that is stopped,
 *   offering its cached tools), name, effective name, layer, lifecycle,
 *   tool count (and whether the tools come from the cache), last use and
 *   the last error; for the project: how old the status is and whether the
 *   host is running, stopped cleanly, or died (its file says running but
 *   its process is gone: its mounted rows read `stopped`, nothing runs now);
 *   then the config files the host refused, each with its reason.
 * - No status file: exit 0 with one line saying no host has written status
 *   for this project (`--json`: `{"projects": []}`). It is an answer, not a
 *   failure. A status file that cannot be read or decoded: exit 1.
 * - With the context budget on, lines under the table: each server's schema
 *   tokens against the budget, and per agent how many tools are offered and
 *   deferred (`--json`: `budget: { toolBudget, servers: [{ name, tools,
 *   tokens }], agents: [{ offered, deferred, offeredTokens, totalTokens }] }`).
 * - `--json`: `{ projects: [{ root, file, pid, alive, host, updatedAt,
 *   servers: [{ name, effectiveName, layer, file, state, toolCount, error,
 *   updatedAt, lifecycle, toolSource, lastUsedAt, detail }], files: [{ file, layer, error, keptLastGood }], budget? }] }` — the
 *   current project only; `host` is `running | stopped | died`, and `state`
 *   is as of now (a died host's mounted rows read `stopped`).
 * - A present config file of the project that `files/guard.ts` refuses
 *   (another user's, a link out of the project) is named on stderr with why
 *   and how to allow it: the host mounts nothing from it.
 * - `--explain`: then every server's layer trace (commands/explain.ts), as
 *   text after the status or, with `--json`, as `explain: [...]`.
 * - Reads one status file: no network, no child process, no MCP SDK.
 *
 * @module
 */
import { ageText, type HostState, mergeStatuses, readProjectStatuses, stateNow } from '../../doctor/status.ts'
import type { ProjectStatus, StatusState } from '../../status/format.ts'
import { DETAIL_TEXT, signatureWords, stateColor } from '../../plan/states.ts'
import { lstatSync } from 'node:fs'
import path from 'node:path'
import { ROOT_MARKERS } from '../../config/root.ts'
import { fileRefusal } from '../../files/guard.ts'
import { projectRootOf } from '../../files/read.ts'
import { canonicalRoot } from '../../trust/store.ts'
import { failure } from '../errors.ts'
import type { Output } from '../output.ts'
import type { CliContext } from '../program.ts'

export interface StatusOptions {
  json?: boolean
  /** Also each server's layer trace (commands/explain.ts; `--json`: under `explain`). */
  explain?: boolean
}

interface ProjectStatusJson extends Omit<ProjectStatus, 'host'> {
  file: string
  alive: boolean
  host: HostState
}

function paintState(state: StatusState, paint: Output['paint']): string {
  return paint(stateColor(state), state)
}

function existsAt(file: string): boolean {
  try {
    lstatSync(file)
    return true
  } catch {
    return false
  }
}

async function statusOnly(cli: CliContext, opts: StatusOptions): Promise<number> {
  const found = projectRootOf(cli.dir, cli.loc).root
  const root = canonicalRoot(found)
  for (const m of ROOT_MARKERS) {
    const file = path.join(found, m)
    const refused = fileRefusal({ file }, { root: found, dshHome: cli.loc.dshHome, home: cli.loc.home, env: cli.env })
    if (refused && existsAt(file)) cli.out.err(`dsh-mcp: ${file}: ${refused.message}`)
  }
  const reads = readProjectStatuses(cli.loc.dshHome, root)
  const bad = reads.find((r) => r.kind === 'unreadable')
  if (bad?.kind === 'unreadable') throw failure(`status file ${bad.file} ${bad.reason}`, [`project: ${root}`])
  const read = reads[0]!
  if (read.kind === 'absent') {
    if (opts.json) cli.out.json({ projects: [] })
    else {
      cli.out.out(`no running host has written status for ${root}`)
      cli.out.out(
        `  (looked for ${read.file}; start dsh in this project with DSH_HOME=${cli.loc.dshHome}, or run "dsh-mcp doctor" to check the servers without a host)`,
      )
    }
    return 0
  }
  const shown = mergeStatuses(reads).map(({ file, status: s, host }) => ({
    file,
    s,
    host,
    servers: s.servers.map((v) => {
      const state = stateNow(v.state, host)
      return state === v.state ? v : { ...v, state, effectiveName: null, toolCount: 0, detail: null }
    }),
  }))
  if (opts.json) {
    // One entry per host shown: the running hosts first (newest first), or the last host's word.
    const projects: ProjectStatusJson[] = shown.map(({ file, s, host, servers }) => ({
      root: s.root,
      file,
      pid: s.pid,
      alive: host === 'running',
      host,
      updatedAt: s.updatedAt,
      servers,
      files: s.files,
      ...(s.budget ? { budget: s.budget } : {}),
    }))
    cli.out.json({ projects })
    return 0
  }
  cli.out.out(cli.out.paint('bold', shown[0]!.s.root))
  if (shown.length > 1) cli.out.out(`  ${shown.length} hosts are running in this project, each with its own servers:`)
  for (const one of shown) showHost(cli, one)
  return 0
}

function showHost(
  cli: CliContext,
  { s, host, servers }: { s: ProjectStatus; host: HostState; servers: ProjectStatus['servers'] },
): void {
  const p = cli.out.paint
  const who = s.pid === null ? 'by an unknown process' : `by pid ${s.pid}`
  const life =
    host === 'running'
      ? s.pid === null
        ? ''
        : ' (running)'
      : host === 'stopped'
        ? p('gray', ', which has stopped: nothing is mounted now')
        : p(
            'yellow',
            s.pid === null
              ? ', which is not running'
              : ', which is no longer running: nothing is mounted now; it died without stopping cleanly, and this is what it last saw',
          )
  cli.out.out(`  updated ${ageText(s.updatedAt)} ${who}${life}`)
  if (servers.length === 0) cli.out.out('  no servers')
  else {
    const tools = (v: (typeof servers)[number]) =>
      v.state === 'mounted' || v.state === 'dormant'
        ? `${v.toolCount}${v.toolSource === 'cache' ? ' (cache)' : ''}`
        : '-'
    // Lifecycle columns only when a server is lazy (an all-eager project's table keeps its shape).
    const lazy = servers.some((v) => v.lifecycle === 'lazy')
    const rows = servers.map((v) => [
      v.detail ? `${paintState(v.state, p)} (${DETAIL_TEXT[v.detail]})` : paintState(v.state, p),
      v.name,
      v.effectiveName ?? '-',
      v.layer ?? '-',
      ...(lazy ? [v.lifecycle ?? '-'] : []),
      tools(v),
      ...(lazy ? [v.lastUsedAt ? ageText(v.lastUsedAt) : '-'] : []),
      v.error ?? (v.verdict?.signature ? signatureWords(v.verdict.signature) : ''),
    ])
    cli.out.table(rows, [
      'STATE',
      'NAME',
      'EFFECTIVE',
      'LAYER',
      ...(lazy ? ['LIFECYCLE'] : []),
      'TOOLS',
      ...(lazy ? ['LAST USE'] : []),
      'ERROR',
    ])
  }
  if (s.budget) for (const line of budgetLines(s.budget)) cli.out.out(line)
  for (const f of s.files) {
    const kept = f.keptLastGood ? 'its last good version is still used' : 'nothing from it is used'
    cli.out.out(`${p('red', 'refused')} ${f.file}: ${f.error} (${kept}; run "dsh-mcp validate" to see every problem)`)
  }
}

/** The context budget under the table: schema tokens per server, offered vs deferred per agent (docs/guide/context.md). */
function budgetLines(b: NonNullable<ProjectStatus['budget']>): string[] {
  const total = b.servers.reduce((n, x) => n + x.tokens, 0)
  const lines = [
    `  schema tokens: ${total} of a ${b.toolBudget} budget${b.servers.length ? ` — ${b.servers.map((x) => `${x.name} ${x.tokens} (${x.tools} tool${x.tools === 1 ? '' : 's'})`).join(', ')}` : ''}`,
  ]
  b.agents.forEach((a, i) => {
    lines.push(
      `  agent ${i + 1}: ${a.offered} tool${a.offered === 1 ? '' : 's'} offered (${a.offeredTokens} tokens), ${a.deferred} deferred behind mcp_tool_search`,
    )
  })
  return lines
}

export async function run(cli: CliContext, opts: StatusOptions = {}): Promise<number> {
  if (!opts.explain) return statusOnly(cli, opts)
  const { explainAll, traceJson, traceLines } = await import('./explain.ts')
  const traces = explainAll(cli)
  if (!opts.json) {
    const code = await statusOnly(cli, opts)
    cli.out.out('')
    cli.out.out('layers (dsh-mcp explain <name> for one):')
    for (const t of traces) for (const line of traceLines(cli, t)) cli.out.out(`  ${line}`)
    return code
  }
  let doc: Record<string, unknown> = {}
  const capture = (v: unknown) => {
    doc = v as Record<string, unknown>
  }
  const code = await statusOnly({ ...cli, out: { ...cli.out, json: capture } }, opts)
  cli.out.json({ ...doc, explain: traces.map((t) => traceJson(cli, t)) })
  return code
}
