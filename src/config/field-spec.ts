/**
 * The shape of one row of the field table (fields.ts): what a field declares
 * about itself, and the flag-name helpers `add` uses.
 *
 * Contract: types and pure string helpers only (no zod, no imports), so the
 * CLI's command tree can read the table at start.
 *
 * @module
 */

/** Value types `schema.ts` turns into zod (each with the absent value the trust fingerprint writes). */
export type ValueType =
  | 'nonempty'
  | 'string'
  | 'text-list'
  | 'text-map'
  | 'boolean'
  | 'millis'
  | 'millis0'
  | 'count'
  | 'lifecycle'
  | 'reconnect'
  | 'oauth'
  | 'tools'
  | 'always-load'

export type ExportTarget = 'claude' | 'cursor' | 'vscode' | 'codex' | 'gemini'
export type ImportSource = 'codex' | 'gemini'

export interface FieldSpec {
  type: ValueType
  /** The one-line description: JSON Schema hover text. */
  docs: string
  /** Which servers it applies to (a stdio field on an http server is an error, and back). */
  transport: 'stdio' | 'http' | 'both'
  /** A partial local override (no command/url) may set it. */
  override: boolean
  /** `${VAR}` expands in it. */
  expand?: true
  /** A repository file (every layer but `$DSH_HOME/mcp.yml`) may not set more: clamped with a warning. */
  repositoryMax?: number
  /**
   * Trust fingerprint: `always` (absent written as its type's empty value), `written` (only when present),
   * `merged` (only when overrides merged in), `resolved` (as the resolved transport), or not at all.
   */
  trust: 'always' | 'written' | 'merged' | 'resolved' | false
  /** Tool-cache key (a keyed hash of the official launch): the value, the resolved transport, or not at all. */
  cacheKey: 'value' | 'resolved' | false
  /**
   * Mount key (a change remounts): `official` through the official config, `host` handed to the mount
   * beside it (src/host/mounts.ts reads it from `MountSpec.settings`), or not at all (tuning).
   */
  mount: 'official' | 'host' | false
  /** The official client Config: `mapped` by toOfficialConfig's own code, `copied` as written when present. */
  official?: 'mapped' | 'copied'
  /** `get`/`list`: `own` (a ServerView property of its own), `setting` (`settings`, a detail row), or hidden. */
  view: 'own' | 'setting' | false
  /** The detail row's label (`setting` fields; at most 11 characters, the width of get's label column). */
  label?: string
  /**
   * `export`: each target's spelling; `implicit` is carried by the export itself (type, enabled rows only). A
   * spelling that is also an `import` key with a `scale` is written in that unit (`tool_timeout_sec`: seconds).
   */
  export: Partial<Record<ExportTarget, string>> | 'implicit'
  /** Importers whose spelling differs: key, and the factor to ms (seconds: 1000). */
  import?: Partial<Record<ImportSource, readonly { key: string; scale?: number }[]>>
  /** `dsh-mcp add`'s flag (commander syntax), and its help. */
  flag?: { flags: string; help: string; choices?: readonly string[] }
}

/** The commander attribute of a long flag (`--idle-timeout <ms>` → `idleTimeout`). */
export function flagAttribute(flags: string): string {
  const long = /--([a-z][a-z-]*)/.exec(flags)?.[1] ?? ''
  return long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())
}

/** The long flag alone (`--idle-timeout`). */
export function flagName(flags: string): string {
  return /--[a-z][a-z-]*/.exec(flags)?.[0] ?? flags
}
