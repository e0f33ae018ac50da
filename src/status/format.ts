/**
 * The status file's format (docs/guide/status.md "Status"): the one place its
 * version, its states, and its one zod/mini schema (`StatusSchema`), whose
 * input type is the written shape and whose output type is the decoded one.
 * The host's writer (src/host/status.ts) encodes with `encodeStatus`; the
 * CLI's reader (src/doctor/status.ts) decodes with `decodeStatus`.
 *
 * Contract: pure (no file system, no host). `encodeStatus` writes version
 * `STATUS_VERSION` as indented JSON with a trailing newline; the writer only
 * ever hands it names, states, counts and redacted errors. `decodeStatus`
 * never throws: text that is not JSON, not an object, not this version, or
 * written for another root is `{ reason }` (one line). Fields are sanitized
 * one by one by the schema (each falls back on its own: an unknown state reads as `unknown`, missing numbers as 0,
 * strings lose control characters and are bounded), so a hand-edited or
 * half-written file cannot break the CLI or the terminal. `host` is
 * `running` unless the file says `stopped` (an older file without it reads
 * `running`).
 *
 * @module
 */
import type { Scope } from '../config/layers.ts'
import * as z from 'zod/mini'
import { LIFECYCLES, type Lifecycle } from '../config/schema.ts'
import { ROW_DETAILS, type RowDetail, SERVER_STATES, SIGNATURE_STATES, type ServerState } from '../plan/states.ts'
import type { VerdictTag, VerdictView } from '../plan/verdict.ts'
import { isRecord } from '../config/guards.ts'
import { jsonTerminalSafe } from '../config/terminal-safe.ts'

/** The version this build writes and the only one it reads. */
export const STATUS_VERSION = 1

/** Every state a server row can be in, as the host writes it (plan/states.ts, the one vocabulary). */
export const STATUS_STATES = SERVER_STATES
export type { ServerState }

/** A state as read back: a state this build does not know reads `unknown`. */
export type StatusState = ServerState | 'unknown'

/** The verdict tags a row may carry (plan/verdict.ts). */
const VERDICT_TAGS = [
  'runs',
  'needs-trust',
  'skipped',
  'refused',
  'disabled',
  'shadowed',
] as const satisfies readonly VerdictTag[]

/** Control characters blanked, trimmed, bounded to `max` characters. */
function clean(v: string, max: number): string {
  const out = v.replace(/[\u0000-\u001f\u007f\u009b]/g, ' ').trim()
  return out.length > max ? `${out.slice(0, max - 1)}…` : out
}

/** `schema` with its written (input) type narrowed to `In`: the host's writer is typed by it; reading trusts only what `schema` checks. */
const writes = <In, Out>(schema: z.ZodMiniType<Out, unknown>) => schema as unknown as z.ZodMiniType<Out, In>

/** `schema`'s value, or null for anything else. */
const orNull = <Out>(schema: z.ZodMiniType<Out, unknown>) => z.catch(z.nullable(schema), null)

/** A string cleaned and bounded. */
const cleaned = (max: number) =>
  z.pipe(
    z.string(),
    z.transform((v) => clean(v, max)),
  )

/** A string as read back (cleaned, bounded), or null for anything else. */
const text = <In = string | null>(max = 500) => writes<In, string | null>(orNull(cleaned(max)))

/** A non-empty string: a row without one is dropped. */
const key = (max: number) => z.pipe(cleaned(max), z.string().check(z.minLength(1)))

/** An ISO time, or null. */
const iso = <In = string | null>() =>
  writes<In, string | null>(orNull(z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v))))))

/** Variable names as read back: at most 64, each a plain identifier; anything else is dropped. */
const names = z.pipe(
  z.array(z.unknown()),
  z.transform((list) =>
    list.slice(0, 64).flatMap((n) => (typeof n === 'string' && /^[A-Za-z_]\w{0,127}$/.test(n) ? [n] : [])),
  ),
)

/** An optional field: its value when it decodes, else absent. */
const maybe = <Out>(schema: z.ZodMiniType<Out, unknown>) => z.catch(z.optional(schema), undefined)

