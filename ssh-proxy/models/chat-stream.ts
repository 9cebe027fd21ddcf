// Reads a streamed chat completion (SSE chunks) back into the one completion a plain call returns,
// so parsing, the trace and the stored log are the same either way. Text is handed to `live` as it
// arrives; tool-call arguments are put together from their pieces by the index each piece carries.
import type OpenAI from 'openai';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Completion = OpenAI.Chat.Completions.ChatCompletion;

export type StreamedCompletion = {
  completion: Completion;
  /** Milliseconds from the request to the first piece of an answer (text, reasoning or a tool call). */
  ttftMs: number | null;
  /** Chunks read; none means the endpoint answered a streaming request without streaming. */
  chunks: number;
};

/** Some endpoints stream a model's reasoning beside its text (OpenRouter: reasoning; vLLM, DeepSeek: reasoning_content). */
type ReasoningDelta = { reasoning?: string | null; reasoning_content?: string | null };

export async function readChatStream(
  stream: AsyncIterable<Chunk>,
  startedAt: number,
  live?: (text: string) => void,
): Promise<StreamedCompletion> {
  let id = '';
  let model = '';
  let created = 0;
  let content = '';
  let reasoning = '';
  let finish: Completion['choices'][number]['finish_reason'] | null = null;
  let usage: Completion['usage'] | undefined;
  let ttftMs: number | null = null;
  let chunks = 0;
  const calls: { id: string; name: string; arguments: string }[] = [];
  for await (const chunk of stream) {
    chunks += 1;
    id ||= chunk.id;
    model ||= chunk.model;
    created ||= chunk.created;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    const thought = (delta as ReasoningDelta).reasoning ?? (delta as ReasoningDelta).reasoning_content ?? '';
    const piece = delta.content ?? '';
    if (ttftMs === null && (piece || thought || delta.tool_calls?.length))
      ttftMs = Math.round(performance.now() - startedAt);
    if (thought) {
      reasoning += thought;
      live?.(thought);
    }
    if (piece) {
      content += piece;
      live?.(piece);
    }
    for (const call of delta.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { id: '', name: '', arguments: '' });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name += call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  const toolCalls = calls
    .filter(Boolean)
    .map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
  // A model that only reasons out loud still shows its thinking; text it wrote wins when it wrote some.
  const text = content || reasoning;
  const completion: Completion = {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          refusal: null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finish ?? 'stop',
        logprobs: null,
      },
    ],
    ...(usage ? { usage } : {}),
  };
  return { completion, ttftMs, chunks };
}
