/**
 * Turning a failed connection into one line of `error` and one line of
 * `hint`: what broke, and what the user should do.
 *
 * Contract: pure. `explain` receives what the probe observed (the thrown
 * error, how the child ended, whether stdout carried non-JSON-RPC text,
 * whether the deadline passed) and returns the state (`failed` | `timeout`)
 * with the two lines. Messages name the command, directory or URL — the
 * caller passes them display-safe and redacts secret values afterwards; a
 * quoted error message is redacted by `clean` before it is cut — and are at
 * most one line.
 *
 * Recognised causes: command not found (ENOENT), not executable (EACCES),
 * missing working directory, exited with code N / killed by a signal, not an
 * MCP server (garbage on stdout, protocol error), HTTP 401/403 (auth), 404
 * (wrong path), 405 (not a streamable-http endpoint), other HTTP statuses,
 * connection refused / reset, unknown host, TLS, invalid URL, timeout.
 *
 * @module
 */

export type Phase = 'spawn' | 'initialize' | 'tools/list'

export interface Observation {
  transport: 'stdio' | 'streamable-http' | 'sse'
  phase: Phase
  /** What was thrown (undefined for a plain timeout). */
  error?: unknown
  timedOut: boolean
  timeoutMs: number
  /** How the child ended, when it did (stdio). */
  exit?: { code: number | null; signal: string | null }
  /** Lines of stdout that were not JSON-RPC (stdio). */
  stdoutNoise: number
  /** Lines the child wrote to stderr (stdio); unknown when absent. */
  stderrLines?: number
  command?: string
  cwd?: string
  url?: string
  /** Redaction, applied to every quoted message before it is cut to one line. */
  clean?: (text: string) => string
}

export interface Explanation {
  state: 'failed' | 'timeout'
  error: string
  hint: string | null
}

const ONE_LINE_MAX = 300

/** First line of a message, bounded; `clean` (redaction) runs on the whole text BEFORE the cut. */
export function firstLine(text: string, clean?: (text: string) => string): string {
  const first = (clean ? clean(text) : text).split(/\r?\n/).find((l) => l.trim() !== '') ?? ''
  const t = first.trim()
  return t.length > ONE_LINE_MAX ? `${t.slice(0, ONE_LINE_MAX - 1)}…` : t
}

/** The message, with the causes fetch hides behind "fetch failed". */
function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const cause =
    err.cause instanceof Error && err.cause.message && !err.message.includes(err.cause.message)
      ? `: ${err.cause.message}`
      : ''
  return err.message + cause
}

/** Errno-style code of an error or of its `cause` chain (fetch wraps socket errors). */
export function errnoOf(err: unknown): string | undefined {
  let e: unknown = err
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/** The HTTP status of an SDK `StreamableHTTPError` (its numeric `code`), if any. */
function httpStatusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | undefined)?.code
  const msg = err instanceof Error ? err.message : ''
  if (typeof code === 'number' && msg.startsWith('Streamable HTTP error')) return code
  if (err instanceof Error && err.name === 'UnauthorizedError') return 401
  return undefined
}

function isTlsCode(code: string): boolean {
  return /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO)/.test(
    code,
  )
}

const NOISE_HINT =
  'it printed text that is not JSON-RPC on stdout: is this an MCP server speaking stdio? (servers must log to stderr)'

function endOf(exit: NonNullable<Observation['exit']>): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
}

