/**
 * The official client's words about a connection, read as a typed cause (plan/states.ts `Cause`).
 *
 * Contract: pure. `clientCause(text)` recognises the reconnect lines the host's `dsh-mcp-client` (rc.8) logs for a
 * fork — "connection failed; retrying in 30000ms (attempt 7/10)", "connection lost; reconnecting in …", "giving up
 * after 10 consecutive failed reconnect attempts — …; reload the plugin or restart the Host …" — and returns their
 * cause (attempt, bound, delay; or the attempts given up after), or undefined for any other text. The client's
 * advice to reload the plugin is dropped: the file is watched, an edit reconnects. `plainClientLine` is that line
 * as every log exporter shows it (host/client-log.ts rewrites the record).
 *
 * @module
 */
import { type Cause, causeText } from './states.ts'

const RETRY = /(connection failed; retrying|connection lost; reconnecting) in (\d+)ms \(attempt (\d+)\/(\d+)\)/
const GAVE_UP = /giving up after (\d+) consecutive failed reconnect attempts/

/** The client's line with its retry words replaced by the plain cause (its label kept), or undefined for another line. */
export function plainClientLine(text: string): string | undefined {
  const cause = clientCause(text)
  if (!cause) return undefined
  const at = (cause.kind === 'gave-up' ? GAVE_UP : RETRY).exec(text)!.index
  return `${text.slice(0, at)}${causeText(cause)}`
}

export function clientCause(text: string): Cause | undefined {
  const r = RETRY.exec(text)
  if (r)
    return {
      kind: 'retrying',
      lost: r[1]!.startsWith('connection lost'),
      delayMs: Number(r[2]),
      attempt: Number(r[3]),
      max: Number(r[4]),
    }
  const g = GAVE_UP.exec(text)
  if (g) return { kind: 'gave-up', attempts: Number(g[1]) }
  return undefined
}
