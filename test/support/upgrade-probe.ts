// Sends a raw HTTP/1.1 WebSocket upgrade, the way a browser page's `new WebSocket()` does, and reads
// what comes back: a port that answers 101 would hand that page a socket.
import { connect } from 'node:net';

/** What one upgrade asked for. */
export type UpgradeAsk = { port: number; path: string; origin: string; protocol?: string; host?: string };

function upgradeRequest(ask: UpgradeAsk): string {
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
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Sends the upgrade and resets the connection at once (TCP RST), as a page scanning ports may. */
export function resetUpgrade(ask: UpgradeAsk): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(ask.port, '127.0.0.1');
    socket.on('connect', () =>
      socket.write(upgradeRequest(ask), () => {
        socket.resetAndDestroy();
        resolve();
      }),
    );
    socket.on('error', () => resolve());
  });
}

/**
 * Everything the port sent for an upgrade, and whether it closed the connection by itself within
 * `timeoutMs`: a refused upgrade must not leave an open pipe a client could send more requests on.
 */
export function upgradeAnswer(ask: UpgradeAsk, timeoutMs = 5_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(ask.port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, timeoutMs);
    socket.on('connect', () => socket.write(upgradeRequest(ask)));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

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
    socket.on('connect', () => socket.write(upgradeRequest(ask)));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n') || received.length > 200) done(received.split('\r\n')[0]!);
    });
    socket.on('error', (err) => done(`(error: ${err.message})`));
    socket.on('close', () => done(received ? received.split('\r\n')[0]! : '(closed)'));
  });
}
