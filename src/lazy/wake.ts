/**
 * First call: a call to a stopped lazy server starts it and goes through.
 *
 * Contract: one `tools/execute` wrapper. A call whose name belongs to a lazy
 * server counts as a use (idle timers restart when it ends, and never fire
 * while it runs). When that server is live the call passes untouched. When
 * it is dormant, waking or releasing and the caller may see the tool (a
 * dormant tool: the registry's own per-agent view; otherwise the caller's
 * plan view and filters, `mayCall`), the wrapper awaits the server's one
 * shared wake — so a call arriving while the name is briefly absent (the
 * mount itself) waits instead of failing — and then for the visibility to
 * settle (`settled`: the woken server's tools, registered as one burst, are
 * seen by no agent until the burst's freeze ends and the caller's deny set
 * is derived; host/visibility.ts), then dispatches the *same*
 * execution (arguments, abort signal, call id: the pipeline runs once, no
 * second approval or result event); dispatch resolves the real tool by then.
 * A caller that may not see the tool is passed on untouched and gets the
 * registry's `unknown tool`, without anything being started for it. A
 * failure of such a forwarded call carries its delivery class (delivery.ts)
 * in the text the model sees: the server could not start, or the call was
 * cancelled while it started, is `not_sent`. Its text is redacted with the
 * server's secret values (config/redact.ts, derived forms included) like
 * every other channel. Nothing throws.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { redact } from '../config/redact.ts'
import { classifyFailure, type Delivery, deliveryText } from './delivery.ts'
import type { LazyServer, LazyServers, WakeOutcome } from './servers.ts'

export interface WakeCallsDeps {
  servers: LazyServers
  /** Whether `agent` may call `name` of the server `key` by its plan (used while no tool of that name is registered). */
  mayCall(agent: Agent | undefined, key: string, server: string, name: string): boolean
  /** Resolves once every agent's view of the registry is derived (no burst freeze held, no pass pending). */
  settled?(): Promise<void>
}

/** The failure the model sees, redacted like every other channel (the server's secret values and their derived forms). */
function failure(
  delivery: Delivery,
  message: string,
  secrets: readonly string[],
  prior?: ToolExecutionResult,
): ToolExecutionResult {
  const text = redact(deliveryText(delivery, message), secrets)
  return {
    ...(prior ?? {}),
    isError: true,
    content: [{ type: 'text', text: `Error: ${text}` }],
    error: { message: text, info: { name: 'LazyServerError', code: delivery } },
  } as ToolExecutionResult
}

/** `outcome`, or not-sent once `signal` aborts first. */
function untilAborted(outcome: Promise<WakeOutcome>, signal: AbortSignal | undefined): Promise<WakeOutcome> {
  if (!signal) return outcome
  const aborted: WakeOutcome = { ok: false, reason: 'the call was cancelled while the server was starting' }
  if (signal.aborted) return Promise.resolve(aborted)
  return new Promise((resolve) => {
    const onAbort = () => resolve(aborted)
    signal.addEventListener('abort', onAbort, { once: true })
    void outcome.then((o) => {
      signal.removeEventListener('abort', onAbort)
      resolve(o)
    })
  })
}

export function wakeOnCall(ctx: Context, deps: WakeCallsDeps): void {
  const { servers } = deps
  const visible = (s: LazyServer, name: string, agent: Agent | undefined) =>
    s.state === 'dormant' ? ctx.tools.get(name, agent) !== undefined : deps.mayCall(agent, s.key, s.name, name)

  ctx.on('tools/execute', async (exec, next) => {
    const s = servers.serverOf(exec.name)
    if (!s) return next()
    servers.begin(s)
    try {
      if (s.state === 'live' || !visible(s, exec.name, exec.agent)) return await next()
      const outcome = await untilAborted(servers.wake(s), exec.signal)
      if (!outcome.ok)
        return failure('not_sent', `server "${s.spec.name}" did not start: ${outcome.reason}`, s.spec.secrets)
      // The registry and the execution guard decide on the settled view: never on a freeze that predates the wake.
      await deps.settled?.()
      const result = await next()
      if (!result.isError) return result
      const code = (result.error as { info?: { code?: unknown } } | undefined)?.info?.code
      return failure(
        classifyFailure(result.error.message, typeof code === 'string' ? code : undefined),
        result.error.message,
        s.spec.secrets,
        result,
      )
    } finally {
      servers.end(s)
    }
  })
}
