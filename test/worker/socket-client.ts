// A WebSocket to a run through the worker, for workerd tests: every server message is parsed with
// the protocol schema and queued for next().
import { expect } from 'vitest';
import type { ServerMessage } from '../../schema/protocol.ts';
import { serverMessageSchema } from '../../schema/protocol.ts';
import { call } from './http.ts';

/** An open socket whose messages are parsed with the protocol schema and queued for `next()`. */
export async function connect(path: string) {
  const response = await call(path, { headers: { Upgrade: 'websocket' } });
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  const queue: ServerMessage[] = [];
  const waiters: ((m: ServerMessage) => void)[] = [];
  ws.addEventListener('message', (e) => {
    const message = serverMessageSchema.parse(JSON.parse(e.data as string));
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  ws.accept();
  return {
    ws,
    send: (data: unknown) => ws.send(typeof data === 'string' ? data : JSON.stringify(data)),
    next: () =>
      new Promise<ServerMessage>((resolve, reject) => {
        const queued = queue.shift();
        if (queued) return resolve(queued);
        const timer = setTimeout(() => reject(new Error('no message within 2 s')), 2_000);
        waiters.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      }),
  };
}
