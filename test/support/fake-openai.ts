// A fake OpenAI-compatible endpoint on loopback. Each test scripts the replies to
// POST /v1/chat/completions; the real `openai` SDK talks to it over HTTP.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeReply = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string>; delayMs?: number };
export type ChatRequest = { model: string; messages: { role: string; content?: unknown; tool_calls?: unknown }[]; tools?: unknown[]; tool_choice?: unknown };
export type Responder = (request: ChatRequest, n: number) => FakeReply;

export type FakeOpenAi = {
  baseUrl: string;
  requests: { body: ChatRequest; authorization: string | undefined }[];
  respond: (responder: Responder) => void;
  close: () => Promise<void>;
};

/** A chat completion whose message calls one tool. */
export function toolCall(name: 'run_command' | 'submit_password', args: unknown, thinking = ''): FakeReply {
  return completion({
    role: 'assistant',
    content: thinking || null,
    tool_calls: [{ id: `call_${Math.random().toString(36).slice(2, 10)}`, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }],
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

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let responder: Responder = () => ({ status: 500, body: { error: { message: 'no script' } } });
  const requests: FakeOpenAi['requests'] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
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
      const reply = responder(body, requests.length);
      const send = () => {
        if (res.destroyed) return;
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
