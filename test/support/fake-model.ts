/**
 * A fake OpenAI-style chat-completions model on 127.0.0.1 for end-to-end runs
 * of the real `dsh` CLI (provider `llm-deepseek` with its base URL pointed here).
 *
 * Contract:
 * - `POST <baseURL>/chat/completions` with a JSON body is recorded (in arrival
 *   order, body parsed, headers lower-cased) and answered with HTTP 200 SSE:
 *   `data: <chunk json>\n\n` … `data: [DONE]\n\n`. Any other method/path is
 *   recorded too and answered 404; a body that is not JSON is answered 400.
 * - Requests are classified: `title` = the session-title request (no `tools`
 *   and `max_tokens` ≤ 64), `turn` = everything else. A title request is
 *   always answered with {@link FakeModelOptions.titleText}; a turn request
 *   with whatever the current responder returns.
 * - A reply is a final text (`finish_reason: stop`), one or more tool calls
 *   (`finish_reason: tool_calls`; each call's arguments are streamed in two
 *   fragments to exercise the client's appending), or an HTTP error.
 * - The responder is a pure function of the request, so one server can serve
 *   several sequential CLI runs; {@link scriptToolCall} is the usual one.
 * - `close()` ends every open connection and resolves once the port is free.
 */
import { createServer } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One chat message as the host sends it (only the fields tests read are typed). */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly content?: unknown
  readonly tool_call_id?: string
  readonly tool_calls?: readonly { id: string; function: { name: string; arguments: string } }[]
}

/** The request body fields tests read. */
export interface ChatBody {
  readonly model?: string
  readonly stream?: boolean
  readonly max_tokens?: number
  readonly messages?: readonly ChatMessage[]
  readonly tools?: readonly { type: string; function: { name: string; description?: string; parameters?: unknown } }[]
  readonly [key: string]: unknown
}

export interface ModelRequest {
  /** 0-based arrival index over every request this server saw. */
  readonly seq: number
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  /** Parsed JSON body (`{}` when absent or not JSON). */
  readonly body: ChatBody
  readonly kind: 'title' | 'turn' | 'other'
  /** `body.tools[].function.name`, in order. */
  readonly toolNames: readonly string[]
}

export interface ToolCallSpec {
  readonly name: string
  /** Object (JSON-encoded on the wire) or raw argument text. */
  readonly arguments?: Record<string, unknown> | string
  readonly id?: string
}

export type ModelReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly ToolCallSpec[]; readonly text?: string }
  | { readonly status: number; readonly error: string }

export type Responder = (request: ModelRequest) => ModelReply

export interface FakeModelOptions {
  /** Answer to turn requests; default: the text `ok`. */
  readonly responder?: Responder
  /** Answer to the session-title request; default `Fake title`. */
  readonly titleText?: string
}

export interface FakeModel {
  /** `http://127.0.0.1:<port>` — the provider's `baseURL` (no trailing slash). */
  readonly baseURL: string
  /** Every request so far, in arrival order (live array, do not mutate). */
  readonly requests: readonly ModelRequest[]
  /** Requests with `seq >= from` and kind `turn`. */
  turns(from?: number): ModelRequest[]
  /** Replace the responder for later turn requests. */
  respond(responder: Responder): void
  close(): Promise<void>
}

/** `role: tool` messages of a request (the tool results the host sent back). */
export function toolResults(request: ModelRequest): ChatMessage[] {
  return (request.body.messages ?? []).filter((m) => m.role === 'tool')
}

/** Text of a message's `content` (string, or the text parts of an array). */
export function messageText(message: ChatMessage): string {
  const { content } = message
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('')
  }
  return ''
}

/**
 * The usual script: when the last message is not a tool result and `pick`
 * returns a call, make that tool call; otherwise answer `finalText`.
 */
export function scriptToolCall(
  pick: (request: ModelRequest) => ToolCallSpec | undefined,
  finalText: string,
): Responder {
  return (request) => {
    const last = request.body.messages?.at(-1)
    if (last?.role === 'tool') return { text: finalText }
    const call = pick(request)
    return call === undefined ? { text: finalText } : { toolCalls: [call] }
  }
}

function classify(method: string, path: string, body: ChatBody): ModelRequest['kind'] {
  if (method !== 'POST' || !path.endsWith('/chat/completions')) return 'other'
  const noTools = !Array.isArray(body.tools) || body.tools.length === 0
  return noTools && typeof body.max_tokens === 'number' && body.max_tokens <= 64 ? 'title' : 'turn'
}

function frame(id: string, choices: unknown[], usage?: Record<string, number>): string {
  const payload = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices,
  }
  return `data: ${JSON.stringify(usage === undefined ? payload : { ...payload, usage })}\n\n`
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null): string {
  return frame(id, [{ index: 0, delta, finish_reason: finish }])
}

/** The SSE body for one reply (exported for unit tests of the fake itself). */
export function sseFrames(reply: Exclude<ModelReply, { status: number }>, id = 'fake-1'): string[] {
  const frames: string[] = [chunk(id, { role: 'assistant', content: '' }, null)]
  const text = reply.text ?? ''
  for (let at = 0; at < text.length; at += 16) frames.push(chunk(id, { content: text.slice(at, at + 16) }, null))
  let finish = 'stop'
  if ('toolCalls' in reply) {
    finish = 'tool_calls'
    reply.toolCalls.forEach((call, index) => {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {})
      const callId = call.id ?? `call_${id}_${index}`
      const half = Math.ceil(args.length / 2)
      frames.push(
        chunk(
          id,
          { tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] },
          null,
        ),
      )
      frames.push(chunk(id, { tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }, null))
      frames.push(chunk(id, { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, null))
    })
  }
  frames.push(chunk(id, {}, finish))
  frames.push(frame(id, [], { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }))
  frames.push('data: [DONE]\n\n')
  return frames
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

/** Start the fake model on an ephemeral port of 127.0.0.1. */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const requests: ModelRequest[] = []
  let responder: Responder = options.responder ?? (() => ({ text: 'ok' }))
  const titleText = options.titleText ?? 'Fake title'

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    let body: ChatBody = {}
    let parsed = raw.length === 0
    try {
      if (raw.length > 0) {
        body = JSON.parse(raw) as ChatBody
        parsed = true
      }
    } catch {}
    const method = req.method ?? 'GET'
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const kind = classify(method, path, body)
    const toolNames = (body.tools ?? []).map((t) => t.function?.name).filter((n): n is string => typeof n === 'string')
    const request: ModelRequest = { seq: requests.length, method, path, headers: req.headers, body, kind, toolNames }
    requests.push(request)
    if (kind === 'other')
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
    if (!parsed)
      return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}')
    let reply: ModelReply
    try {
      reply = kind === 'title' ? { text: titleText } : responder(request)
    } catch (error) {
      reply = { status: 500, error: `fake responder threw: ${String(error)}` }
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ error: { message: reply.error } }))
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    for (const frame of sseFrames(reply, `fake-${request.seq}`)) res.write(frame)
    res.end()
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500)
      res.end(String(error))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    turns: (from = 0) => requests.filter((r) => r.seq >= from && r.kind === 'turn'),
    respond(next) {
      responder = next
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
