/**
 * The plugin's log: `ctx.logger('dsh-project-mcp')`, plus "once per distinct
 * message" for problems that would otherwise repeat on every reconcile.
 *
 * Contract: callers never pass env or header values (messages are built from
 * names, files and redacted errors). `once(key, …)` logs when the message
 * for `key` differs from the last one logged for it; `forget(key)` re-arms it.
 * Every string logged passes `terminalSafe` (config-file strings cannot
 * forge or hide log lines with escape sequences).
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import { terminalSafe } from '../config/terminal-safe.ts'

type Method = (format: string, ...args: unknown[]) => void

export interface Log {
  info: Method
  warn: Method
  error: Method
  debug: Method
  once(key: string, level: 'info' | 'warn' | 'error', message: string): void
  forget(prefix: string): void
}

export function createLog(ctx: Context): Log {
  const logger = ctx.logger('dsh-project-mcp')
  const last = new Map<string, string>()
  const safe = (a: unknown[]) => a.map((x) => (typeof x === 'string' ? terminalSafe(x) : x))
  return {
    info: (f, ...a) => logger.info(terminalSafe(f), ...safe(a)),
    warn: (f, ...a) => logger.warn(terminalSafe(f), ...safe(a)),
    error: (f, ...a) => logger.error(terminalSafe(f), ...safe(a)),
    debug: (f, ...a) => logger.debug(terminalSafe(f), ...safe(a)),
    once(key, level, message) {
      if (last.get(key) === message) return
      last.set(key, message)
      logger[level]('%s', terminalSafe(message))
    },
    forget(prefix) {
      for (const k of [...last.keys()]) if (k.startsWith(prefix)) last.delete(k)
    },
  }
}
