// A model call's request and response read as a chat (system, user, assistant and tool turns), as
// Inspect's and Langfuse's viewers show them. Pure: the web's model-call inspector renders the turns;
// a body that is not an OpenAI-style chat (the baseline's own record, an error) reads as null.
import { z } from 'zod';

/** Who speaks in a turn; `developer` reads as system and the old `function` role as tool. */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call an assistant turn asked for; its arguments pretty-printed when they are JSON. */
export type ChatToolCall = { id: string | null; name: string; arguments: string };

/** One turn of the chat, its text as the model or a target wrote it (untrusted: render it with <Shown>). */
export type ChatTurn = {
  role: ChatRole;
  text: string;
  /** The model's reasoning, where the endpoint returned it beside the text. */
  reasoning: string | null;
  toolCalls: ChatToolCall[];
  /** On a tool turn: the call it answers. */
  toolCallId: string | null;
};

const partSchema = z.object({ type: z.string(), text: z.string().optional() });
const messageSchema = z.object({
  role: z.string(),
  content: z.union([z.string(), z.array(partSchema), z.null()]).optional(),
  tool_calls: z
    .array(z.object({ id: z.string().optional(), function: z.object({ name: z.string(), arguments: z.string() }) }))
    .optional(),
  tool_call_id: z.string().optional(),
  reasoning: z.string().nullable().optional(),
  reasoning_content: z.string().nullable().optional(),
});
const requestSchema = z.object({
  messages: z.array(messageSchema).min(1),
  tools: z.array(z.object({ function: z.object({ name: z.string() }) })).optional(),
});
const responseSchema = z.object({ choices: z.array(z.object({ message: messageSchema })).min(1) });
type Message = z.infer<typeof messageSchema>;

const ROLES: Record<string, ChatRole> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

/** JSON arguments indented for reading; anything else as it came. */
function pretty(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

function turnOf(message: Message): ChatTurn {
  const { content } = message;
  const text =
    typeof content === 'string'
      ? content
      : (content ?? [])
          .map((part) => part.text ?? `[${part.type}]`)
          .filter((piece) => piece.length > 0)
          .join('\n');
  return {
    role: ROLES[message.role] ?? 'user',
    text,
    reasoning: message.reasoning ?? message.reasoning_content ?? null,
    toolCalls: (message.tool_calls ?? []).map((call) => ({
      id: call.id ?? null,
      name: call.function.name,
      arguments: pretty(call.function.arguments),
    })),
    toolCallId: message.tool_call_id ?? null,
  };
}

/** The turns a chat request sent, or null when the request is not an OpenAI-style chat. */
export function requestTurns(request: unknown): ChatTurn[] | null {
  const parsed = requestSchema.safeParse(request);
  return parsed.success ? parsed.data.messages.map(turnOf) : null;
}

/** The names of the tools a chat request offered the model (none when it offered none or is not a chat). */
export function offeredTools(request: unknown): string[] {
  const parsed = requestSchema.safeParse(request);
  return parsed.success ? (parsed.data.tools ?? []).map((tool) => tool.function.name) : [];
}

/** The turn(s) a chat completion answered with, or null when the response is not one (an error, a record). */
export function responseTurns(response: unknown): ChatTurn[] | null {
  const parsed = responseSchema.safeParse(response);
  return parsed.success ? parsed.data.choices.map((choice) => turnOf(choice.message)) : null;
}