export function explainProbe(o: Observation): Explanation {
  const during = o.phase === 'tools/list' ? 'tools/list' : 'initialize'
  if (o.timedOut) {
    const error = `no answer to ${during} within ${o.timeoutMs} ms`
    if (o.stdoutNoise > 0) return { state: 'timeout', error, hint: NOISE_HINT }
    if (o.transport === 'stdio') {
      return {
        state: 'timeout',
        error,
        hint: 'is it an MCP server on stdio? it may be waiting for input or a login, or still downloading (try a larger --timeout)',
      }
    }
    return {
      state: 'timeout',
      error,
      hint: 'the server accepted the connection but did not answer: is this the MCP endpoint? (try a larger --timeout)',
    }
  }
  const err = o.error
  const code = errnoOf(err)
  if (o.transport === 'stdio') {
    if (o.phase === 'spawn' || (o.exit === undefined && (code === 'ENOENT' || code === 'EACCES'))) {
      if (code === 'ENOENT')
        return {
          state: 'failed',
          error: `command not found: ${o.command}`,
          hint: `install it, or fix "command" (a bare name is looked up in the absolute PATH entries; started in ${o.cwd})`,
        }
      if (code === 'EACCES')
        return {
          state: 'failed',
          error: `permission denied running ${o.command}`,
          hint: 'make it executable (chmod +x), or run it through its interpreter',
        }
      if (code === 'ENOTDIR' || code === 'ENOCWD')
        return {
          state: 'failed',
          error: `working directory does not exist: ${o.cwd}`,
          hint: 'fix "cwd" (relative to the project root)',
        }
      return {
        state: 'failed',
        error: `could not start ${o.command}: ${firstLine(messageOf(err), o.clean)}`,
        hint: null,
      }
    }
    if (o.exit) {
      const error = `${endOf(o.exit)} during ${during}`
      if (o.stdoutNoise > 0) return { state: 'failed', error, hint: NOISE_HINT }
      return {
        state: 'failed',
        error,
        hint: `${o.stderrLines === 0 ? 'it wrote nothing to stderr' : 'its stderr tail says why'}; run the command by hand in the project root to reproduce`,
      }
    }
  }
  if (o.transport !== 'stdio') {
    if (code === 'ERR_INVALID_URL' || (err instanceof TypeError && /Invalid URL/i.test(messageOf(err)))) {
      return { state: 'failed', error: `not a valid URL: ${o.url}`, hint: 'fix "url" (http:// or https://)' }
    }
    const status = httpStatusOf(err)
    if (status === 401 || status === 403) {
      return {
        state: 'failed',
        error: `HTTP ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'} from ${o.url}`,
        hint:
          status === 401
            ? 'authentication failed: check the Authorization header in "headers" (and the variable it uses)'
            : 'the credentials were refused for this resource: check the token and its permissions',
      }
    }
    if (status === 404)
      return {
        state: 'failed',
        error: `HTTP 404 Not Found from ${o.url}`,
        hint: 'wrong path? "url" must be the MCP endpoint itself (often ending in /mcp)',
      }
    if (status === 405)
      return {
        state: 'failed',
        error: `HTTP 405 Method Not Allowed from ${o.url}`,
        hint:
          o.transport === 'sse'
            ? 'not an SSE endpoint: check the path'
            : 'not a streamable-http endpoint (an SSE-only server? write "transport: sse")',
      }
    if (status === -1)
      return {
        state: 'failed',
        error: `not an MCP endpoint: ${firstLine(messageOf(err), o.clean)}`,
        hint: 'the URL answered, but not with MCP (JSON or an event stream): check the path',
      }
    if (status !== undefined)
      return {
        state: 'failed',
        error: `HTTP ${status} from ${o.url}`,
        hint: status >= 500 ? 'the server failed: see its logs' : null,
      }
    if (code === 'ECONNREFUSED')
      return {
        state: 'failed',
        error: `connection refused: ${o.url}`,
        hint: 'is the server running, on this host and port?',
      }
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
      return {
        state: 'failed',
        error: `connection reset by ${o.url}`,
        hint: 'speaking http to an https port, or a proxy in the way?',
      }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return {
        state: 'failed',
        error: `host not found: ${o.url}`,
        hint: 'check the host name in "url" (and DNS / VPN)',
      }
    if (code && isTlsCode(code)) {
      return {
        state: 'failed',
        error: `TLS error (${code}) connecting to ${o.url}`,
        hint: 'certificate problem, or https to a plain-http port: check the scheme; for a private CA set NODE_EXTRA_CA_CERTS',
      }
    }
  }
  const mcpCode = (err as { code?: unknown } | undefined)?.code
  if (err instanceof Error && err.name === 'McpError') {
    if (mcpCode === -32000 && o.exit)
      return {
        state: 'failed',
        error: `${endOf(o.exit)} during ${during}`,
        hint: o.stderrLines === 0 ? 'it wrote nothing to stderr' : 'its stderr tail says why',
      }
    return {
      state: 'failed',
      error: `${during} failed: ${firstLine(messageOf(err), o.clean)}`,
      hint: 'the server answered with an MCP error: see its logs',
    }
  }
  if (/protocol version is not supported|invalid initialize result/i.test(messageOf(err))) {
    return {
      state: 'failed',
      error: firstLine(messageOf(err), o.clean),
      hint: 'not an MCP server, or one speaking an incompatible protocol version',
    }
  }
  if (err instanceof Error && (err.name === 'ZodError' || err instanceof SyntaxError)) {
    return {
      state: 'failed',
      error: `invalid answer to ${during}`,
      hint: 'not an MCP server, or one speaking an incompatible protocol version',
    }
  }
  return {
    state: 'failed',
    error: `${during} failed: ${firstLine(messageOf(err), o.clean)}`,
    hint: o.stdoutNoise > 0 ? NOISE_HINT : null,
  }
}
