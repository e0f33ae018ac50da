/**
 * `dsh-mcp doctor [name...] [--json] [--timeout <ms>]`: connect to every
 * effective server of the project (and the user layer) for real —
 * initialize + tools/list, all in parallel — and say what works.
 *
 * Contract:
 * - Human output streams one block per server to stdout as each finishes
 *   (pre-check results first, then probes in completion order), then a
 *   summary line. On a terminal a live "waiting for …" line is drawn on
 *   stderr meanwhile. `--json` prints the `DoctorResult[]` array (config
 *   order) and nothing else on stdout.
 * - Exit 1 when any checked server is not `ok` — `failed`, `timeout`,
 *   `invalid`, `skipped` and `untrusted` all mean the host will not offer its
 *   tools — or when a config file does not parse (its errors go to stderr).
 *   `disabled` servers are not failures. Exit 2 for a bad `--timeout`; exit 1
 *   for a name that is no server of the project.
 * - Ctrl-C (SIGINT) or SIGTERM stops every probe, reaps every child, and
 *   exits 130 (143); a second signal kills the children at once.
 *
 * @module
 */
import { rowHome } from '../../config/inherit.ts'
import { cacheKeyOf } from '../../plan/desired.ts'
import { verdictOf } from '../../plan/verdict.ts'
import { type Row, winners } from '../../config/layers.ts'
import { loadProject, type ProjectView } from '../../files/project.ts'
import { type DoctorResult, isBroken } from '../../doctor/types.ts'
import { stateColor } from '../../plan/states.ts'
import { readCache } from '../../lazy/cache.ts'
import { readCacheSecret } from '../../lazy/secret.ts'
import { canonicalRoot } from '../../trust/store.ts'
import { failure } from '../errors.ts'
import { parseTimeout } from '../flags.ts'
import type { Output } from '../output.ts'
import type { CliContext } from '../program.ts'
import { createProgress } from '../progress.ts'

export interface DoctorOptions {
  json?: boolean
  timeout?: string
}

/** The `--timeout <ms>` of `doctor` and `list --check` (flags.ts's one parser), 10 s when not given. */
export function checkTimeoutMs(value: string | undefined): number {
  return parseTimeout(value) ?? 10_000
}

type Paint = Output['paint']

/** The coloured state word. */
export function paintState(state: DoctorResult['state'], paint: Paint): string {
  return paint(stateColor(state), state)
}

function toolsText(r: DoctorResult): string {
  const shown = r.tools.slice(0, 8).join(', ')
  const more = r.tools.length > 8 ? `, … +${r.tools.length - 8}` : ''
  return `${r.toolCount} tool${r.toolCount === 1 ? '' : 's'}${r.toolCount ? ` (${shown}${more})` : ''}`
}

/** The one-line summary of a result (after the state and name). */
export function resultSummary(r: DoctorResult): string {
  if (r.state === 'ok') {
    const server = r.server ? ` · ${r.server.name} ${r.server.version}` : ''
    return `${toolsText(r)} · ${r.latencyMs} ms${server}`
  }
  if (r.state === 'disabled') return 'disabled (enabled: false)'
  const took = r.latencyMs !== null ? ` (${r.latencyMs} ms)` : ''
  return `${r.error ?? r.state}${took}`
}

/** The lines of one result: state, name, summary; then hint and stderr tail. */
function resultLines(r: DoctorResult, nameWidth: number, paint: Paint, lifecycle?: string): string[] {
  const state = paintState(r.state, paint) + ' '.repeat(Math.max(0, 9 - r.state.length))
  const lines = [`${state} ${paint('bold', r.name.padEnd(nameWidth))}  ${resultSummary(r)}`]
  const indent = ' '.repeat(10)
  if (lifecycle) lines.push(`${indent}${paint('dim', lifecycle)}`)
  if (r.hint && r.state !== 'ok') lines.push(`${indent}${paint('cyan', 'hint:')} ${r.hint}`)
  if (r.stderrTail.length) {
    lines.push(`${indent}${paint('dim', 'stderr (last lines):')}`)
    for (const l of r.stderrTail) lines.push(`${indent}${paint('dim', '│')} ${l}`)
  }
  return lines
}

