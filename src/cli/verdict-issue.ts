/**
 * A verdict's own issue lines (plan/verdict.ts), as `list`, `get` and the
 * trust review show them.
 *
 * Contract: rendered from the verdict's fields only (never by reading its
 * reason text back but for a refusal's or store problem's own `reason`); no
 * value of a variable is ever named, only its `$NAME`. A row's own
 * diagnostics and shadowing are not repeated here.
 *
 * @module
 */
import type { Row } from '../config/layers.ts'
import { signatureWords } from '../plan/states.ts'
import type { Verdict } from '../plan/verdict.ts'

/**
 * The verdict's own issue lines, from its fields: the trust note of a
 * `needs-trust` row, the problems of a `skipped` one, the reason a row whose
 * entry validated is still refused, the notes of one that runs. A row's own
 * diagnostics (an invalid entry) and shadowing are already in its issues.
 */
export function verdictIssue(v: Verdict, row: Pick<Row, 'name' | 'state'>): string[] {
  switch (v.tag) {
    case 'needs-trust': {
      const run = `review it, then run "dsh-mcp trust ${row.name}"`
      const signed = v.signature ? [signatureWords(v.signature)] : []
      if (v.why === 'changed') return [`changed since trusted: ${run}`, ...signed]
      if (v.why === 'repository-contribution')
        return [`a repository file overrides this user server: ${run}`, ...signed]
      if (v.why === 'store-problem') return [v.reason]
      return [`not trusted yet: ${run}`, ...signed]
    }
    case 'skipped':
      return v.variables.length
        ? [`skipped: ${v.problems.join('; ')}`, ...(v.withheld.length ? [withheldNote(v.withheld)] : [])]
        : [`skipped: ${v.problems.join('; ')}`]
    case 'refused':
      return row.state === 'invalid' ? [] : [v.reason]
    case 'runs':
      return v.signedBy !== undefined ? [signatureWords({ state: 'trusted', signer: v.signedBy }), ...v.notes] : v.notes
    default:
      return []
  }
}

const withheldNote = (names: readonly string[]) =>
  `${names.map((n) => `$${n}`).join(', ')} ${names.length === 1 ? 'is' : 'are'} set only in the checkout's .env, which \${…} never reads: set ${names.length === 1 ? 'it' : 'them'} in the host's own environment`
