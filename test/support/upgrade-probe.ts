// Sends a raw HTTP/1.1 WebSocket upgrade, the way a browser page's `new WebSocket()` does, and reads
// what comes back: a port that answers 101 would hand that page a socket.
import { connect } from 'node:net';

/** What one upgrade asked for. */
export type UpgradeAsk = { port: number; path: string; origin: string; protocol?: string; host?: string };

/** The first line the port answered (e.g. "HTTP/1.1 403 Forbidden"), or "(closed)" / "(no answer)". */
export function askUpgrade(ask: UpgradeAsk, timeoutMs = 3_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(ask.port, '127.0.0.1');
    let received = '';
    const done = (answer: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(received ? received.split('\r\n')[0]! : '(no answer)'), timeoutMs);
    socket.on('connect', () => {
      const lines = [
        `GET ${ask.path} HTTP/1.1`,
        `Host: ${ask.host ?? `127.0.0.1:${ask.port}`}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        `Origin: ${ask.origin}`,
        ...(ask.protocol ? [`Sec-WebSocket-Protocol: ${ask.protocol}`] : []),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n') || received.length > 200) done(received.split('\r\n')[0]!);
    });
    socket.on('error', (err) => done(`(error: ${err.message})`));
    socket.on('close', () => done(received ? received.split('\r\n')[0]! : '(closed)'));
  });
}
