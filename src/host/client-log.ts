/**
 * The official client's log records, redacted before anyone sees them.
 *
 * `@deepseek-ai/dsh-mcp-client` logs connection trouble through `ctx.logger`
 * as it came: an HTTP error body (which a server or proxy may fill with the
 * request it got — the `Authorization` header, the `?token=` URL), a spawn
 * error. Cordis hands one record to every exporter in registration order,
 * and every exporter gets the same `args` array.
 *
 * Contract: `watchClientLogs(ctx, secretsByFiber, onRecord)` registers one
 * exporter (at every level) and moves it to the front of the logger's
 * exporters, so it runs before the host's terminal, its log file and the
 * logger's own buffer — also before exporters registered earlier. For a
 * record whose fiber is one of our client forks or runs inside one
 * (`secretsByFiber` holds that server's secret values, keyed by the fork's
 * Fiber object — not its uid, which cordis sets to `null` the moment a
 * dispose starts, while a still-activating fork goes on logging its HTTP
 * error bodies until activation settles), it rewrites `args` in place
 * with the one redaction (config/redact.ts: the server's secret values, then URL
 * userinfo and query values, secret flags, `Bearer`/`Basic` credentials) and
 * then `terminalSafe` (config/terminal-safe.ts: a server's ESC, BEL, CR, C1
 * and bidi controls as visible escapes): strings rewritten, an Error whose
 * message, stack, cause or own properties (an McpError's `data`) needed it
 * replaced by one of the same name with the rewritten message and stack, its
 * `code` and the rewritten inspection of the rest as `data`; any other
 * object by its rewritten inspection when that differs or when a string in
 * it holds a control character. Every later exporter formats rewritten
 * arguments. It then
 * rewrites the client's reconnect lines ("connection failed; retrying in
 * 30000ms (attempt 7/10)", "giving up … reload the plugin or restart the
 * Host") into the plain cause (plan/cause.ts), and calls
 * `onRecord(uid, message, text)` with the redacted text as the client wrote it (attribution:
 * mounts.ts; not called once the fork's dispose began). Records of other fibers are left untouched. Never throws.
 *
 * @module
 */
import { inspect } from 'node:util'
import type { Context } from '@deepseek-ai/cordis'
import { redact } from '../config/redact.ts'
import { terminalSafe } from '../config/terminal-safe.ts'
import { plainClientLine } from '../plan/cause.ts'

export interface ClientRecord {
  type: string
  args: unknown[]
}

type Exporter = Parameters<Context['logger']['exporter']>[0]
type Message = Parameters<Exporter['export']>[0]

const clean = (text: string, secrets: readonly string[]) => terminalSafe(redact(text, secrets))

/** Whether a string in `v` (to depth 4) shows differently on a terminal. */
function hasControls(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return terminalSafe(v) !== v
  if (v === null || typeof v !== 'object' || depth > 4) return false
  for (const k of Object.keys(v)) if (hasControls((v as Record<string, unknown>)[k], depth + 1)) return true
  return false
}

function redactArg(arg: unknown, secrets: readonly string[]): unknown {
  if (typeof arg === 'string') return clean(arg, secrets)
  if (arg instanceof Error) {
    const message = clean(arg.message, secrets)
    const stack = arg.stack === undefined ? undefined : clean(arg.stack, secrets)
    const cause = arg.cause === undefined ? undefined : redactArg(arg.cause, secrets)
    const own = Object.fromEntries(Object.entries(arg).filter(([k]) => k !== 'code' && k !== 'cause'))
    const ownShown = Object.keys(own).length
      ? inspect(own, { depth: 4, breakLength: Number.POSITIVE_INFINITY })
      : undefined
    const ownClean = ownShown === undefined ? undefined : clean(ownShown, secrets)
    if (message === arg.message && stack === arg.stack && cause === arg.cause && ownClean === ownShown) return arg
    const copy = new Error(message, cause === undefined ? undefined : { cause }) as Error & {
      code?: unknown
      data?: unknown
    }
    copy.name = arg.name
    if (stack !== undefined) copy.stack = stack
    const code = (arg as { code?: unknown }).code
    if (typeof code === 'number' || typeof code === 'string')
      copy.code = typeof code === 'string' ? clean(code, secrets) : code
    if (ownClean !== undefined) copy.data = ownClean
    return copy
  }
  if (arg !== null && typeof arg === 'object') {
    const shown = inspect(arg, { depth: 4, breakLength: Number.POSITIVE_INFINITY })
    const out = clean(shown, secrets)
    return out === shown && !hasControls(arg) ? arg : out
  }
  return arg
}

/** Move `exporter` to the front of the logger's exporter map (ids kept, so every disposer still works). */
function putFirst(ctx: Context, exporter: Exporter): void {
  const map = (ctx.logger as unknown as { exporters?: unknown }).exporters
  if (!(map instanceof Map)) return
  const entries = [...(map as Map<unknown, unknown>)]
  const mine = entries.find(([, e]) => e === exporter)
  if (!mine || entries[0] === mine) return
  map.clear()
  map.set(mine[0], mine[1])
  for (const [id, e] of entries) if (e !== exporter) map.set(id, e)
}

interface FiberLike {
  uid?: number | null
  parent?: { fiber?: unknown } | undefined
}

/** The fork `fiber` is or runs inside (its nearest ancestor with secrets), with those secrets. */
function forkOf(
  fiber: FiberLike | undefined,
  secretsByFiber: WeakMap<object, readonly string[]>,
): { fiber: FiberLike; secrets: readonly string[] } | undefined {
  for (let f = fiber, depth = 0; f && depth < 64; f = f.parent?.fiber as FiberLike | undefined, depth++) {
    const secrets = secretsByFiber.get(f)
    if (secrets) return { fiber: f, secrets }
  }
  return undefined
}

export function watchClientLogs(
  ctx: Context,
  secretsByFiber: WeakMap<object, readonly string[]>,
  onRecord: (uid: number, message: ClientRecord, text: string) => void,
): void {
  const exporter: Exporter = {
    levels: { default: 3 },
    export(message: Message) {
      try {
        const fork = forkOf(message.fiber?.deref() as FiberLike | undefined, secretsByFiber)
        if (!fork) return
        for (let i = 0; i < message.args.length; i++) message.args[i] = redactArg(message.args[i], fork.secrets)
        const text = message.args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')
        // The client's retry lines, as every later exporter shows them: the plain cause (plan/cause.ts), bounded.
        const plain = message.args.length === 1 ? plainClientLine(text) : undefined
        if (plain !== undefined) message.args[0] = plain
        const uid = fork.fiber.uid
        if (typeof uid !== 'number') return
        onRecord(uid, message, text)
      } catch {}
    },
  }
  ctx.logger.exporter(exporter)
  putFirst(ctx, exporter)
}
