/**
 * The doctor engine: every effective server of a project (and the user
 * layer), judged in order of cause, then connected for real — all in
 * parallel, each bounded by its own timeout.
 *
 * Contract:
 * - Rows are the winners of `mergeLayers` (shadowed rows are never started),
 *   in config order; `names` narrows them (unknown names are the caller's
 *   business: see `unknownNames`).
 * - Each row's fate is its one verdict (plan/verdict.ts `verdictOf`, the
 *   host's very judgement): only a `runs` verdict is probed; every other
 *   maps to a result that says what to do instead — `invalid` / refused
 *   (first error, `file:line:col`), `disabled`, `untrusted` (needs trust:
 *   new, changed, a repository override of a user server, or a trust store
 *   that cannot be used; checked before any `${VAR}` is expanded; off with
 *   `trustAll` / `DSH_MCP_TRUST_ALL=1`), `skipped` (a `${VAR}` without
 *   default is unset; names server, field and variable, never a value).
 * - The launch is the verdict's official config (the runtime's exact one)
 *   with the official env scrub.
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
import { rowHome } from '../config/inherit.ts'
import { type Row, winners } from '../config/layers.ts'
import { allDiagnostics } from '../config/parse.ts'
import type { ProjectView } from '../files/project.ts'
import { SETTLED_STATE } from '../plan/states.ts'
import { verdictOf } from '../plan/verdict.ts'
import { type TrustStore, trustAnswerOf, trustGateOff } from '../trust/state.ts'
import { shellWord, trustCommand } from '../trust/command.ts'
import { canonicalRoot, loadTrustStore } from '../trust/store.ts'
import { secretValues } from './env.ts'
import { openSecretStore } from '../secrets/store.ts'
import { probe } from './probe.ts'
import { checkoutRoots } from '../launch/resolve.ts'
import { homedir } from 'node:os'
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
  return view.layers
    .filter((l) => !l.parsed.ok)
    .flatMap((l) =>
      allDiagnostics(l.parsed)
        .filter((d) => d.severity === 'error')
        .map((d) => formatDiagnostic(d)),
    )
}

function base(row: Row): DoctorResult {
  return {
    name: row.name,
    scope: row.scope,
    file: row.file,
    state: 'invalid',
    toolCount: 0,
    tools: [],
    latencyMs: null,
    error: null,
    hint: null,
    server: null,
    stderrTail: [],
  }
}

type Plan = { result: DoctorResult } | { row: Row; run: (signal?: AbortSignal) => ReturnType<typeof probe> }

/** The trust store as read for this project, with the project's canonical root (both read once, on first need). */
interface TrustView {
  store: TrustStore
  problem: string | undefined
  canonical: string
}