const VerdictSchema = z.pipe(
  z.object({
    tag: z.enum(VERDICT_TAGS),
    why: text(200),
    reason: text(),
    variables: maybe(names),
    withheld: maybe(names),
    fix: maybe(cleaned(500)),
    file: maybe(cleaned(4096)),
    signature: maybe(
      z.pipe(
        z.object({ state: z.enum(SIGNATURE_STATES), signer: maybe(cleaned(64)) }),
        z.transform((x) => (x.signer === undefined ? { state: x.state } : x)),
      ),
    ),
  }),
  // Absent stays absent: an optional field that did not decode is left out, not written as undefined.
  z.transform(
    (v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as unknown as VerdictView,
  ),
)

const ServerRowSchema = z.object({
  name: key(64),
  effectiveName: text(64),
  layer: text<Scope>(32),
  file: text<string>(4096),
  /** A state this build does not know reads `unknown`. */
  state: writes<ServerState, StatusState>(z.catch(z.enum([...STATUS_STATES, 'unknown']), 'unknown')),
  toolCount: writes<number, number>(
    z.catch(z.number().check(z.int(), z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)), 0),
  ),
  error: text(),
  /** The row's verdict as the host judged it (plan/verdict.ts); null when the file has none. */
  verdict: z.pipe(
    z.optional(writes<VerdictView, StatusVerdict | null>(orNull(VerdictSchema))),
    z.transform((v) => v ?? null),
  ),
  /** When this row last changed. */
  updatedAt: iso<string>(),
  /** `eager` | `lazy` (null: written by a host without lifecycles). */
  lifecycle: writes<Lifecycle, Lifecycle | null>(orNull(z.enum(LIFECYCLES))),
  /** `cache` (a dormant lazy server) | `live` | null. */
  toolSource: orNull(z.enum(['cache', 'live'])),
  lastUsedAt: iso(),
  /** A detail beside the state (plan/states.ts `ROW_DETAILS`); null when none, or one this build does not know. */
  detail: writes<RowDetail | null, RowDetail | null>(orNull(z.enum(ROW_DETAILS))),
})

const FileRowSchema = z.object({
  file: key(4096),
  layer: text<Scope>(32),
  error: writes<string, string>(z.catch(cleaned(500), 'refused')),
  keptLastGood: z.catch(z.boolean(), false),
})

/** A whole number ≥ 0 (0 for anything else). */
const count = () => z.catch(z.number().check(z.int(), z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)), 0)

/** The context budget as the host applied it (src/host/budget.ts): per server its schema tokens, per agent offered vs deferred. */
const BudgetSchema = z.object({
  toolBudget: count(),
  servers: z.catch(z.array(z.object({ name: key(64), tools: count(), tokens: count() })), []),
  agents: z.catch(
    z.array(z.object({ offered: count(), deferred: count(), offeredTokens: count(), totalTokens: count() })),
    [],
  ),
})

/** A list of rows: a row that does not decode is dropped, a list that is not one reads empty. */
const rows = <R extends z.ZodMiniType>(row: R) =>
  writes<readonly z.input<R>[], z.output<R>[]>(
    z.catch(
      z.pipe(
        z.array(z.unknown()),
        z.transform((list) =>
          list.flatMap((x) => {
            const r = row.safeParse(x)
            return r.success ? [r.data as z.output<R>] : []
          }),
        ),
      ),
      [],
    ),
  )

/**
 * The one schema of a status file (after its version and root are checked): the writer's types are its
 * input, the reader's its output. Every field decodes on its own (`catch`), so a hand-edited or
 * half-written file reads as far as it can.
 */
export const StatusSchema = z.object({
  root: z.string(),
  pid: writes<number, number | null>(
    orNull(z.number().check(z.int(), z.positive(), z.maximum(Number.MAX_SAFE_INTEGER))),
  ),
  /** `running` unless the file says `stopped` (an older file without it reads `running`). */
  host: z.catch(z.enum(['running', 'stopped']), 'running'),
  updatedAt: iso<string>(),
  servers: rows(ServerRowSchema),
  files: rows(FileRowSchema),
  /** Absent: written by a host without the context budget (or with it off); a value that does not decode reads absent. */
  budget: z.optional(z.catch(z.optional(BudgetSchema), undefined)),
})

/** A verdict as read back: the host's `VerdictView`, sanitized (absent optional fields stay absent). */
export type StatusVerdict = VerdictView

/** One server row as the host writes it. */
export type WrittenServer = z.input<typeof ServerRowSchema>
/** One refused config file as the host writes it. */
export type WrittenFile = z.input<typeof FileRowSchema>
/** A whole status file as the host writes it. */
export type WrittenStatus = z.input<typeof StatusSchema>
/** One server row as read back (every field sanitized). */
export type StatusServer = z.output<typeof ServerRowSchema>
/** One refused config file as read back. */
export type StatusFile = z.output<typeof FileRowSchema>
/** The context budget part of a status file. */
export type StatusBudget = z.output<typeof BudgetSchema>
/** A whole status file as read back. */
export type ProjectStatus = z.output<typeof StatusSchema>

/** The file's text: JSON with every terminal control (C1, bidi) written as a `\uXXXX` escape, so a server's text cannot act on a terminal that shows the file. */
export function encodeStatus(status: WrittenStatus): string {
  return `${jsonTerminalSafe(JSON.stringify({ version: STATUS_VERSION, ...status }, null, 2))}\n`
}

/** Decode a status file's text for `root` (the canonical root it must name). */
export function decodeStatus(raw: string, root: string): ProjectStatus | { reason: string } {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return { reason: 'is not valid JSON (being written, or damaged)' }
  }
  if (!isRecord(value)) return { reason: 'is not a status object' }
  if (value.version !== STATUS_VERSION)
    return {
      reason: `has version ${JSON.stringify(value.version ?? null)}; this dsh-mcp reads version ${STATUS_VERSION}`,
    }
  if (typeof value.root === 'string' && value.root !== root)
    return { reason: `belongs to another project (${clean(value.root, 4096)})` }
  return StatusSchema.parse({ ...value, root })
}
