/**
 * First turn: an agent's first step waits for its project's pending mounts.
 *
 * Contract (docs/guide/visibility.md, "The first turn"): the first prompt assembly of a tracked
 * agent waits — bounded by `waitMs`, and by the step's abort signal — until
 * `pending(agent)` settles, then assembles again so the very first request
 * offers the tools that arrived meanwhile. On rc.8 the tools a step offers
 * are collected in `system-prompt/assemble`, *before* `agent/pre-step`
 * (docs/adaptation/dsh-0.1.0-rc.8.md), so that is the waterfall held here.
 * Nothing pending: no wait. Later assemblies never wait. A failing wait or
 * re-assembly falls back to the original assembly; nothing throws.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type { Log } from './log.ts'

export interface FirstStepOptions {
  waitMs: number
  /** Agents whose first assembly has not happened yet. */
  isFirst(agent: Agent): boolean
  markDone(agent: Agent): void
  /** What the agent's project is still waiting for, or undefined when nothing is pending. */
  pending(agent: Agent): Promise<void> | undefined
  log: Log
}

export function holdFirstStep(ctx: Context, opts: FirstStepOptions): void {
  const reassembly = new WeakSet<object>()
  ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
    const agent = (context as { agent?: Agent }).agent
    if (!agent || reassembly.has(context) || !opts.isFirst(agent)) return next()
    opts.markDone(agent)
    let pending: Promise<void> | undefined
    try {
      pending = opts.pending(agent)
    } catch {
      pending = undefined
    }
    if (!pending) return next()
    const started = Date.now()
    let timer: NodeJS.Timeout | undefined
    const signal = (context as { signal?: AbortSignal }).signal
    const outcome = await Promise.race([
      pending.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), opts.waitMs)
        timer.unref?.()
      }),
      new Promise<'aborted'>((resolve) => {
        if (signal?.aborted) resolve('aborted')
        signal?.addEventListener('abort', () => resolve('aborted'), { once: true })
      }),
    ])
    clearTimeout(timer)
    if (outcome === 'timeout')
      opts.log.warn(
        'agent %s: first step went ahead after %d ms; some servers are still mounting',
        agent.id,
        opts.waitMs,
      )
    else opts.log.debug('agent %s: first step waited %d ms for mounts', agent.id, Date.now() - started)
    if (outcome === 'aborted') return next()
    const systemPrompt = ctx.get('systemPrompt')
    if (!systemPrompt) return next()
    const again = { ...context }
    reassembly.add(again)
    try {
      return await systemPrompt.assemble(again)
    } catch (error) {
      opts.log.debug('agent %s: re-assembly failed, using the first one: %s', agent.id, String(error))
      return next()
    }
  })
}
