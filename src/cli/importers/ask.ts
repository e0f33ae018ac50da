/**
 * `dsh-mcp import` with no `--from` asks first (docs/guide/cli.md).
 *
 * Contract: with no `--from`, import reads every client file it finds
 * (importers/sources.ts), user-scope ones included, whose servers would then
 * start in every project. So before anything is written {@link askDiscovered}
 * lists what was found, one line per source: the file (and part), the scope
 * its servers would go to, how many and their names; then asks on a
 * terminal (`y`/`yes` imports; anything else: "nothing imported", exit 1).
 * With no terminal it writes one line naming the counts per scope and the
 * two ways on (`--from <source>`, or `--yes`) and the run exits 2. Callers
 * skip it for `--yes` and `--dry-run` (which writes nothing). It resolves to
 * an exit code when the run must stop, else undefined.
 *
 * @module
 */
import { usage } from '../errors.ts'
import type { CliContext } from '../program.ts'
import type { WriteScope } from '../target.ts'
import type { SourceResult } from './common.ts'

export async function askDiscovered(
  cli: CliContext,
  results: readonly SourceResult[],
  show: (file: string) => string,
  scope: WriteScope | undefined,
): Promise<number | undefined> {
  const found = results.filter((r) => !r.error && r.candidates.length > 0)
  const total = found.reduce((n, r) => n + r.candidates.length, 0)
  if (total === 0) return undefined
  const perScope = new Map<WriteScope, number>()
  for (const r of found) perScope.set(scope ?? r.scope, (perScope.get(scope ?? r.scope) ?? 0) + r.candidates.length)
  const counts = [...perScope].map(([s, n]) => `${n} ${s}-scope`).join(', ')
  const plural = total === 1 ? '' : 's'
  if (!cli.interactive)
    throw usage(
      `import with no --from found ${total} server${plural} (${counts}) in ${found.length} client file${found.length === 1 ? '' : 's'}; name one with --from <source>, or pass --yes to import them all`,
    )
  cli.out.err(`Found (no --from: every client file):`)
  for (const r of found) {
    const where = r.part ? `${show(r.file)} (${r.part})` : show(r.file)
    const to = scope ?? r.scope
    const names = r.candidates.map((c) => c.name).join(', ')
    cli.out.err(
      `  ${where} → ${to}${to === 'user' ? ' (starts in every project)' : ''}: ${r.candidates.length} server${r.candidates.length === 1 ? '' : 's'}: ${names}`,
    )
  }
  const { confirm } = await import('../prompt.ts')
  if (await confirm(`Import these ${total} server${plural}?`, { input: cli.stdin, output: cli.stderr }))
    return undefined
  cli.out.err('nothing imported')
  return 1
}
