/**
 * The verdict as it leaves the plan: a whole file's verdict and the form every
 * edge renders from.
 *
 * Contract: pure. `fileVerdictOf(parsed)` judges a config file as a whole
 * (undefined when it parsed: its entries are judged row by row by
 * verdict.ts `verdictOf`); `verdictView(v)` is the form that travels to every
 * edge (placements, status files, `--json`) — the tag, the kind of reason,
 * the one-line reason and the structured fields, never a value.
 *
 * @module
 */
import { formatDiagnostic } from '../config/diagnostics.ts'
import type { ParsedFile } from '../config/parse.ts'
import type { SignatureAnswer } from '../trust/state.ts'
import type { RefusedWhy, Verdict, VerdictTag } from './verdict.ts'

/** A whole config file refused: by the reading edge (`ownership`, `symlink-out`) or because it does not parse (`invalid`). */
export interface FileVerdict {
  tag: 'refused'
  why: RefusedWhy
  file: string
  /** One line: the first problem (`file:line:col: …`) or the refusal with how to allow or repair it. */
  reason: string
}

/** The verdict of a file as a whole: undefined when it parsed (its entries are judged row by row). */
export function fileVerdictOf(
  parsed: Pick<ParsedFile, 'file' | 'ok' | 'diagnostics' | 'refused'>,
): FileVerdict | undefined {
  if (parsed.ok) return undefined
  const d = parsed.diagnostics.find((x) => x.severity === 'error') ?? parsed.diagnostics[0]
  const reason = parsed.refused?.message ?? (d ? formatDiagnostic(d) : `${parsed.file}: cannot be read`)
  return { tag: 'refused', why: parsed.refused?.reason ?? 'invalid', file: parsed.file, reason }
}

/**
 * A verdict as it travels to every edge (placements, status files, `--json`):
 * the tag, `why` (the kind of reason; for `skipped`, the variables joined),
 * the one-line `reason`, and the structured fields an edge renders from —
 * `variables` / `withheld` (skipped), `fix` (needs-trust: the trust
 * command), `file` (refused). Never a value.
 */
export interface VerdictView {
  tag: VerdictTag
  why: string | null
  reason: string | null
  /** skipped: every `${VAR}` without a default that is unset for the host. */
  variables?: string[]
  /** skipped: those of `variables` set only in the checkout's `.env` (never read by `${VAR}`). */
  withheld?: string[]
  /** skipped: every `${secret:NAME}` that is not set (`dsh-mcp secret set NAME` sets it). */
  secrets?: string[]
  /** needs-trust (but `store-problem`): the command that trusts it; refused `not-locked`: the command that locks it. */
  fix?: string
  /** refused: the file the problem is in. */
  file?: string
  /** runs (state `trusted`: it runs on a signature alone) or needs-trust: what the row's signed approval says. */
  signature?: SignatureAnswer
}

export function verdictView(v: Verdict | FileVerdict): VerdictView {
  switch (v.tag) {
    case 'runs':
      return {
        tag: 'runs',
        why: null,
        reason: v.notes[0] ?? null,
        ...(v.signedBy !== undefined ? { signature: { state: 'trusted', signer: v.signedBy } } : {}),
      }
    case 'needs-trust':
      return {
        tag: v.tag,
        why: v.why,
        reason: v.reason,
        ...(v.why === 'store-problem' ? {} : { fix: v.fix }),
        ...(v.signature ? { signature: v.signature } : {}),
      }
    case 'refused':
      return {
        tag: v.tag,
        why: v.why,
        reason: v.reason,
        ...(v.file !== undefined ? { file: v.file } : {}),
        ...('fix' in v && v.fix !== undefined ? { fix: v.fix } : {}),
      }
    case 'skipped':
      return {
        tag: 'skipped',
        why: [...v.variables, ...(v.secrets ?? []).map((n) => `secret:${n}`)].join(', ') || null,
        reason: v.reason,
        variables: v.variables,
        withheld: v.withheld,
        ...(v.secrets ? { secrets: v.secrets } : {}),
      }
    default:
      return { tag: v.tag, why: null, reason: v.reason }
  }
}
