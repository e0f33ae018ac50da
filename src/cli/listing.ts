/**
 * A project as the CLI lists it: the project of `cli.dir` (with the user
 * layer) and the trust store read, and every row presented (present.ts).
 *
 * Contract: `readListing` reads the project and the trust store; a trust store that
 * cannot be used makes nothing count as trusted and adds one warning line to
 * `fileProblems` (unless the gate is off); the project's signed approvals
 * (cli/team.ts) are verified once and handed to every verdict. `withChecks` re-presents a listing
 * with doctor results attached, reading nothing again. `unknownServer` is the
 * one "no server named …" failure of `get`, `logs` and `trust` (a
 * did-you-mean among the known names).
 *
 * @module
 */
import { formatDiagnostic } from '../config/diagnostics.ts'
import { suggest } from '../config/entry.ts'
import type { LayerInput } from '../config/layers.ts'
import { loadProject, type ProjectView } from '../files/project.ts'
import { requireLockFromEnv } from '../lock/pin.ts'
import { secretPresence } from '../secrets/store.ts'
import { trustGateOff, type TrustStore } from '../trust/state.ts'
import { loadTrustStore } from '../trust/store.ts'
import { type CliError, failure } from './errors.ts'
import { teamSeam } from './team.ts'
import { type CheckResult, displayPath, type PresentOptions, presentRows, type ServerView } from './present.ts'
import type { CliContext } from './program.ts'

/** File-level problems of the read layers (a file that does not parse, unknown top-level keys), one line each. */
function fileProblems(layers: readonly LayerInput[], display: (file: string) => string): string[] {
  return layers.flatMap((l) => l.parsed.diagnostics.map((d) => formatDiagnostic(d, { relativeTo: display })))
}

export interface Listing {
  project: ProjectView
  /** The trust store as read for the project root (empty when refused). */
  store: TrustStore
  /** The trust gate is off (`DSH_MCP_TRUST_ALL=1`). */
  gateOff: boolean
  views: ServerView[]
  /** File-level problem lines, and a note when the trust store is ignored (print on stderr). */
  fileProblems: string[]
  display: (file: string) => string
  /** What the views were presented with. */
  options: PresentOptions
  dshHome: string
}

/** Read the project of `cli.dir` (+ the user layer) and the trust store, and present every row. */
export function readListing(
  cli: Pick<CliContext, 'dir' | 'cwd' | 'loc' | 'env' | 'platform'>,
  checks?: ReadonlyMap<string, CheckResult>,
): Listing {
  const project = loadProject(cli.dir, cli.loc)
  const display = displayPath(cli.cwd)
  const gateOff = trustGateOff(cli.env)
  const { store, refused } = loadTrustStore(cli.loc.dshHome, project.root.root)
  const seam = gateOff || refused ? { notes: [] } : teamSeam(project.root.root, project.layers, store, cli.env)
  const options: PresentOptions = {
    ...(seam.team ? { team: seam.team } : {}),
    root: project.root.root,
    store,
    storeProblem: refused,
    gateOff,
    ...(requireLockFromEnv(cli.env) ? { requireLock: true } : {}),
    env: cli.env,
    dshHome: cli.loc.dshHome,
    platform: cli.platform,
    display,
    secrets: secretPresence(cli.loc.dshHome, project.root.root),
  }
  const views = presentRows(project.rows, project.layers, { ...options, ...(checks ? { checks } : {}) })
  const problems = [
    ...fileProblems(project.layers, display),
    ...(refused && !gateOff ? [`warning: ignoring the trust store (nothing counts as trusted): ${refused}`] : []),
    ...seam.notes,
  ]
  return { project, store, gateOff, views, fileProblems: problems, display, options, dshHome: cli.loc.dshHome }
}

/** `listing` with `checks` attached to the winning rows (`list --check`), without reading anything again. */
export function withChecks(listing: Listing, checks: ReadonlyMap<string, CheckResult>): Listing {
  const views = presentRows(listing.project.rows, listing.project.layers, { ...listing.options, checks })
  return { ...listing, views }
}

/** `get` and `trust`: no winning row is named `name` (a did-you-mean among `known`). */
export function unknownServer(name: string, known: readonly string[], root: string): CliError {
  const hint = suggest(name, [...known])
  return failure(`no server named "${name}" in ${root} or the user file${hint ? `; did you mean "${hint}"?` : ''}`)
}
