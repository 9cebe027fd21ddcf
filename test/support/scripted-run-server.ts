// A run socket on loopback whose every connection a test scripts: send protocol messages or raw text,
// close with a code, cut the TCP connection (even mid-frame), or refuse the upgrade. It records each
// upgrade's URL and offered subprotocols, so a test can check where the token rode.
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ServerMessage } from '../../schema/protocol.ts';
import { acceptUpgrade, closeFrame, offeredProtocols, readClientFrames, textFrame } from './ws-server-frames.ts';

/** One accepted connection, as its script sees it. */
export type ScriptedSocket = {
  /** `since` from the URL's query (0 when absent). */
  since: number;
  send(message: ServerMessage | Record<string, unknown>): void;
  /** A frame whose text is not a protocol message (or not JSON at all). */
  sendRaw(text: string): void;
  /** A clean close from the server's side, with this code. */
  close(code: number): void;
  /** The TCP connection cut at once, no close frame. */
  terminate(): void;
  /** Writes the first half of the message's frame, then cuts the connection: a drop mid-frame. */
  cutMidFrame(message: ServerMessage): void;
  /** Resolves with the code of the client's close frame (1005 when it had none), or null if TCP ended first. */
  readonly clientClosed: Promise<number | null>;
};

/** What the server saw of one upgrade request. */
export type Upgrade = { url: string; protocols: string[]; refused: boolean };

export type ScriptedRunServer = {
  /** ws://127.0.0.1:PORT */
  url: string;
  readonly upgrades: Upgrade[];
  close(): Promise<void>;
};

/**
 * `script(socket, index)` runs for each accepted connection, numbered from 0; `refuse(index)` true cuts
 * the upgrade before any answer, as a worker that is down would.
 */
export async function startScriptedRunServer(
  script: (socket: ScriptedSocket, index: number) => void,
  refuse: (index: number) => boolean = () => false,
): Promise<ScriptedRunServer> {
  const upgrades: Upgrade[] = [];
  const open = new Set<Socket>();
  const server = createServer((_req, res) => void res.writeHead(404).end());
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const index = upgrades.length;
    const refused = refuse(index);
    upgrades.push({ url: req.url ?? '', protocols: offeredProtocols(req), refused });
    socket.on('error', () => undefined);
    if (refused || !acceptUpgrade(req, socket)) return void socket.destroy();
    open.add(socket);
    let resolveClosed: (code: number | null) => void = () => undefined;
    const clientClosed = new Promise<number | null>((resolve) => (resolveClosed = resolve));
    socket.on('close', () => {
      open.delete(socket);
      resolveClosed(null);
    });
    readClientFrames(socket, (opcode, payload) => {
      if (opcode !== 0x8) return;
      resolveClosed(payload.length >= 2 ? payload.readUInt16BE(0) : 1005);
      // The closing handshake's answer, then the end of the connection.
      if (socket.writable) socket.end(closeFrame(1000));
    });
    const live = () => !socket.destroyed && socket.writable;
    const since = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('since') ?? 0);
    script(
      {
        since,
        send: (message) => void (live() && socket.write(textFrame(JSON.stringify(message)))),
        sendRaw: (text) => void (live() && socket.write(textFrame(text))),
        close: (code) => void (live() && socket.end(closeFrame(code))),
        terminate: () => void socket.destroy(),
        cutMidFrame: (message) => {
          const bytes = textFrame(JSON.stringify(message));
          if (live()) socket.write(bytes.subarray(0, Math.ceil(bytes.length / 2)), () => socket.destroy());
          else socket.destroy();
        },
        clientClosed,
      },
      index,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upgrades,
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
