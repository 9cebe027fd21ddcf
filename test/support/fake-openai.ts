// A fake OpenAI-compatible endpoint on loopback. Each test scripts the replies to
// POST /v1/chat/completions; the real `openai` SDK talks to it over HTTP. A request with
// `stream: true` gets the same reply as server-sent events, cut into pieces the way real endpoints
// stream: the text a few characters at a time, then each tool call's arguments in pieces, then
// the finish reason, the usage (when asked for) and [DONE].
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeReply = {
  status?: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** When streamed: the text in these pieces (default: 12 characters each)… */
  pieces?: string[];
  /** …one every this many milliseconds (default 0). */
  pieceDelayMs?: number;
};
export type ChatRequest = {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: unknown }[];
  tools?: unknown[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
};
export type FakeOptions = {
  /** false: an endpoint that answers every request whole, even one asking to stream. */ streams?: boolean;
};
export type Responder = (request: ChatRequest, n: number) => FakeReply | Promise<FakeReply>;

export type FakeOpenAi = {
  baseUrl: string;
  requests: { body: ChatRequest; authorization: string | undefined }[];
  respond: (responder: Responder) => void;
  close: () => Promise<void>;
};

/** A chat completion whose message calls one tool. */
export function toolCall(
  name: 'run_command' | 'submit_password' | 'final_commands',
  args: unknown,
  thinking = '',
): FakeReply {
  return completion({
    role: 'assistant',
    content: thinking || null,
    tool_calls: [
      {
        id: `call_${Math.random().toString(36).slice(2, 10)}`,
        type: 'function',
        function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
      },
    ],
  });
}

/** A plain-text chat completion (what reflect expects). */
export const textReply = (content: string): FakeReply => completion({ role: 'assistant', content });

function completion(message: unknown): FakeReply {
  return {
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model: 'fake-model',
      choices: [{ index: 0, message, finish_reason: 'tool_calls', logprobs: null }],
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    },
  };
}

export async function startFakeOpenAi(options: FakeOptions = {}): Promise<FakeOpenAi> {
  const streams = options.streams ?? true;
  let responder: Responder = () => ({ status: 500, body: { error: { message: 'no script' } } });
  const requests: FakeOpenAi['requests'] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', async () => {
      // What the endpoint was sent, for tests that cannot hold this object (the worker's, in workerd).
      if (req.method === 'GET' && req.url === '/__requests') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(requests.map((r) => r.body)));
        return;
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(text) as ChatRequest;
      requests.push({ body, authorization: req.headers.authorization });
      const reply = await responder(body, requests.length);
      const send = () => {
        if (res.destroyed) return;
        if (body.stream && streams && (reply.status ?? 200) === 200 && isCompletion(reply.body)) {
          void streamCompletion(res, reply, body.stream_options?.include_usage === true);
          return;
        }
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respond: (next) => (responder = next),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Completion = {
  id: string;
  model: string;
  created: number;
  choices: {
    message: { content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
    finish_reason: string;
  }[];
  usage?: unknown;
};

function isCompletion(body: unknown): body is Completion {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as Completion).choices) &&
    (body as Completion).choices.length > 0
  );
}

/** Splits text into pieces of `size` characters. */
export function splitText(text: string, size = 12): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** Sends a completion as chat.completion.chunk events, as OpenAI's streaming API does. */
async function streamCompletion(
  res: import('node:http').ServerResponse,
  reply: FakeReply,
  includeUsage: boolean,
): Promise<void> {
  const completion = reply.body as Completion;
  const message = completion.choices[0]!.message;
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
  };
  const event = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const pause = () => (reply.pieceDelayMs ? new Promise((r) => setTimeout(r, reply.pieceDelayMs)) : Promise.resolve());
  res.write(event({ role: 'assistant', content: '' }));
  for (const piece of reply.pieces ?? splitText(message.content ?? '')) {
    await pause();
    if (res.destroyed) return;
    // "{now}" in a piece becomes the time it is sent (epoch ms), for the latency benchmark.
    res.write(event({ content: piece.replaceAll('{now}', (performance.timeOrigin + performance.now()).toFixed(3)) }));
  }
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    res.write(
      event({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    for (const piece of splitText(call.function.arguments, 16))
      res.write(event({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  res.write(event({}, completion.choices[0]!.finish_reason));
  if (includeUsage && completion.usage)
    res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: completion.usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}
