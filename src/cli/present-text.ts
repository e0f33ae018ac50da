/**
 * A server's view as text: the `list` table, the `get` block, the trust
 * review's warnings.
 *
 * Contract: renders `ServerView`s (present.ts) and nothing else of an entry
 * but `reviewWarnings`' lines; every value on one line (`oneLine`), so a config
 * string cannot forge or hide lines. A command line is shown with its
 * arguments quoted as a shell would need them (`shellWord`).
 * `reviewWarnings` is the one place an env value is printed: for the trust
 * review only, the values of env vars that can load or redirect code
 * (config/code-env.ts) in full (what is a secret in any value still
 * redacted), flagged, the files merged into the row, and a warning with the
 * pinned form for an unpinned package runner (config/runners.ts).
 *
 * @module
 */
import path from 'node:path'
import { isCodeEnv } from '../config/code-env.ts'
import { type FieldName, fieldSpec } from '../config/fields.ts'
import { isRecord } from '../config/guards.ts'
import { contributors, type Row } from '../config/layers.ts'
import { redactShapesIn } from '../config/redact-text.ts'
import { unpinnedRunner } from '../config/runners.ts'
import { oneLine } from '../config/terminal-safe.ts'
import { DETAIL_TEXT, stateColor } from '../plan/states.ts'
import { shellWord } from '../trust/command.ts'
import type { ServerView } from './present.ts'

/** A command line for display: arguments quoted when a shell would split or expand them. */
function commandLine(command: string, args: readonly string[] = []): string {
  return [command, ...args].map(shellWord).join(' ')
}

/** What a row runs or connects to, for one table cell. */
export function targetOf(v: Pick<ServerView, 'command' | 'args' | 'url'>): string {
  if (v.command !== null) return commandLine(v.command, v.args)
  return v.url ?? '-'
}

/** Header and cells of the `list` table (a `check` column when any view carries one). */
export function tableOf(
  views: readonly ServerView[],
  paint: (c: 'green' | 'yellow' | 'red' | 'gray', s: string) => string,
): { header: string[]; rows: string[][] } {
  const withCheck = views.some((v) => v.check)
  // Lifecycle columns only once a row names one (the table of an all-eager project keeps its shape).
  const withLifecycle = views.some((v) => v.lifecycle !== null)
  const header = [
    'NAME',
    'SCOPE',
    'STATE',
    'TRANSPORT',
    'TARGET',
    'EFFECTIVE',
    ...(withLifecycle ? ['LIFECYCLE', 'CACHE'] : []),
    ...(withCheck ? ['CHECK'] : []),
    'ISSUES',
  ]
  const rows = views.map((v) => [
    v.name,
    v.scope,
    paint(stateColor(v.state), v.detail ? `${v.state} (${DETAIL_TEXT[v.detail]})` : v.state),
    v.transport ?? '-',
    targetOf(v),
    v.effectiveName ?? '-',
    ...(withLifecycle ? [v.lifecycle ?? 'default', v.cache ? `${v.cache.tools} tool(s)` : '-'] : []),
    ...(withCheck ? [v.check?.state ?? '-'] : []),
    v.issues.join('; '),
  ])
  return { header, rows }
}

/** A setting's detail-row text: milliseconds with their unit, a mapping as `key value` pairs. */
function settingText(key: FieldName, value: unknown): string {
  if (isRecord(value))
    return Object.entries(value)
      .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : String(v)}`)
      .join(', ')
  return fieldSpec(key).type === 'millis' ? `${String(value)} ms` : String(value)
}

/** The trust review's flagged lines for a row: env vars that can load or redirect code (in full), the contributing files, an unpinned package runner. */
export function reviewWarnings(row: Row, display: (file: string) => string): string[] {
  const e = row.entry
  if (!e) return []
  const lines: string[] = []
  for (const [key, value] of Object.entries(e.env ?? {})) {
    // Shown in full but for what is a secret in any value (a proxy URL's userinfo, a `--token=` inside NODE_OPTIONS).
    if (isCodeEnv(key))
      lines.push(
        `  ! env ${oneLine(key)}=${oneLine(shellWord(redactShapesIn(value)))}  (can load or redirect code: shown in full)`,
      )
  }
  const from = contributors(row)
  if (from.length > 1) lines.push(`  ! merged from ${from.map((s) => `${display(s.file)} (${s.scope})`).join(' + ')}`)
  const runner = unpinnedRunner(e.command, e.args)
  if (runner) {
    lines.push(
      `  ! ${runner.runner} fetches "${oneLine(runner.pkg)}" as it is on the registry at each start: trust covers the name, not the code`,
    )
    lines.push(`    pin an exact version instead: ${oneLine(commandLine(runner.pinned[0]!, runner.pinned.slice(1)))}`)
  }
  return lines
}

/** The text block describing one server (`get`, and `trust`'s review). */
export function detailLines(v: ServerView, root: string, display: (file: string) => string): string[] {
  // Every value on one line: a config string with line breaks cannot forge or hide lines of the review.
  const lines = [oneLine(v.name)]
  const field = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(13)}${oneLine(value)}`)
  field('state', v.detail ? `${v.state} (${DETAIL_TEXT[v.detail]})` : v.state)
  field('scope', `${v.scope} (${display(v.file)})`)
  if (v.overriddenBy) field('overrides', display(v.overriddenBy))
  if (v.description) field('description', v.description)
  field('transport', v.transport ?? '-')
  if (v.command !== null) {
    field('command', targetOf(v))
    if (v.runs) field('runs', v.runs.command)
    field('cwd', v.runs?.cwd ?? path.resolve(v.scope === 'user' ? path.dirname(v.file) : root, v.cwd ?? '.'))
  }
  if (v.url !== null) field('url', v.url)
  // The variables a key's value is built from are named (they say what of yours the server is sent); values never print.
  const keyed = (keys: string[], vars: Record<string, string[]>) =>
    keys.map((k) => (vars[k]?.length ? `${k} (← ${vars[k].map((n) => `$${n}`).join(' ')})` : k)).join(', ')
  if (v.envKeys.length) field('env keys', keyed(v.envKeys, v.envVars))
  if (v.headerKeys.length) field('header keys', keyed(v.headerKeys, v.headerVars))
  if (v.tools?.include) field('tools in', v.tools.include.join(', '))
  if (v.tools?.exclude) field('tools out', v.tools.exclude.join(', '))
  field(
    'lifecycle',
    `${v.lifecycle ?? 'default (eager unless the plugin says otherwise)'}${v.idleTimeoutMs !== null ? `, idle timeout ${v.idleTimeoutMs === 0 ? 'never' : `${v.idleTimeoutMs} ms`}` : ''}`,
  )
  for (const [key, value] of Object.entries(v.settings))
    field(fieldSpec(key as FieldName).label ?? key, settingText(key as FieldName, value))
  field(
    'tool cache',
    v.cache
      ? `${v.cache.tools} tool(s), recorded ${v.cache.recordedAt}`
      : 'none (recorded the first time a host mounts it)',
  )
  if (v.trust !== null) field('trust', v.trust)
  if (v.state !== 'shadowed') field('verdict', `${v.verdict.tag}${v.verdict.why ? ` (${v.verdict.why})` : ''}`)
  if (v.effectiveName) field('effective', v.effectiveName)
  for (const issue of v.issues) lines.push(`  - ${oneLine(issue)}`)
  return lines
}
