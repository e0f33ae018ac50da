/**
 * Delivery classes: how far a call forwarded to a starting server got.
 *
 * Contract: pure. `not_sent` — the server could not start, or the call never
 * left (the tool is not offered, it was cancelled before dispatch, the
 * client was not connected): safe to retry once the cause is fixed.
 * `server_error` — the server answered, with an error (an MCP error result
 * or a JSON-RPC error). `may_have_run` — the request was sent and no answer
 * came (timeout, lost connection, cancelled in flight): do not retry blindly.
 * `deliveryText` puts the class first in the text the model reads.
 *
 * @module
 */

export type Delivery = 'not_sent' | 'server_error' | 'may_have_run'

const ADVICE: Record<Delivery, string> = {
  not_sent: 'the call never reached the server; safe to retry after fixing the cause',
  server_error: 'the server received the call and answered with an error',
  may_have_run: 'the call was sent but no answer came; it may have run, do not retry blindly',
}

/** The class of a failed call's error (`code`: the tool runtime's error code, when it gave one). */
export function classifyFailure(message: string, code?: string): Delivery {
  if (code === 'UNKNOWN_TOOL' || code === 'ABORTED_BEFORE_DISPATCH') return 'not_sent'
  if (/\bNot connected\b|ECONNREFUSED|fetch failed/i.test(message)) return 'not_sent'
  if (/MCP error -3200[01]\b|Connection closed|timed out|\babort/i.test(message) || code === 'ABORTED')
    return 'may_have_run'
  return 'server_error'
}

/** `"<class>: <message> (<advice>)"`. */
export function deliveryText(delivery: Delivery, message: string): string {
  return `${delivery}: ${message} (${ADVICE[delivery]})`
}
