/**
 * Starting one official client fork and following it until it settles.
 *
 * Contract: `startFork(ctx, config, bound, hooks)` validates the config
 * against the official client's `Config` and refuses a field or transport
 * the host's Config does not have (client-shape.ts; never dropped in
 * silence) — a refusal calls `hooks.fail` synchronously and starts nothing —
 * then forks `ctx.plugin(mcpClient, config)`, hands the fork to
 * `hooks.started` (the caller records it before anything else can happen)
 * and returns. The fork's outcome arrives once, through `hooks.outcome`:
 * `mounted` when it activates, `timeout` when it does not within `bound` ms
 * (a still-activating stdio fork then has its server ended, reap.ts, so its
 * activation and dispose can settle — unless `hooks.outcome` answers that
 * the mount was forgotten meanwhile), or `rejected` with the error text
 * (`taken` names a serverName another mcp-client holds). Nothing throws.
 *
 * @module
 */
import type { Context, Fiber } from '@deepseek-ai/cordis'
import * as mcpClient from '@deepseek-ai/dsh-mcp-client'
import { gapMessage, hostGaps } from '../config/official.ts'
import type { OfficialConfig } from '../config/official.ts'
import { hostClientShape } from './client-shape.ts'
import { reapStdioChild } from './reap.ts'

export type ForkOutcome =
  | { kind: 'mounted' }
  | { kind: 'timeout' }
  | { kind: 'rejected'; error: string; taken?: string }

export interface ForkHooks {
  fail(error: string): void
  started(fiber: Fiber): void
  /** The fork settled; false: the mount was forgotten meanwhile (nothing more is done for it). */
  outcome(outcome: ForkOutcome): boolean
}

export function startFork(ctx: Context, config: OfficialConfig, bound: number, hooks: ForkHooks): void {
  const checked = mcpClient.Config['~standard'].validate(config)
  if ('then' in checked || checked.issues) {
    const issues = 'then' in checked ? [{ message: 'async validation' }] : (checked.issues ?? [])
    hooks.fail(`the official client rejected the config: ${issues.map((i) => i.message).join('; ')}`)
    return
  }
  const host = hostClientShape()
  const gaps = host ? hostGaps(config, host) : []
  if (host && gaps.length > 0) {
    hooks.fail(gapMessage(gaps, host))
    return
  }
  let fiber: Fiber
  try {
    fiber = ctx.plugin(mcpClient, config as mcpClient.Config)
  } catch (error) {
    hooks.fail(errorText(error))
    return
  }
  hooks.started(fiber)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), bound)
    timer.unref?.()
  })
  const activated = Promise.resolve(fiber).then(
    () => 'ok' as const,
    (error: unknown) => ({ error }),
  )
  void Promise.race([activated, timeout]).then((outcome) => {
    clearTimeout(timer)
    if (outcome === 'ok') hooks.outcome({ kind: 'mounted' })
    else if (outcome === 'timeout') {
      if (!hooks.outcome({ kind: 'timeout' })) return
      // A still-activating fork cannot be disposed: end its server so activation (and the dispose) settle.
      if (config.transport === 'stdio') reapStdioChild(config)
    } else {
      const text = errorText(outcome.error)
      const taken = /serverName "([^"]+)" is already in use/.exec(text)?.[1]
      hooks.outcome({ kind: 'rejected', error: text, ...(taken === undefined ? {} : { taken }) })
    }
  })
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
