/**
 * Trusting what the user just wrote (`add`, `add-json`, `import`): a server
 * written by the user's own hand needs no separate `dsh-mcp trust`.
 *
 * Contract: `trustWritten` trusts exactly what the user wrote and only when
 * the effective row equals it: each written server whose effective row now
 * comes from the written file alone with the written entry's fingerprint. A
 * row that needs no trust, or that another file now supplies, is left alone;
 * a row that other files merge into (a local override) or that differs from
 * what was written is left untrusted, with a note on stderr saying why. The
 * trust store's writer is loaded only when something is trusted; a failed
 * write is a warning naming the `dsh-mcp trust` command to run.
 *
 * @module
 */
import { rowFingerprint, trustFingerprint } from '../config/fingerprint.ts'
import { rowHome } from '../config/inherit.ts'
import { contributors, winners } from '../config/layers.ts'
import type { Entry } from '../config/schema.ts'
import { loadProject, type ProjectView } from '../files/project.ts'
import { shellWord } from '../trust/command.ts'
import { needsTrust } from '../trust/state.ts'
import type { CliContext } from './program.ts'
import { label } from './target.ts'

/** What the user wrote (or imported from a file of their own outside every repository) for one server. */
export interface Written {
  name: string
  /** The entry as written (validated with `checkEntry` before the write). */
  entry: Entry
}

/**
 * Trust exactly what the user wrote: each `written` server whose effective
 * row now comes from `file` alone and equals the written entry (same
 * fingerprint). A row that needs no trust is left alone; a row that other
 * files merge into (a local override) or that differs from what was written
 * is left untrusted, with a note saying why. `loaded`, when given, must be
 * the project as read after the write; without it the project is read here.
 */
export async function trustWritten(
  cli: CliContext,
  root: string,
  file: string,
  written: readonly Written[],
  loaded?: ProjectView,
): Promise<void> {
  if (written.length === 0) return
  const view = loaded ?? loadProject(cli.dir, cli.loc)
  const won = winners(view.rows)
  const servers: { name: string; fingerprint: string }[] = []
  /** The written file's directory (config/inherit.ts): a monorepo parent's file is trusted for every package. */
  let home: string | undefined
  for (const w of written) {
    const row = won.find((r) => r.name === w.name)
    if (!row?.entry || !needsTrust(row) || row.file !== file) continue
    const merged = contributors(row).slice(1)
    const why = merged.length
      ? `${merged.map((s) => label(cli, root, s.file)).join(', ')} merges fields into it that were not written here`
      : rowFingerprint(row) !== trustFingerprint(w.entry, undefined, row.lock)
        ? 'its effective entry differs from what was written'
        : undefined
    if (why) {
      cli.out.err(
        `note: "${w.name}" is not trusted: ${why}; review it (dsh-mcp get ${shellWord(w.name)}), then run: dsh-mcp trust ${shellWord(w.name)}`,
      )
      continue
    }
    servers.push({ name: w.name, fingerprint: rowFingerprint(row) })
    home = rowHome(row, root)
  }
  if (servers.length === 0) return
  const { trustServers } = await import('../trust/store.ts')
  try {
    // The written file's own directory: in a monorepo, a parent's file is trusted for every package that inherits it.
    await trustServers(cli.loc.dshHome, home ?? root, servers)
  } catch (err) {
    cli.out.err(
      `dsh-mcp: warning: could not record trust (${(err as Error).message}); run "dsh-mcp trust ${servers.map((s) => s.name).join(' ')}"`,
    )
  }
}
