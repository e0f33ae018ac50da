/**
 * The layer trace of a server name: every file that defined, overrode,
 * disabled or shadowed it, and which one decided — the one source `dsh-mcp
 * explain` and `status --explain` render (docs/guide/monorepos.md).
 *
 * Contract: pure. `layerTrace(name, rows, layers)` reads the merged rows
 * (config/layers.ts `mergeLayers`) and the layer inputs they came from (for
 * the files whose `disable:` lists the name), and returns the steps strongest
 * file first: `disables` (a file's `disable:` names it; `applies` false when
 * the row it would turn off comes from that file or a stronger one),
 * `overrides` (a partial local row merged onto the winner, with its keys),
 * `defines` (the winning row) and `shadowed` (each losing full row, with the
 * file that shadows it). Exactly one step is `decides`: the disabling file
 * when a `disable:` turned the winner off, else the winner. `outcome` is the
 * winner's row state (`none` when no layer names the server). Names,
 * scopes, files and keys only — never an entry's values.
 *
 * @module
 */
import type { LayerInput, Row, RowState, Scope } from '../config/layers.ts'

export type TraceAction = 'disables' | 'overrides' | 'defines' | 'shadowed'

export interface TraceStep {
  action: TraceAction
  scope: Scope
  file: string
  /** 0: the project's own file; n: the n-th directory above it (a monorepo parent); absent for the user file. */
  level?: number
  /** The step that decided the outcome. */
  decides: boolean
  /** `disables`: whether it turns the winner off (false: the winner is its own file's or a stronger one's). */
  applies?: boolean
  /** `overrides`: the keys the override sets. */
  keys?: string[]
  /** `shadowed`: the file whose row wins over it. */
  by?: string
  /** `defines`: why the winner does not run as written (`enabled: false`, `invalid`). */
  note?: string
}

export interface LayerTrace {
  name: string
  outcome: RowState | 'none'
  steps: TraceStep[]
}

/** Every server name of the rows, in row order (each once). */
export function traceNames(rows: readonly Row[]): string[] {
  return [...new Set(rows.map((r) => r.name))]
}

export function layerTrace(name: string, rows: readonly Row[], layers: readonly LayerInput[]): LayerTrace {
  const info = new Map(layers.map((l) => [l.layer.file, l.layer]))
  const rankOf = (file: string) => info.get(file)?.rank ?? Number.MAX_SAFE_INTEGER
  const levelOf = (file: string, scope: Scope) => (scope === 'user' ? {} : { level: info.get(file)?.level ?? 0 })
  const mine = rows.filter((r) => r.name === name)
  const winner = mine.find((r) => r.state !== 'shadowed')
  const steps: (TraceStep & { rank: number; order: number })[] = []
  const push = (step: TraceStep, order: number) => steps.push({ ...step, rank: rankOf(step.file), order })
  for (const l of layers) {
    if (l.layer.scope === 'user' || !l.parsed.disable?.includes(name)) continue
    const applies = winner?.disabledBy?.file === l.layer.file
    push(
      {
        action: 'disables',
        scope: l.layer.scope,
        file: l.layer.file,
        ...levelOf(l.layer.file, l.layer.scope),
        decides: applies,
        applies,
      },
      0,
    )
  }
  if (winner) {
    for (const s of winner.sources?.slice(1) ?? [])
      push(
        {
          action: 'overrides',
          scope: s.scope,
          file: s.file,
          ...levelOf(s.file, s.scope),
          decides: false,
          ...(s.keys ? { keys: s.keys } : {}),
        },
        1,
      )
    const note = winner.disabledBy
      ? undefined
      : winner.state === 'disabled'
        ? 'enabled: false'
        : winner.state === 'invalid'
          ? 'invalid'
          : undefined
    push(
      {
        action: 'defines',
        scope: winner.scope,
        file: winner.file,
        ...levelOf(winner.file, winner.scope),
        decides: !winner.disabledBy,
        ...(note ? { note } : {}),
      },
      2,
    )
  }
  for (const r of mine)
    if (r.state === 'shadowed')
      push(
        {
          action: 'shadowed',
          scope: r.scope,
          file: r.file,
          ...levelOf(r.file, r.scope),
          decides: false,
          ...(r.shadowedBy ? { by: r.shadowedBy.file } : {}),
        },
        3,
      )
  steps.sort((a, b) => a.rank - b.rank || a.order - b.order)
  return {
    name,
    outcome: winner?.state ?? 'none',
    steps: steps.map(({ rank: _r, order: _o, ...s }) => s),
  }
}