function plan(row: Row, opts: DiagnoseOptions, root: string, trust: () => TrustView, trustAll: boolean): Plan {
  const r = base(row)
  const { problem } = trust()
  // doctor connects for real: it reads a secret's value, like the host, only for a row that will run.
  const read: string[] = []
  const store = openSecretStore({ dshHome: opts.dshHome }).source(root)
  const v = verdictOf(row, {
    secrets: {
      has: store.has,
      userScoped: store.userScoped,
      read(n) {
        const value = store.read(n)
        if (value !== undefined) read.push(value)
        return value
      },
    },
    root,
    env: opts.env,
    dshHome: opts.dshHome,
    platform: opts.platform ?? process.platform,
    gateOff: trustAll,
    trust: (x) => trustAnswerOf(trust().store, trust().problem, trust().canonical, x),
    ...(problem ? { storeProblem: problem } : {}),
  })
  switch (v.tag) {
    case 'runs': {
      const secrets = secretValues(row.entry!, v.entry, opts.env, read)
      return {
        row,
        run: (signal) =>
          probe(v.config, {
            env: opts.env,
            timeoutMs: opts.timeoutMs,
            secrets,
            // The project doctor runs for is a checkout for every row, the user's own included.
            checkouts: checkoutRoots([root], [opts.env.HOME ?? homedir(), opts.dshHome]),
            // A repository row starts from its prepared install when the project's lock pins it, like the host's.
            ...(row.scope !== 'user' && row.entry?.lock !== false
              ? { locked: { root, name: row.name, dshHome: opts.dshHome } }
              : {}),
            ...(signal ? { signal } : {}),
          }),
      }
    }
    case 'refused': {
      if (v.why === 'invalid' && row.state === 'invalid') {
        const errors = row.diagnostics.filter((d) => d.severity === 'error')
        r.error = errors[0] ? formatDiagnostic(errors[0]) : 'invalid entry'
        if (errors.length > 1) r.error += ` (and ${errors.length - 1} more)`
      } else r.error = v.reason
      r.hint =
        v.why === 'invalid'
          ? 'fix the entry; dsh-mcp validate lists every problem'
          : 'see dsh-mcp list for how to allow the file'
      return { result: r }
    }
    case 'disabled':
      r.state = SETTLED_STATE.disabled
      r.hint = `enabled: false; to turn it on: dsh-mcp enable -C ${shellWord(root)} ${shellWord(row.name)}`
      return { result: r }
    case 'needs-trust':
      r.state = SETTLED_STATE['needs-trust']
      if (v.why === 'store-problem') {
        r.error = `not started: ${v.reason}`
        r.hint = 'repair the trust store as said, then run doctor again'
      } else {
        r.error =
          v.why === 'changed'
            ? 'changed since it was trusted: not started'
            : v.why === 'repository-contribution'
              ? 'a repository file overrides this user server: not started'
              : 'not trusted yet: not started'
        r.hint = `review it (dsh-mcp get ${shellWord(row.name)}), then run: ${trustCommand(root, row.name)}`
      }
      return { result: r }
    case 'skipped':
      r.state = SETTLED_STATE.skipped
      r.error = `not started: ${v.problems.join('; ')}`
      r.hint = v.withheld.length
        ? `${v.withheld.join(', ')} ${v.withheld.length === 1 ? 'is' : 'are'} set only in the checkout's .env, which \${…} never reads: set ${v.withheld.length === 1 ? 'it' : 'them'} in the environment the host starts from`
        : v.variables.length
          ? `set ${v.variables.join(', ')} in the environment the host starts from, or give a default: \${${v.variables[0]}:-default}`
          : 'fix the variable reference (write $$ for a literal $)'
      return { result: r }
    case 'shadowed':
      r.state = SETTLED_STATE.skipped
      r.error = v.reason
      return { result: r }
  }
}

export async function diagnoseProject(view: ProjectView, opts: DiagnoseOptions): Promise<DoctorResult[]> {
  const root = view.root.root
  const wanted = opts.names?.length ? new Set(opts.names) : undefined
  const rows = winners(view.rows).filter((r) => !wanted || wanted.has(r.name))
  const trustAll = opts.trustAll ?? trustGateOff(opts.env)
  // Each row is judged as its directory's (config/inherit.ts): a monorepo parent's server under the parent's trust.
  const trusted = new Map<string, TrustView>()
  const trustFor = (home: string) => () => {
    let t = trusted.get(home)
    if (!t) {
      const { store, refused } = loadTrustStore(opts.dshHome, home)
      t = { store, problem: refused, canonical: canonicalRoot(home) }
      trusted.set(home, t)
    }
    return t
  }
  const plans = rows.map((row) => {
    const home = rowHome(row, root)
    return plan(row, opts, home, trustFor(home), trustAll)
  })
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
      const r: DoctorResult = {
        ...base(p.row),
        state: o.state,
        toolCount: o.tools.length,
        tools: o.tools,
        latencyMs: o.latencyMs,
        error: o.error,
        hint: o.hint,
        server: o.server,
        stderrTail: o.stderrTail,
      }
      results[i] = r
      opts.onResult?.(r)
    }),
  ).finally(() => opts.signal?.removeEventListener('abort', onAbort))
  return results as DoctorResult[]
}
