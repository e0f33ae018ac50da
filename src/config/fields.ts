/**
 * The field table: every per-server field of the friendly format, declared
 * once. Read this file first when adding a field (AGENTS.md, "Add a field").
 *
 * Contract: pure data, no zod (the CLI's command tree reads `flag` at start
 * and loads nothing heavier than commander): a field names its value type,
 * and `schema.ts` turns the names into zod. Everything that lists fields
 * derives from this table, in its order (the order the format documents):
 * the entry schema and its JSON Schema (`type`, `docs`), the partial-override
 * and transport rules (`override`, `transport`), the repository cap
 * (`repositoryMax`, applied by `checkEntry` to every file but the user's own),
 * the trust fingerprint (`trust`), the mount key and what the host reads from
 * a mount (`mount`), the official client mapping (`official`), `get`/`list`
 * (`view`), `export`'s targets (`export`; a written field a target has no
 * spelling for is named in a note), the importers (`import`), and `add`'s
 * flags (`flag`). The tool-cache key's members are declared (`cacheKey`); its
 * hashing lives in fingerprint.ts. The lazy-lifecycle rows are declared in
 * fields-lazy.ts and spread in at their place (last). test/config/fields.test.ts fails when any
 * of those, or the field table of docs/guide/format.md (+ zh), disagrees.
 *
 * @module
 */

import type { FieldSpec } from './field-spec.ts'
import { LAZY_FIELDS } from './fields-lazy.ts'

export type { ExportTarget, FieldSpec, ImportSource, ValueType } from './field-spec.ts'
export { flagAttribute, flagName } from './field-spec.ts'
/** The file-level keys beside `servers:` (`inherit`, `disable`): their own small table. */
export { FILE_KEY_NAMES, FILE_KEYS, type FileKeyName } from './file-keys.ts'

/** Largest `startupTimeoutMs` a repository file may set (see docs/guide/format.md). */
export const REPOSITORY_STARTUP_CAP_MS = 120_000

/** Spelled as here in every export target. */
const everywhere = (key: string) => ({ claude: key, cursor: key, vscode: key, codex: key, gemini: key })

