/**
 * The friendly format: one zod schema for a server entry, shared by the
 * runtime, the CLI and the generated JSON Schema.
 *
 * Contract: the schema describes exactly what a user may write. It carries no
 * defaults — a field the user did not write stays absent, so the official
 * client keeps owning its own defaults. Scalars a YAML author naturally writes
 * unquoted (`PORT: 3000`, `args: [--port, 8080]`) are accepted as strings.
 *
 * @module
 */
import * as z from 'zod'
import { globProblem } from './glob.ts'
import { SERVER_NAME_PATTERN, SERVER_NAME_SHAPE } from './server-name.ts'

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
const Text = z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v))

const StringMap = z.record(z.string(), Text)

const Millis = z.number().int().min(1).max(MAX_TIMER_DELAY_MS)

export const ReconnectSchema = z
  .object({
    enabled: z.boolean().optional().describe('Reconnect automatically after a lost connection.'),
    initialDelayMs: Millis.optional().describe('First reconnect delay in ms; doubles per failed attempt.'),
    maxDelayMs: Millis.optional().describe('Backoff ceiling in ms.'),
    maxAttempts: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().describe('Failed attempts per outage before giving up.'),
  })
  .strict()

/** A tool glob: bounded length and alternatives (`config/glob.ts`), so matching it costs linear time. */
const ToolGlob = z
  .string()
  .min(1)
  .superRefine((g, ctx) => {
    const problem = globProblem(g)
    if (problem) ctx.addIssue({ code: 'custom', message: `this glob ${problem}` })
  })

export const ToolFilterSchema = z
  .object({
    include: z.array(ToolGlob).optional().describe('Globs on raw tool names to keep (default: all).'),
    exclude: z.array(ToolGlob).optional().describe('Globs on raw tool names to hide; exclude wins over include.'),
  })
  .strict()

/** OAuth for a remote server (newer host clients): the client runs the flow and keeps the grant in the host's credential store. */
export const OAuthSchema = z
  .object({
    redirectUrl: z.string().min(1).optional().describe('Where the authorization server sends the code back.'),
    clientName: z.string().min(1).optional().describe('Client name shown by the authorization server.'),
    credentialPrefix: z.string().min(1).optional().describe('Prefix of the host credentials that hold the grant.'),
  })
  .strict()

/** One server entry as written in any layer file (unexpanded, unvalidated cross-field rules). */
export const EntrySchema = z.object({
  command: z.string().min(1).optional().describe('Executable to start (stdio transport).'),
  args: z.array(Text).optional().describe('Arguments, passed without a shell.'),
  env: StringMap.optional().describe('Environment variables for the server process.'),
  cwd: z.string().optional().describe('Working directory, relative to the project root (default: the project root).'),
  url: z.string().min(1).optional().describe('MCP endpoint (streamable-http transport).'),
  headers: StringMap.optional().describe('HTTP headers sent with every request.'),
  transport: z.string().optional().describe('stdio | http | streamable-http | sse (sse needs a host dsh-mcp-client that has it); inferred from command/url when absent.'),
  type: z.string().optional().describe('Alias of transport (Claude Code spelling).'),
  toolCallTimeoutMs: Millis.optional().describe('Timeout of one tool call in ms.'),
  failOnStartupError: z.boolean().optional().describe('Fail the mount when the first connection fails.'),
  maxInstructionBytes: z
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Largest server instructions (UTF-8 bytes) the client accepts; needs a host dsh-mcp-client that has it (0.1.6-alpha.2 and later).'),
  reconnect: ReconnectSchema.optional(),
  oauth: OAuthSchema.optional().describe('OAuth for an http server; needs a host dsh-mcp-client that has it.'),
  tools: ToolFilterSchema.optional(),
  description: z.string().optional().describe('What this server is for (shown by dsh-mcp list).'),
  lifecycle: z.enum(LIFECYCLES).optional().describe('eager: start with the project; lazy: start on the first tool call (tools offered from the cache meanwhile).'),
  idleTimeoutMs: z.number().int().min(0).max(MAX_TIMER_DELAY_MS).optional().describe('lazy: stop the server after this long without a call (0: never).'),
  enabled: z.boolean().optional().describe('false keeps the entry but does not mount it.'),
})

export type Entry = z.output<typeof EntrySchema>

/** Every key an entry may carry, for unknown-key warnings. */
export const ENTRY_KEYS: readonly string[] = Object.keys(EntrySchema.shape)

/** Keys that may expand `${VAR}`. */
export const EXPANDABLE_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers'] as const

/** The friendly file document: `.dsh/mcp.yml`, `.dsh/mcp.local.yml`, `$DSH_HOME/mcp.yml`. */
export const FriendlyFileSchema = z
  .object({
    $schema: z.string().optional().describe('JSON Schema of this file, for editors.'),
    servers: z.record(z.string().regex(SERVER_NAME_PATTERN), EntrySchema).describe(`MCP servers by name (${SERVER_NAME_SHAPE}).`),
  })
  .describe('dsh-project-mcp server configuration (.dsh/mcp.yml)')

/** Top-level keys of each document format. */
export const FRIENDLY_ROOT_KEYS = ['servers', '$schema'] as const
export const MCP_SERVERS_ROOT_KEYS = ['mcpServers', '$schema'] as const

/** The transport an entry resolves to, in the official client's spelling. */
export type Transport = 'stdio' | 'streamable-http' | 'sse'
