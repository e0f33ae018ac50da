/**
 * The doctor engine: every effective server of a project (and the user
 * layer), judged in order of cause, then connected for real — all in
 * parallel, each bounded by its own timeout.
 *
 * Contract:
 * - Rows are the winners of `mergeLayers` (shadowed rows are never started),
 *   in config order; `names` narrows them (unknown names are the caller's
 *   business: see `unknownNames`).
 * - Order of cause: `invalid` (first error, `file:line:col`) → `disabled` →
 *   `skipped` (a `${VAR}` without default is unset; names server, field and
 *   variable, never a value) → `untrusted` (project layers only, unless
 *   `trustAll` / `DSH_MCP_TRUST_ALL=1`; never started) → the probe.
 * - The launch is the runtime's: `toOfficialConfig` with the project root
 *   (user servers: `$DSH_HOME`) and the official env scrub.
 * - `onResult` fires once per server as soon as its result is known
 *   (pre-checks first, probes in completion order); the returned array is in
 *   config order. When `signal` aborts, running probes stop and reap their
 *   children; their results are `skipped` ("interrupted"). `signal` gets
 *   one listener whatever the number of servers.
 * - Never throws for a server's problem; every result is redacted.
 *
 * @module
 */
import { formatDiagnostic } from '../config/diagnostics.ts'
import { expandEntry } from '../config/expand.ts'
import { trustFingerprint } from '../config/fingerprint.ts'
import { type Row, winners } from '../config/layers.ts'
import { credentialsAsHeader, toOfficialConfig } from '../config/official.ts'
import { allDiagnostics } from '../config/parse.ts'
import type { ProjectView } from '../files/project.ts'
import { needsTrust, type TrustStore, trustGateOff, trustStateOf } from '../trust/state.ts'
import { shellWord, trustCommand } from '../trust/command.ts'
import { canonicalRoot, readTrustStore } from '../trust/store.ts'
import { redact, secretValues } from './env.ts'
import { probe } from './probe.ts'
import type { DoctorResult } from './types.ts'

export interface DiagnoseOptions {
  env: NodeJS.ProcessEnv
  dshHome: string
  names?: string[]
  timeoutMs: number
  trustAll?: boolean
  onResult?: (r: DoctorResult) => void
  signal?: AbortSignal
  /** Decides the win32 launcher shim; default `process.platform`. */
  platform?: string
}

/** Requested names that are no effective server of the view. */
export function unknownNames(view: ProjectView, names: readonly string[]): string[] {
  const known = new Set(winners(view.rows).map((r) => r.name))
  return names.filter((n) => !known.has(n))
}

/** Errors of files that do not parse at all (their servers are missing from the rows), formatted. */
export function fileErrors(view: ProjectView): string[] {
  return view.layers.filter((l) => !l.parsed.ok).flatMap((l) => allDiagnostics(l.parsed).filter((d) => d.severity === 'error').map((d) => formatDiagnostic(d)))
}

function base(row: Row): DoctorResult {
  return { name: row.name, scope: row.scope, file: row.file, state: 'invalid', toolCount: 0, tools: [], latencyMs: null, error: null, hint: null, server: null, stderrTail: [] }
}

type Plan = { result: DoctorResult } | { row: Row; run: (signal?: AbortSignal) => ReturnType<typeof probe> }

/** The trust store as read for this project, with the project's canonical root (both read once, on first need). */
interface TrustView {
  store: TrustStore
  canonical: string
}

function plan(row: Row, opts: DiagnoseOptions, root: string, trust: () => TrustView, trustAll: boolean): Plan {
  const r = base(row)
  const errors = row.diagnostics.filter((d) => d.severity === 'error')
  if (row.state === 'invalid' || !row.entry) {
    const first = errors[0]
    r.error = first ? formatDiagnostic(first) : 'invalid entry'
    if (errors.length > 1) r.error += ` (and ${errors.length - 1} more)`
    r.hint = `fix the entry; dsh-mcp validate lists every problem`
    return { result: r }
  }
  if (row.state === 'disabled') {
    r.state = 'disabled'
    r.hint = `enabled: false; to turn it on: dsh-mcp enable -C ${shellWord(root)} ${shellWord(row.name)}`
    return { result: r }
  }
  const expanded = expandEntry(row.entry, opts.env)
  if ('errors' in expanded) {
    const missing = [...new Set(expanded.errors.flatMap((e) => e.missing))]
    r.state = 'skipped'
    r.error = `not started: ${expanded.errors.map((e) => e.message.replace(/ \(set it, or write .*\)$/, '')).join('; ')}`
    r.hint = missing.length
      ? `set ${missing.join(', ')} in the environment the host starts from, or give a default: \${${missing[0]}:-default}`
      : 'fix the variable reference (write $$ for a literal $)'
    return { result: r }
  }
  if (!trustAll && needsTrust(row.scope)) {
    const state = trustStateOf(trust().store, trust().canonical, row.name, trustFingerprint(row.entry))
    if (state !== 'trusted') {
      r.state = 'untrusted'
      r.error = state === 'changed' ? 'changed since it was trusted: not started' : 'not trusted yet: not started'
      r.hint = `review it (dsh-mcp get ${shellWord(row.name)}), then run: ${trustCommand(root, row.name)}`
      return { result: r }
    }
  }
  const secrets = secretValues(row.entry, expanded.entry, opts.env)
  let official: ReturnType<typeof toOfficialConfig>
  try {
    official = credentialsAsHeader(toOfficialConfig(row.name, expanded.entry, { root: row.scope === 'user' ? opts.dshHome : root, platform: opts.platform ?? process.platform }))
  } catch (err) {
    r.error = redact((err as Error).message, secrets)
    return { result: r }
  }
  return { row, run: (signal) => probe(official, { env: opts.env, timeoutMs: opts.timeoutMs, secrets, ...(signal ? { signal } : {}) }) }
}

export async function diagnoseProject(view: ProjectView, opts: DiagnoseOptions): Promise<DoctorResult[]> {
  const root = view.root.root
  const wanted = opts.names?.length ? new Set(opts.names) : undefined
  const rows = winners(view.rows).filter((r) => !wanted || wanted.has(r.name))
  const trustAll = opts.trustAll ?? trustGateOff(opts.env)
  let trusted: TrustView | undefined
  const trust = () => (trusted ??= { store: readTrustStore(opts.dshHome, { forRoot: root }), canonical: canonicalRoot(root) })
  const plans = rows.map((row) => plan(row, opts, root, trust, trustAll))
  const results: (DoctorResult | undefined)[] = plans.map((p) => ('result' in p ? p.result : undefined))
  for (const r of results) if (r) opts.onResult?.(r)
  // One listener on the caller's signal however many servers run (a listener per probe on a shared signal grows with them).
  const running = new Set<AbortController>()
  const onAbort = () => {
    for (const c of running) c.abort(opts.signal?.reason)
  }
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  await Promise.all(
    plans.map(async (p, i) => {
      if ('result' in p) return
      const own = new AbortController()
      if (opts.signal?.aborted) own.abort(opts.signal.reason)
      running.add(own)
      const o = await p.run(own.signal).finally(() => running.delete(own))
      const r: DoctorResult = { ...base(p.row), state: o.state, toolCount: o.tools.length, tools: o.tools, latencyMs: o.latencyMs, error: o.error, hint: o.hint, server: o.server, stderrTail: o.stderrTail }
      results[i] = r
      opts.onResult?.(r)
    }),
  ).finally(() => opts.signal?.removeEventListener('abort', onAbort))
  return results as DoctorResult[]
}