function summaryLine(results: readonly DoctorResult[], ms: number): string {
  const counts = new Map<string, number>()
  for (const r of results) counts.set(r.state, (counts.get(r.state) ?? 0) + 1)
  const order = ['ok', 'failed', 'timeout', 'untrusted', 'skipped', 'invalid', 'disabled']
  const parts = order.filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${s}`)
  return `${results.length} server${results.length === 1 ? '' : 's'}: ${parts.join(', ')} · ${(ms / 1000).toFixed(1)} s`
}

export async function run(cli: CliContext, names: string[] = [], opts: DoctorOptions = {}): Promise<number> {
  const timeoutMs = checkTimeoutMs(opts.timeout)
  const view = loadProject(cli.dir, cli.loc)
  const { fileErrors, unknownNames } = await import('../../doctor/diagnose.ts')
  const unknown = unknownNames(view, names)
  if (unknown.length) {
    const known = [...new Set(winners(view.rows).map((r) => r.name))]
    throw failure(`no server named ${unknown.map((n) => `"${n}"`).join(', ')} in ${view.root.root}`, [
      known.length ? `servers: ${known.join(', ')}` : 'no servers are configured (dsh-mcp add …)',
    ])
  }
  const broken = fileErrors(view)
  for (const line of broken) cli.out.err(line)

  const checked = winners(view.rows).filter((r) => names.length === 0 || names.includes(r.name))
  if (checked.length === 0) {
    if (opts.json) cli.out.json([])
    else cli.out.out(`no MCP servers configured for ${view.root.root} (add one: dsh-mcp add <name> <command>)`)
    return broken.length ? 1 : 0
  }

  const nameWidth = Math.max(...checked.map((r) => r.name.length))
  const started = performance.now()
  const { results, signalled } = await runChecks(cli, view, {
    names,
    timeoutMs,
    onResult: opts.json
      ? undefined
      : (r, print) =>
          print(() => {
            for (const line of resultLines(r, nameWidth, cli.out.paint, lifecycleLine(r, checked, view.root.root, cli)))
              cli.out.out(line)
          }),
  })
  if (signalled) return signalled
  if (opts.json) cli.out.json(results)
  else cli.out.out(summaryLine(results, performance.now() - started))
  return broken.length || results.some((r) => isBroken(r.state)) ? 1 : 0
}

/**
 * For a row that names a lifecycle or has a tool cache: its lifecycle, and its
 * cached tools (what a lazy server offers while stopped) against what the
 * server listed just now.
 */
function lifecycleLine(r: DoctorResult, rows: readonly Row[], root: string, cli: CliContext): string | undefined {
  const row = rows.find((x) => x.name === r.name && x.file === r.file)
  const e = row?.entry
  if (!row || !e) return undefined
  const dshHome = cli.loc.dshHome
  const secret = readCacheSecret(dshHome)
  const canonical = canonicalRoot(rowHome(row, root))
  // The key is the launch's: judged as if trusted (shown only; what the host offers is judged by its own gate).
  const v = verdictOf(row, {
    root: canonical,
    env: cli.env,
    dshHome,
    platform: cli.platform,
    gateOff: true,
    trust: () => 'trusted',
  })
  // A row its trust does not admit is offered no cache by the host: none is shown for it either.
  const record =
    secret && v.tag === 'runs' && r.state !== 'untrusted'
      ? readCache(dshHome, cacheKeyOf(row, canonical, dshHome, v.config, secret))
      : undefined
  if (!e.lifecycle && !record) return undefined
  const cached = record?.tools.map((t) => t.raw ?? t.name) ?? []
  const same =
    r.state === 'ok' &&
    cached.length === r.tools.length &&
    [...cached].sort().join('\0') === [...r.tools].sort().join('\0')
  const cache = !record
    ? 'no tool cache yet'
    : `tool cache: ${record.tools.length} tool(s)${r.state === 'ok' ? (same ? ', same as the server lists' : ', differs from the server (refreshed on its next start)') : ''}`
  return `lifecycle: ${e.lifecycle ?? 'default'} · ${cache}`
}

export interface ChecksRun {
  results: DoctorResult[]
  /** Set when SIGINT/SIGTERM stopped the run: the exit code to return (130/143). */
  signalled: number | undefined
}

/**
 * Run the doctor engine with what a terminal user expects around it: the
 * live progress line on stderr (TTY only) and signal handling — the first
 * SIGINT/SIGTERM stops every probe and reaps its children (the run then
 * resolves with `signalled`), a second one kills them at once and ends the
 * run (`cli.exit`). Signals come from `cli.signals`, the progress line goes
 * to `cli.stderr`.
 * Shared by `doctor` and `list --check`.
 */
export async function runChecks(
  cli: CliContext,
  view: ProjectView,
  opts: {
    names?: string[]
    timeoutMs: number
    onResult?: ((r: DoctorResult, print: (write: () => void) => void) => void) | undefined
  },
): Promise<ChecksRun> {
  // The engine (and the MCP SDK) load only when a check runs: `list` without --check stays light.
  const { diagnoseProject, killLiveChildren } = await import('../../doctor/index.ts')
  const pending = winners(view.rows)
    .filter((r) => !opts.names?.length || opts.names.includes(r.name))
    .map((r) => r.name)
  const progress = createProgress(cli.stderr, { enabled: Boolean(cli.stderr.isTTY) && cli.env.TERM !== 'dumb' })
  const ac = new AbortController()
  let signalled: number | undefined
  let backstop: NodeJS.Timeout | undefined
  const onSignal = (sig: NodeJS.Signals) => {
    const code = sig === 'SIGTERM' ? 143 : 130
    if (signalled) {
      killLiveChildren()
      cli.exit(code)
      return
    }
    signalled = code
    progress.stop()
    cli.out.err('dsh-mcp: interrupted: stopping the servers it started…')
    ac.abort()
    // Backstop: should the stop itself hang, the children die and the run ends. Cleared once the run is over.
    backstop = setTimeout(() => {
      killLiveChildren()
      cli.exit(code)
    }, 5000).unref()
  }
  cli.signals.on('SIGINT', onSignal)
  cli.signals.on('SIGTERM', onSignal)
  try {
    progress.start(pending)
    const results = await diagnoseProject(view, {
      env: cli.env,
      dshHome: cli.loc.dshHome,
      ...(opts.names?.length ? { names: opts.names } : {}),
      timeoutMs: opts.timeoutMs,
      platform: cli.platform,
      signal: ac.signal,
      onResult: (r) => {
        if (signalled) return
        progress.done(r.name)
        opts.onResult?.(r, progress.print)
      },
    })
    return { results, signalled }
  } finally {
    clearTimeout(backstop)
    progress.stop()
    cli.signals.off('SIGINT', onSignal)
    cli.signals.off('SIGTERM', onSignal)
  }
}
