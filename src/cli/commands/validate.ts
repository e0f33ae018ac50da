/**
 * `dsh-mcp validate [file...]`: for CI and pre-commit hooks.
 *
 * Contract: with no files, checks every present layer file of the project
 * found from `-C/--dir` and the user file, including cross-file problems
 * (a local override that overrides nothing). With files (resolved against
 * the working directory), the format comes from the name: `*.json` is the
 * `mcpServers` dialect, anything else the friendly format, and a file named
 * `mcp.local.yml` may hold partial rows; a named file is judged like the
 * host judges it (`files/guard.ts`: reached through a link out of its
 * project, or another user's, it is refused unread). Every diagnostic is printed on
 * stderr as `file:line:col: severity: path: message` with paths relative to
 * the working directory; success prints nothing. Exit 1 on any error
 * (including a named file that does not exist); warnings alone exit 0.
 * `--strict` (for CI and pre-commit hooks) makes an unknown key an error
 * (`unknown-key`: a typo such as `arg:` for `args:`, "did you mean" kept),
 * so it exits 1 instead of running the entry without the key.
 *
 * @module
 */
import path from 'node:path'
import { type Diagnostic, formatDiagnostic, hasErrors } from '../../config/diagnostics.ts'
import { allDiagnostics } from '../../config/parse.ts'
import { userLayerFile } from '../../config/layers.ts'
import { loadProject } from '../../files/project.ts'
import { projectRootOf, readConfigFile } from '../../files/read.ts'
import { displayPath } from '../present.ts'
import type { CliContext } from '../program.ts'

export async function run(cli: CliContext, files: string[] = [], opts: { strict?: boolean } = {}): Promise<number> {
  const found = files.length > 0 ? checkFiles(cli, files) : checkProject(cli)
  const diagnostics = opts.strict ? found.map(strict) : found
  const display = displayPath(cli.cwd)
  const seen = new Set<string>()
  for (const d of diagnostics) {
    const line = formatDiagnostic(d, { relativeTo: display })
    if (seen.has(line)) continue
    seen.add(line)
    cli.out.err(line)
  }
  return hasErrors(diagnostics) ? 1 : 0
}

function checkFiles(cli: CliContext, files: string[]): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const arg of files) {
    const file = path.resolve(cli.cwd, arg)
    const base = path.basename(file)
    const format = /\.json$/i.test(base) ? 'mcpServers' : 'friendly'
    // Judged like the host would: a link out of the file's project (or another user's file) is refused unread.
    const guard = {
      root: projectRootOf(path.dirname(file), cli.loc).root,
      dshHome: cli.loc.dshHome,
      home: cli.loc.home,
      env: cli.env,
    }
    const r = readConfigFile(
      { file, format },
      { allowPartial: /^mcp\.local\.ya?ml$/i.test(base), userFile: file === userLayerFile(cli.loc.dshHome).file },
      guard,
    )
    if (r.absent)
      out.push({ severity: 'error', code: 'read-failed', message: 'no such file', file, line: 0, col: 0, path: '' })
    else out.push(...allDiagnostics(r.parsed))
  }
  return out
}

function checkProject(cli: CliContext): Diagnostic[] {
  const { layers, rows } = loadProject(cli.dir, cli.loc)
  const out = layers.flatMap((l) => allDiagnostics(l.parsed))
  // Cross-file problems exist only once the layers are merged (an orphan local override).
  for (const row of rows) out.push(...row.diagnostics.filter((d) => d.code === 'override-orphan'))
  return out
}

/** Under `--strict` an unknown key is an error: the key is not ignored, the file is wrong. */
function strict(d: Diagnostic): Diagnostic {
  if (d.code !== 'unknown-key' || d.severity === 'error') return d
  return { ...d, severity: 'error', message: d.message.replace(' (ignored)', '') }
}
