// A WebSocket client for end-to-end tests: every server message is checked against the protocol,
// and the run's events (sent one by one or in batches) are collected in order.
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { eventsOf, serverMessageSchema } from '../../schema/protocol.ts';

export type Watched = { messages: ServerMessage[]; events: RunEvent[]; frames: string[] };

/**
 * Opens `url` and collects events until `until` holds for one, then closes. `answer` sees each event
 * with the socket, to steer the run. Rejects on a socket error or after `timeoutMs`.
 */
export function watchEvents(
  url: string,
  until: (event: RunEvent) => boolean,
  answer: (event: RunEvent, ws: WebSocket) => void = () => {},
  timeoutMs = 120_000,
  protocols: string[] = [],
): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    const messages: ServerMessage[] = [];
    const frames: string[] = [];
    const events: RunEvent[] = [];
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`condition not met within ${timeoutMs / 1000} s; last event: ${JSON.stringify(events.at(-1))}`));
    }, timeoutMs);
    ws.onmessage = (m) => {
      frames.push(String(m.data));
      const message = serverMessageSchema.parse(JSON.parse(String(m.data)));
      messages.push(message);
      for (const event of eventsOf(message)) {
        events.push(event);
        answer(event, ws);
        if (until(event)) {
          clearTimeout(timer);
          ws.close();
          resolve({ messages, events, frames });
          return;
        }
      }
    };
    ws.onerror = () => {
      clearTimeout(timer);
      reject(new Error(`the socket to ${url} failed`));
    };
  });
}
