/**
 * Why a server of a project does not run, in words, and the exact command
 * that fixes it — the one mapping the host notice, the agent's prompt lines
 * and the `dsh web` panel share.
 *
 * Contract: pure (no fs, no host). `explain(root, placement, row)` answers
 * `undefined` for a row that runs, is on its way (`starting`, `idle`), or
 * was turned off on purpose (`disabled`, `shadowed`); otherwise a
 * {@link Why}: a `kind`, short `words` and one `fix` a user can paste
 * (`dsh-mcp trust -C <root> <name>`, `export VAR=…`, `dsh-mcp doctor -C
 * <root> <name>`). Words are built from names only — never an env or header
 * value, a command line, or an error text (a redacted error stays in the
 * row's `lastError`). `explainFile` does the same for a config file the host
 * refused. `summarize` bounds a list of lines (`max` lines and `maxBytes`
 * UTF-8 bytes, then "and N more").
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import type { Placement } from '../plan/desired.ts'
import { shellWord, trustCommand } from '../trust/command.ts'
import type { FileProblem, ServerSnapshot } from './status.ts'

export type WhyKind = 'untrusted' | 'changed' | 'needs-variable' | 'invalid' | 'failed' | 'refused-file'

export interface Why {
  name: string
  kind: WhyKind
  words: string
  fix: string
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g

/** The variables a `skipped` reason names as not set (the expander names them, never their values; `${X:-d}` is a hint, not a need). */
function missingVariables(reason: string | undefined): string[] {
  return [...new Set([...(reason ?? '').matchAll(VAR)].filter((m) => !m[0].includes(':-')).map((m) => m[1] as string))]
}

const doctorCommand = (root: string | null, name: string) =>
  root === null ? `dsh-mcp doctor ${shellWord(name)}` : `dsh-mcp doctor -C ${shellWord(root)} ${shellWord(name)}`

export function explain(root: string | null, p: Placement, row: Pick<ServerSnapshot, 'state'>): Why | undefined {
  const name = p.name
  if (p.want === 'untrusted' && root !== null) {
    const changed = p.trust === 'changed'
    return {
      name,
      kind: changed ? 'changed' : 'untrusted',
      words: changed
        ? 'changed since it was trusted: review it and trust it again'
        : 'not trusted yet: review it, then trust it',
      fix: trustCommand(root, name),
    }
  }
  if (p.want === 'skipped') {
    const vars = missingVariables(p.reason)
    if (vars.length > 0) {
      const list = vars.map((v) => `$${v}`).join(', ')
      return {
        name,
        kind: 'needs-variable',
        words: `needs ${list}, ${vars.length === 1 ? 'which is' : 'which are'} not set in the host's environment (set it, then restart the host)`,
        fix: vars.map((v) => `export ${v}=…`).join('; '),
      }
    }
    return {
      name,
      kind: 'invalid',
      words: 'its entry cannot be used once its variables are expanded',
      fix: doctorCommand(root, name),
    }
  }
  if (p.want === 'invalid' || p.want === 'untrusted')
    return { name, kind: 'invalid', words: 'its entry is not valid', fix: doctorCommand(root, name) }
  if (p.want === 'mount' && row.state === 'failed')
    return { name, kind: 'failed', words: 'failed to start or lost its connection', fix: doctorCommand(root, name) }
  return undefined
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
  rows: readonly Pick<ServerSnapshot, 'state'>[],
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
