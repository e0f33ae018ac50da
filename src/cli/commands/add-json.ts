/**
 * `dsh-mcp add-json <name> <json> [-s scope] [-f]` (docs/guide/cli.md).
 *
 * Contract: `<json>` is one entry in the `.mcp.json` shape (`type`,
 * `command`, `args`, `env`, `url`, `headers`) or the friendly shape. A
 * `type`/`transport` that agrees with `command`/`url` is not written (it is
 * implied); `sse` and keys of neither shape fail (exit 1); malformed JSON is
 * a usage error (exit 2). Then as `add`: validated, written as given, trusted.
 *
 * @module
 */
import { suggest } from '../../config/entry.ts'
import { ENTRY_KEYS } from '../../config/schema.ts'
import { failure, usage } from '../errors.ts'
import { checkName } from '../flags.ts'
import { fromMcpJsonEntry, isRecord } from '../importers/common.ts'
import type { CliContext } from '../program.ts'
import type { WriteScope } from '../target.ts'
import { writeEntry } from './add.ts'

export async function run(
  cli: CliContext,
  name: string,
  json: string,
  opts: { scope?: WriteScope; file?: string; force?: boolean },
): Promise<number> {
  checkName(name)
  let raw: unknown
  try {
    raw = JSON.parse(json)
  } catch {
    // The parser's message quotes the input, which may hold a secret: say only that it failed.
    throw usage('<json> is not valid JSON (quote it for your shell: \'{"command":"npx","args":["-y","pkg"]}\')')
  }
  if (!isRecord(raw)) throw usage('<json> must be a JSON object (one server entry)')
  const mapped = fromMcpJsonEntry(raw)
  if (mapped.invalid) throw failure(`server "${name}" is not valid: ${mapped.invalid}`)
  if (mapped.dropped.length) {
    const key = mapped.dropped[0]!
    const hint = suggest(key, ENTRY_KEYS)
    throw failure(`server "${name}" is not valid: unknown key "${key}"${hint ? `; did you mean "${hint}"?` : ''}`)
  }
  return writeEntry(cli, name, mapped.entry!, {
    ...(opts.scope ? { scope: opts.scope } : {}),
    ...(opts.file ? { file: opts.file } : {}),
    force: Boolean(opts.force),
  })
}
