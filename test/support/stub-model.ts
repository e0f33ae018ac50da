/**
 * A scripted stub model: an in-process LLM adapter that drives real agent
 * turns without a network or a key, recording what the host offered it.
 */
import type { Context } from '@deepseek-ai/cordis'
import { CallId, createUserMessage, LlmAdapter } from '@deepseek-ai/dsh-llm'
import type { GenerateOptions, StreamChunk, UserMessage } from '@deepseek-ai/dsh-llm'
import type { AgentOptions } from '@deepseek-ai/dsh-agent'

let callSeq = 0

/** One scripted model response: chunks, or a function of the request. */
export type StubResponse =
  | readonly StreamChunk[]
  | ((request: GenerateOptions, index: number) => readonly StreamChunk[] | Promise<readonly StreamChunk[]>)

export interface StubModel {
  /** Provider route, default `stub`. */
  readonly provider: string
  /** Model id, default `stub-model`. */
  readonly model: string
  /** `{ provider, model }` to pass as `agentOptions`. */
  readonly agentOptions: AgentOptions
  /** Every request the loop sent, in order (`tools` = what the model is offered). */
  readonly requests: GenerateOptions[]
  /** Queue responses; when the queue is empty the model answers `text('ok')`. */
  push(...responses: StubResponse[]): void
  /** Release the adapter route. */
  dispose(): void
}

/** Chunks of a plain text answer that stops the turn. */
export function textResponse(text: string): StreamChunk[] {
  return [
    { type: 'text-delta', index: 0, text },
    { type: 'finish', reason: { kind: 'stop' } },
  ]
}

/** Chunks of one tool call (the loop executes it, then asks the model again). */
export function toolCallResponse(name: string, args: unknown, id = `stub-call-${++callSeq}`): StreamChunk[] {
  return [
    { type: 'tool-call-delta', index: 0, id: CallId(id), name, argumentsDelta: JSON.stringify(args) },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

/** Register an in-process scripted model adapter on `ctx.llm`. */
export function installStubModel(ctx: Context, options: { provider?: string; model?: string } = {}): StubModel {
  const provider = options.provider ?? 'stub'
  const model = options.model ?? 'stub-model'
  const requests: GenerateOptions[] = []
  const queue: StubResponse[] = []
  class StubAdapter extends LlmAdapter {
    async *stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
      const index = requests.push(request) - 1
      const next = queue.shift() ?? textResponse('ok')
      const chunks = typeof next === 'function' ? await next(request, index) : next
      for (const chunk of chunks) {
        request.signal?.throwIfAborted()
        yield chunk
      }
    }
  }
  const release = ctx.llm.registerAdapter([provider], new StubAdapter())
  return {
    provider,
    model,
    agentOptions: { provider, model },
    requests,
    push: (...responses) => {
      queue.push(...responses)
    },
    dispose: () => release(),
  }
}

/** A user message for `agent.followup()` / `agent.steer()`. */
export function userMessage(text: string): UserMessage {
  return createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }) as UserMessage
}