export const FIELDS = {
  command: {
    type: 'nonempty',
    docs: 'Executable to start (stdio transport).',
    transport: 'stdio',
    override: false,
    expand: true,
    trust: 'always',
    cacheKey: 'value',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    export: everywhere('command'),
  },
  args: {
    type: 'text-list',
    docs: 'Arguments, passed without a shell.',
    transport: 'stdio',
    override: false,
    expand: true,
    trust: 'always',
    cacheKey: 'value',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    export: everywhere('args'),
  },
  env: {
    type: 'text-map',
    docs: 'Environment variables for the server process.',
    transport: 'stdio',
    override: true,
    expand: true,
    trust: 'always',
    cacheKey: 'value',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    export: everywhere('env'),
  },
  cwd: {
    type: 'string',
    docs: 'Working directory, relative to the project root (default: the project root).',
    transport: 'stdio',
    override: false,
    expand: true,
    trust: 'always',
    cacheKey: 'value',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    export: { vscode: 'cwd', codex: 'cwd', gemini: 'cwd' },
    flag: { flags: '--cwd <dir>', help: 'working directory, relative to the project root' },
  },
  url: {
    type: 'nonempty',
    docs: 'MCP endpoint (streamable-http transport).',
    transport: 'http',
    override: false,
    expand: true,
    trust: 'always',
    cacheKey: 'value',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    // Gemini CLI's `url` is its SSE endpoint; streamable HTTP is `httpUrl` (an sse row is written as `url`).
    export: { ...everywhere('url'), gemini: 'httpUrl' },
  },
  headers: {
    type: 'text-map',
    docs: 'HTTP headers sent with every request.',
    transport: 'http',
    override: true,
    expand: true,
    trust: 'always',
    cacheKey: 'value',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    export: { ...everywhere('headers'), codex: 'http_headers' },
  },
  transport: {
    type: 'string',
    docs: 'stdio | http | streamable-http | sse (sse needs a host dsh-mcp-client that has it); inferred from command/url when absent.',
    transport: 'both',
    override: false,
    trust: 'resolved',
    cacheKey: 'resolved',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    export: 'implicit',
  },
  type: {
    type: 'string',
    docs: 'Alias of transport (Claude Code spelling).',
    transport: 'both',
    override: false,
    trust: 'resolved',
    cacheKey: 'resolved',
    mount: 'official',
    official: 'mapped',
    view: 'own',
    export: 'implicit',
  },
  toolCallTimeoutMs: {
    type: 'millis',
    docs: 'Timeout of one tool call in ms.',
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: 'official',
    official: 'copied',
    view: 'setting',
    label: 'tool calls',
    export: { codex: 'tool_timeout_sec', gemini: 'timeout' },
    import: { codex: [{ key: 'tool_timeout_sec', scale: 1000 }], gemini: [{ key: 'timeout' }] },
    flag: { flags: '--timeout <ms>', help: 'tool call timeout in milliseconds' },
  },
  startupTimeoutMs: {
    type: 'millis',
    docs: `Bound on initialize + tools/list for this server in ms, instead of the plugin's mountTimeoutMs; a repository file may not set more than ${REPOSITORY_STARTUP_CAP_MS}.`,
    transport: 'both',
    override: true,
    repositoryMax: REPOSITORY_STARTUP_CAP_MS,
    trust: false,
    cacheKey: false,
    mount: 'host',
    view: 'setting',
    label: 'startup',
    export: { codex: 'startup_timeout_sec' },
    import: { codex: [{ key: 'startup_timeout_sec', scale: 1000 }, { key: 'startup_timeout_ms' }] },
    flag: {
      flags: '--startup-timeout <ms>',
      help: "bound on initialize + tools/list (default: the plugin's mountTimeoutMs)",
    },
  },
  failOnStartupError: {
    type: 'boolean',
    docs: 'Fail the mount when the first connection fails.',
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: 'official',
    official: 'copied',
    view: 'setting',
    label: 'start error',
    export: {},
  },
  maxInstructionBytes: {
    type: 'count',
    docs: 'Largest server instructions (UTF-8 bytes) the client accepts; needs a host dsh-mcp-client that has it (0.1.6-alpha.2 and later).',
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: 'official',
    official: 'copied',
    view: 'setting',
    label: 'max instr.',
    export: {},
  },
  oauth: {
    type: 'oauth',
    docs: 'OAuth for an http server; needs a host dsh-mcp-client that has it.',
    transport: 'http',
    override: true,
    trust: 'written',
    cacheKey: 'value',
    mount: 'official',
    official: 'mapped',
    view: 'setting',
    label: 'oauth',
    export: {},
  },
  reconnect: {
    type: 'reconnect',
    docs: 'Reconnecting after a lost connection (the official client defaults each key).',
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: 'official',
    official: 'copied',
    view: 'setting',
    label: 'reconnect',
    export: {},
  },
  tools: {
    type: 'tools',
    docs: 'Which of its tools the agent sees (globs on raw tool names).',
    transport: 'both',
    override: true,
    trust: 'merged',
    cacheKey: false,
    mount: false,
    view: 'own',
    // Codex: enabled_tools/disabled_tools, Gemini: includeTools/excludeTools (exact names: export-targets.ts).
    export: { codex: 'tools', gemini: 'tools' },
  },
  alwaysLoad: {
    type: 'always-load',
    docs: "Offer these tools up front even above the plugin's toolBudget: true (all of them) or globs on raw tool names.",
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: false,
    view: 'setting',
    label: 'always load',
    export: {},
  },
  description: {
    type: 'string',
    docs: 'What this server is for (shown by dsh-mcp list and to the model in mcp_tool_search); trusted with the server.',
    transport: 'both',
    override: true,
    // Repository text the model reads (mcp_tool_search's description): a changed description asks again.
    trust: 'written',
    cacheKey: false,
    mount: false,
    view: 'own',
    export: { gemini: 'description' },
    flag: { flags: '--description <text>', help: 'what the server is for' },
  },
  lock: {
    type: 'boolean',
    docs: 'false: dsh-mcp lock leaves this server out of .dsh/mcp.lock (it runs its package runner as written).',
    transport: 'stdio',
    override: false,
    trust: 'written',
    cacheKey: false,
    mount: 'host',
    view: 'setting',
    label: 'lock',
    export: {},
  },
  enabled: {
    type: 'boolean',
    docs: 'false keeps the entry but does not mount it.',
    transport: 'both',
    override: true,
    trust: false,
    cacheKey: false,
    mount: false,
    view: 'own',
    export: 'implicit',
  },
  ...LAZY_FIELDS,
} as const satisfies Record<string, FieldSpec>

export type FieldName = keyof typeof FIELDS

/** Every field, in the table's order. */
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[]

/** The spec of `name` (widened to FieldSpec for generic readers). */
export function fieldSpec(name: FieldName): FieldSpec {
  return FIELDS[name]
}

/** Field names whose spec matches `pick`, in table order. */
export function fieldsWhere(pick: (spec: FieldSpec, name: FieldName) => boolean): FieldName[] {
  return FIELD_NAMES.filter((n) => pick(FIELDS[n], n))
}

/** The fields handed to a mount beside its official config (`mount: 'host'`). */
export type HostField = { [K in FieldName]: (typeof FIELDS)[K]['mount'] extends 'host' ? K : never }[FieldName]

/**
 * Top-level keys beside `servers:` that only the user's own file (`$DSH_HOME/mcp.yml`) may set: a repository
 * or local file that writes one gets a warning and the key is ignored (read-document.ts), so a repository can
 * never widen what this user honours.
 */
export const USER_ONLY_ROOT_FIELDS = {
  trustedSigners: {
    docs: "SSH public keys (label: key) whose signed approvals in a project's .dsh/mcp.trust this user honours (user file only).",
  },
} as const

export type UserOnlyRootField = keyof typeof USER_ONLY_ROOT_FIELDS
