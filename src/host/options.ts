/**
 * The plugin's options (docs/guide/lifecycle.md): one zod schema holds every default.
 *
 * Contract: every option is optional; `undefined` or `{}` yields the defaults.
 * Cordis validates plugin config through Standard Schema (`Config['~standard']`),
 * and Schemastery-era tooling may call `Config(value)`: {@link Config} serves
 * both, backed by the same schema, so there is exactly one place a default
 * lives. Unknown keys are rejected, so a misspelt option fails loudly at boot.
 *
 * @module
 */
import * as z from 'zod'
import { DEFAULT_TOOL_BUDGET } from '../budget/defaults.ts'
import { LIFECYCLES } from '../config/schema.ts'

export { DEFAULT_TOOL_BUDGET }

const Millis = z.number().int().min(0).max(2_147_483_647)

export const OptionsSchema = z
  .object({
    dshHome: z
      .string()
      .min(1)
      .optional()
      .describe('Where the user layer, trust store and status files live (default: $DSH_HOME, else ~/.dsh).'),
    cwd: z.string().min(1).optional().describe("The host's own working directory (default: process.cwd())."),
    watch: z.boolean().default(true).describe('Watch config files and apply edits live.'),
    debounceMs: Millis.default(100).describe('Quiet time after a file event before reconciling.'),
    graceMs: Millis.default(300_000).describe(
      "How long a project's servers stay mounted after its last agent is gone.",
    ),
    legacyMcpJson: z.boolean().default(true).describe('Also read the Claude Code file <root>/.mcp.json.'),
    userLayer: z.boolean().default(true).describe('Mount the servers of $DSH_HOME/mcp.yml for every project.'),
    trust: z
      .enum(['require', 'all'])
      .default('require')
      .describe('"require": project servers mount only once trusted; "all": no trust gate.'),
    requireLock: z
      .boolean()
      .default(false)
      .describe(
        'A repository server that runs a registry package (npx, npm exec, …) without an entry in .dsh/mcp.lock does not run (docs/guide/lock.md).',
      ),
    mountTimeoutMs: Millis.min(1).default(30_000).describe('Bound on initialize + tools/list for one server.'),
    firstStepWaitMs: Millis.default(10_000).describe(
      "Bound on how long an agent's first step waits for its project's mounts.",
    ),
    defaultLifecycle: z
      .enum(LIFECYCLES)
      .default('eager')
      .describe(
        'Lifecycle of a server whose entry names none: "eager" (start with the project) or "lazy" (start on first call).',
      ),
    idleTimeoutMs: Millis.default(600_000).describe(
      'How long a lazy server runs without a call before it is stopped (0: never); an entry may set its own.',
    ),
    toolBudget: z
      .number()
      .int()
      .min(0)
      .max(10_000_000)
      .default(DEFAULT_TOOL_BUDGET)
      .describe(
        'Schema tokens of MCP tools an agent is offered up front (0: off); above it the rest wait behind mcp_tool_search (docs/guide/context.md).',
      ),
  })
  .strict()

export type Options = z.output<typeof OptionsSchema>
export type OptionsInput = z.input<typeof OptionsSchema>

/** Standard Schema v1 result (structurally what cordis reads). */
type StandardResult =
  | { value: Options; issues?: undefined }
  | { issues: readonly { message: string; path?: readonly PropertyKey[] }[] }

export interface ConfigSchema {
  (input?: OptionsInput): Options
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    validate(input: unknown): StandardResult
    readonly types?: { readonly input: OptionsInput | undefined; readonly output: Options }
  }
  readonly schema: typeof OptionsSchema
}

function validate(input: unknown): StandardResult {
  const r = OptionsSchema.safeParse(input ?? {})
  if (r.success) return { value: r.data }
  return { issues: r.error.issues.map((i) => ({ message: i.message, path: i.path })) }
}

/** The plugin `Config`: callable (throws on invalid input) and a Standard Schema. */
export const Config: ConfigSchema = Object.assign(
  (input?: OptionsInput): Options => {
    const r = validate(input)
    if (r.issues)
      throw new TypeError(
        `dsh-project-mcp: invalid config: ${r.issues.map((i) => `${i.path?.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      )
    return r.value
  },
  { '~standard': { version: 1 as const, vendor: 'dsh-project-mcp', validate }, schema: OptionsSchema },
)
