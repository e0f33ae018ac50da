/**
 * What a call to one of our eager MCP tools returns to the model, redacted
 * with that server's secrets (the lazy first-call wake redacts its own in
 * `src/lazy/wake.ts`; a live server is redacted here too).
 *
 * Contract: `redactResults(ctx, mounts)` registers, on the host's fiber,
 * - a `tools/post-execute` waterfall listener: for a tool a mount owns
 *   (`ownership(mounts.owners())`, as `lost-session.ts` reads it), the
 *   decision the rest of the chain returns gets its content — every text
 *   item, every string of a resource item — passed through `redact` with the
 *   mount's `spec.secrets` (its values and derived forms: Basic base64,
 *   percent-encoded); a `block` decision's feedback likewise. A failed
 *   result (`isError`) passes post-execute too (rc.8: a result the tool body
 *   returns), so its content is redacted here.
 * - a `tools/execute` waterfall listener, because a tool body that throws
 *   skips post-execute (rc.8 `dispatchScheduledExecution` makes it a final
 *   result): a thrown error is re-thrown with its message redacted, and a
 *   failed result's `error.message` is redacted (post-execute can replace
 *   content only).
 * Tools not ours pass unchanged; nothing here throws of its own.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import { redact, redactJson } from '../config/redact.ts'
import { ownership } from '../plan/visibility.ts'
import type { MountTable } from './mounts.ts'

type Item = Record<string, unknown>

/** The secrets of the mount that owns `name`, or undefined when the tool is not ours. */
function secretsOf(mounts: MountTable, name: unknown): readonly string[] | undefined {
  if (typeof name !== 'string' || !name.startsWith('mcp__')) return undefined
  const own = ownership(mounts.owners())
  const server = own.index.ownerOf(name)
  const key = server === undefined ? undefined : own.owners.get(server)
  return key ? mounts.mounts.get(key)?.spec.credentials : undefined
}

function redactItem(item: unknown, secrets: readonly string[]): unknown {
  if (item === null || typeof item !== 'object') return typeof item === 'string' ? redact(item, secrets) : item
  const it = item as Item
  if (typeof it.text === 'string') return { ...it, text: redact(it.text, secrets) }
  if (it.type === 'resource' && it.resource && typeof it.resource === 'object')
    return { ...it, resource: redactJson(it.resource, secrets) }
  return it
}

/** Content items with their text redacted. */
export function redactContent(content: unknown, secrets: readonly string[]): unknown {
  return Array.isArray(content) ? content.map((i) => redactItem(i, secrets)) : content
}

export function redactResults(ctx: Context, mounts: MountTable): void {
  const on = ctx.on as unknown as (event: string, listener: (...args: never[]) => unknown) => () => void
  on.call(ctx, 'tools/post-execute', async (exec: { name?: unknown }, result: Item, next: () => Promise<Item>) => {
    const decision = await next()
    const secrets = secretsOf(mounts, exec.name)
    if (!secrets || !decision || typeof decision !== 'object') return decision
    if (decision.kind === 'block') return { ...decision, feedback: redactContent(decision.feedback, secrets) }
    if (decision.kind !== 'accept' || Object.hasOwn(decision, 'value')) return decision
    const content = Object.hasOwn(decision, 'content') ? decision.content : result.content
    return { ...decision, content: redactContent(content, secrets) }
  })
  on.call(ctx, 'tools/execute', async (exec: { name?: unknown }, next: () => Promise<Item>) => {
    const secrets = secretsOf(mounts, exec.name)
    if (!secrets) return next()
    let result: Item
    try {
      result = await next()
    } catch (error) {
      if (!(error instanceof Error)) throw error
      const copy = new Error(redact(error.message, secrets))
      copy.name = error.name
      throw copy
    }
    if (!result?.isError) return result
    const error = result.error as { message?: unknown } | undefined
    return {
      ...result,
      content: redactContent(result.content, secrets),
      ...(error && typeof error.message === 'string'
        ? { error: { ...error, message: redact(error.message, secrets) } }
        : {}),
    }
  })
}
