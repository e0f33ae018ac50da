/**
 * The friendly format: one zod schema for a server entry, shared by the
 * runtime, the CLI and the generated JSON Schema.
 *
 * Contract: the schema describes exactly what a user may write. It carries no
 * defaults — a field the user did not write stays absent, so the official
 * client keeps owning its own defaults. Scalars a YAML author naturally writes
 * unquoted (`PORT: 3000`, `args: [--port, 8080]`) are accepted as strings.
 * Written with `zod/mini` (functions, not methods): the CLI builds these
 * schemas on every start, and mini's instances carry no method closures.
 *
 * @module
 */
import * as z from 'zod/mini'
import en from 'zod/v4/locales/en.js'
import { FIELD_NAMES, FIELDS, type FieldName, fieldsWhere, USER_ONLY_ROOT_FIELDS, type ValueType } from './fields.ts'
import { globProblem } from './glob.ts'
import { FILE_KEYS } from './file-keys.ts'
import { SecretsMapSchema } from './secrets-decl.ts'
import { SERVER_NAME_PATTERN, SERVER_NAME_SHAPE } from './server-name.ts'

// zod/mini leaves issue messages generic ("Invalid input") until a locale is set; classic zod sets this one
// on import. Set here so the CLI (which loads only mini) words a problem as the host does.
z.config(en())

/** Longest timer delay Node accepts (2^31 - 1 ms); larger values fire at once. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647

/** The official client's reconnect defaults (it refuses initialDelayMs > maxDelayMs after applying them). */
export const OFFICIAL_RECONNECT_DEFAULTS = { initialDelayMs: 500, maxDelayMs: 30_000 } as const

/** When a server starts: with its project (`eager`) or on its first tool call (`lazy`). */
export const LIFECYCLES = ['eager', 'lazy'] as const
export type Lifecycle = (typeof LIFECYCLES)[number]

/** Transport spellings accepted in `transport:` / `type:`. */
export const TRANSPORT_SPELLINGS = ['stdio', 'http', 'streamable-http', 'sse'] as const

/** A string, or a number/boolean written without quotes (kept as its text). */
const Text = z.pipe(
  z.union([z.string(), z.number(), z.boolean()]),
  z.transform((v) => String(v)),
)

/** A whole number in `[min, max]`, failing as the checks of `z.number()` do (a string is "expected a number"). */
const WholeNumber = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max))

const Millis = WholeNumber(1, MAX_TIMER_DELAY_MS)

/** A described optional field (the description goes to the JSON Schema). */
const opt = <T extends z.core.SomeType>(schema: T, description?: string) =>
  description === undefined ? z.optional(schema) : z.optional(schema).check(z.describe(description))

const NonEmpty = () => z.string().check(z.minLength(1))

export const ReconnectSchema = z.strictObject({
  enabled: opt(z.boolean(), 'Reconnect automatically after a lost connection.'),
  initialDelayMs: opt(Millis, 'First reconnect delay in ms; doubles per failed attempt.'),
  maxDelayMs: opt(Millis, 'Backoff ceiling in ms.'),
  maxAttempts: opt(WholeNumber(1, Number.MAX_SAFE_INTEGER), 'Failed attempts per outage before giving up.'),
})

/** A tool glob: bounded length and alternatives (`config/glob.ts`), so matching it costs linear time. */
const ToolGlob = z.string().check(
  z.minLength(1),
  z.superRefine((g: string, ctx) => {
    const problem = globProblem(g)
    if (problem) ctx.addIssue({ code: 'custom', message: `this glob ${problem}` })
  }),
)

export const ToolFilterSchema = z.strictObject({
  include: opt(z.array(ToolGlob), 'Globs on raw tool names to keep (default: all).'),
  exclude: opt(z.array(ToolGlob), 'Globs on raw tool names to hide; exclude wins over include.'),
})

/** OAuth for a remote server (newer host clients): the client runs the flow and keeps the grant in the host's credential store. */
export const OAuthSchema = z.strictObject({
  redirectUrl: opt(NonEmpty(), 'Where the authorization server sends the code back.'),
  clientName: opt(NonEmpty(), 'Client name shown by the authorization server.'),
  credentialPrefix: opt(NonEmpty(), 'Prefix of the host credentials that hold the grant.'),
})

/** Each value type of the field table (fields.ts) as zod. */
const VALUE_TYPES = {
  nonempty: () => NonEmpty(),
  string: () => z.string(),
  'text-list': () => z.array(Text),
  'text-map': () => z.record(z.string(), Text),
  boolean: () => z.boolean(),
  millis: () => WholeNumber(1, MAX_TIMER_DELAY_MS),
  millis0: () => WholeNumber(0, MAX_TIMER_DELAY_MS),
  count: () => WholeNumber(1, Number.MAX_SAFE_INTEGER),
  lifecycle: () => z.enum(LIFECYCLES),
  reconnect: () => ReconnectSchema,
  oauth: () => OAuthSchema,
  tools: () => ToolFilterSchema,
  'always-load': () => z.union([z.boolean(), z.array(ToolGlob).check(z.minLength(1))]),
} as const satisfies Record<ValueType, () => z.core.SomeType>

type EntryShape = {
  [K in FieldName]: z.ZodMiniOptional<ReturnType<(typeof VALUE_TYPES)[(typeof FIELDS)[K]['type']]>>
}

/** One server entry as written in any layer file (unexpanded, unvalidated cross-field rules): the field table's fields, in its order. */
export const EntrySchema = z.object(
  Object.fromEntries(FIELD_NAMES.map((n) => [n, opt(VALUE_TYPES[FIELDS[n].type](), FIELDS[n].docs)])) as EntryShape,
)

export type Entry = z.output<typeof EntrySchema>

/** Every key an entry may carry, for unknown-key warnings. */
export const ENTRY_KEYS: readonly string[] = FIELD_NAMES

/** Keys that may expand `${VAR}`. */
export const EXPANDABLE_KEYS = fieldsWhere((f) => f.expand === true) as readonly (
  | 'command'
  | 'args'
  | 'env'
  | 'cwd'
  | 'url'
  | 'headers'
)[]

/** The friendly file document: `.dsh/mcp.yml`, `.dsh/mcp.local.yml`, `$DSH_HOME/mcp.yml`. */
export const FriendlyFileSchema = z
  .object({
    $schema: opt(z.string(), 'JSON Schema of this file, for editors.'),
    servers: z
      .record(z.string().check(z.regex(SERVER_NAME_PATTERN)), EntrySchema)
      .check(z.describe(`MCP servers by name (${SERVER_NAME_SHAPE}).`)),
    secrets: z.optional(SecretsMapSchema),
    trustedSigners: opt(z.record(z.string(), z.string()), USER_ONLY_ROOT_FIELDS.trustedSigners.docs),
    inherit: opt(z.boolean(), FILE_KEYS.inherit.docs),
    disable: opt(z.array(z.string().check(z.regex(SERVER_NAME_PATTERN))), FILE_KEYS.disable.docs),
  })
  .check(z.describe('dsh-project-mcp server configuration (.dsh/mcp.yml)'))

/** Top-level keys of each document format. */
export const FRIENDLY_ROOT_KEYS = ['servers', 'secrets', 'trustedSigners', 'inherit', 'disable', '$schema'] as const
export const MCP_SERVERS_ROOT_KEYS = ['mcpServers', '$schema'] as const

/** The transport an entry resolves to, in the official client's spelling. */
export type Transport = 'stdio' | 'streamable-http' | 'sse'
