/**
 * Why a server of a project does not run, in words, and the exact command
 * that fixes it — the one mapping the host notice, the agent's prompt lines
 * and the `dsh web` panel share.
 *
 * Contract: pure (no fs, no host). `explain(root, placement, row)` renders
 * the placement's verdict (plan/verdict.ts `VerdictView`) from its fields —
 * never by reading its `reason` back — and answers `undefined` for a row
 * that runs and is on its way (`starting`, `idle`, `dormant`…), or was
 * turned off on purpose (`disabled`, `shadowed`); otherwise a {@link Why}:
 * a `kind`, short `words` and one `fix` a user can paste:
 * - `needs-trust` `new` / `repository-contribution` → `untrusted`, `changed`
 *   → `changed`: the verdict's trust command; `store-problem` → the store
 *   must be repaired first (trusting cannot help): `dsh-mcp doctor`, which
 *   says how;
 * - `skipped` with `variables` → `needs-variable` (`export VAR=…` for the
 *   ones the host lacks) or `env-withheld` (every one is set only in the
 *   checkout's `.env`, which `${VAR}` never reads: set it in the host's own
 *   environment); without → `invalid`;
 * - `refused` → `invalid`; a row that runs but whose live state is `failed`
 *   → `failed`, in the words of its typed cause when the host knows it
 *   (`command not found: x — fix the file; it reloads live`: a command name
 *   and counts, never a value); one that runs withholding changed tools (its
 *   `detail` `tools-changed`, host/tool-pins.ts) → `tools-changed`: the trust command.
 * Words are built from names only — never an env or header value, a
 * command line, or an error text (a redacted error stays in the row's
 * `lastError`). `explainFile` does the same for a config file the host
 * refused. `summarize` bounds a list of lines (`max` lines and `maxBytes`
 * UTF-8 bytes, then "and N more").
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import type { Placement } from '../plan/desired.ts'
import { causeText, DETAIL_TEXT, signatureWords } from '../plan/states.ts'
import { shellWord, trustCommand } from '../trust/command.ts'
import type { FileProblem, ServerSnapshot } from './status.ts'

export type WhyKind =
  | 'untrusted'
  | 'changed'
  | 'store-problem'
  | 'needs-variable'
  | 'env-withheld'
  | 'invalid'
  | 'failed'
  | 'tools-changed'
  | 'refused-file'

export interface Why {
  name: string
  kind: WhyKind
  words: string
  fix: string
}

const doctorCommand = (root: string | null, name: string) =>
  root === null ? `dsh-mcp doctor ${shellWord(name)}` : `dsh-mcp doctor -C ${shellWord(root)} ${shellWord(name)}`

const names = (vars: readonly string[]) => vars.map((v) => `$${v}`).join(', ')

export function explain(
  root: string | null,
  p: Placement,
  row: Pick<ServerSnapshot, 'state'> & Partial<Pick<ServerSnapshot, 'detail' | 'cause'>>,
): Why | undefined {
  const name = p.name
  const v = p.verdict
  switch (v.tag) {
    case 'needs-trust': {
      if (v.why === 'store-problem')
        return {
          name,
          kind: 'store-problem',
          words: 'the trust store cannot be used, so nothing counts as trusted: repair it (trusting again cannot help)',
          fix: doctorCommand(root, name),
        }
      if (v.fix === undefined)
        return { name, kind: 'invalid', words: 'its entry is not valid', fix: doctorCommand(root, name) }
      const changed = v.why === 'changed'
      const signed = v.signature ? ` (${signatureWords(v.signature)})` : ''
      return {
        name,
        kind: changed ? 'changed' : 'untrusted',
        words: changed
          ? `changed since it was trusted${signed}: review it and trust it again`
          : `not trusted yet${signed}: review it, then trust it`,
        fix: v.fix,
      }
    }
    case 'skipped': {
      const vars = v.variables ?? []
      if (vars.length === 0)
        return {
          name,
          kind: 'invalid',
          words: 'its entry cannot be used once its variables are expanded',
          fix: doctorCommand(root, name),
        }
      const withheld = new Set(v.withheld ?? [])
      const unset = vars.filter((x) => !withheld.has(x))
      if (unset.length === 0)
        return {
          name,
          kind: 'env-withheld',
          words: `needs ${names(vars)}, set only in the checkout's .env, which \${…} never reads (set ${vars.length === 1 ? 'it' : 'them'} in the host's own environment, then restart the host)`,
          fix: doctorCommand(root, name),
        }
      return {
        name,
        kind: 'needs-variable',
        words: `needs ${names(unset)}, ${unset.length === 1 ? 'which is' : 'which are'} not set in the host's environment (set it, then restart the host)`,
        fix: unset.map((x) => `export ${x}=…`).join('; '),
      }
    }
    case 'refused':
      return { name, kind: 'invalid', words: 'its entry is not valid', fix: doctorCommand(root, name) }
    case 'runs':
      if (row.state === 'failed')
        return {
          name,
          kind: 'failed',
          // The typed cause, said as the host log, the status file and the panel say it (plan/states.ts causeText).
          words: row.cause ? causeText(row.cause) : 'failed to start or lost its connection',
          fix: doctorCommand(root, name),
        }
      if (row.detail === 'tools-changed' && root !== null)
        return {
          name,
          kind: 'tools-changed',
          words: `${DETAIL_TEXT['tools-changed']}: it runs, but tools it changed or added since it was trusted are withheld until the user reviews them`,
          fix: trustCommand(root, name),
        }
      return undefined
    default:
      return undefined
  }
}

export function explainFile(root: string, f: Pick<FileProblem, 'file' | 'keptLastGood'>): Why {
  return {
    name: f.file,
    kind: 'refused-file',
    words: f.keptLastGood
      ? 'this config file was refused; its last good version is still used'
      : 'this config file was refused; nothing from it is used',
    fix: `dsh-mcp validate -C ${shellWord(root)}`,
  }
}

/** Every reason a project's servers (and files) do not run, in row order, files last. */
export function explainProject(
  root: string | null,
  placements: readonly Placement[],
  rows: readonly (Pick<ServerSnapshot, 'state'> & Partial<Pick<ServerSnapshot, 'detail' | 'cause'>>)[],
  files: readonly FileProblem[],
): Why[] {
  const out: Why[] = []
  placements.forEach((p, i) => {
    const why = explain(root, p, rows[i] ?? { state: 'starting' })
    if (why) out.push(why)
  })
  if (root !== null) for (const f of files) out.push(explainFile(root, f))
  return out
}

/**
 * `lines` as they are when they fit in `max` lines and `maxBytes` UTF-8
 * bytes; else as many as fit with room for one last line, `more(n)`, naming
 * the `n` left out.
 */
export function summarize(
  lines: readonly string[],
  max: number,
  maxBytes: number,
  more: (n: number) => string,
): string[] {
  const size = (line: string) => Buffer.byteLength(line, 'utf8') + 1
  if (lines.length <= max && lines.reduce((n, l) => n + size(l), 0) <= maxBytes) return [...lines]
  const out: string[] = []
  let bytes = size(more(lines.length))
  for (const line of lines) {
    if (out.length >= max - 1 || bytes + size(line) > maxBytes) break
    out.push(line)
    bytes += size(line)
  }
  out.push(more(lines.length - out.length))
  return out
}
