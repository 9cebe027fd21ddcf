// The server's side of a WebSocket by hand (RFC 6455), for the loopback stacks of the tests: the
// handshake that picks the run protocol, unmasked frames to send, and the opcodes of what a client sends.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WS_SUBPROTOCOL } from '../../schema/protocol.ts';

/** The subprotocols the client offered, in its order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  return String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** Answers the upgrade with 101 and WS_SUBPROTOCOL, as the worker does; false (and no answer) when not offered. */
export function acceptUpgrade(req: IncomingMessage, socket: Socket): boolean {
  if (!offeredProtocols(req).includes(WS_SUBPROTOCOL)) return false;
  const key = String(req.headers['sec-websocket-key'] ?? '');
  const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  socket.write(
    [
      'HTTP/1.1 101 Switching Protocols',
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Accept: ${accept}`,
      `Sec-WebSocket-Protocol: ${WS_SUBPROTOCOL}`,
      '',
      '',
    ].join('\r\n'),
  );
  return true;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = Buffer.alloc(n < 126 ? 2 : n < 65_536 ? 4 : 10);
  head[0] = 0x80 | opcode;
  if (n < 126) head[1] = n;
  else if (n < 65_536) {
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

/** One unmasked text frame, as a server sends it (RFC 6455 §5.2). */
export function textFrame(text: string): Buffer {
  return frame(0x1, Buffer.from(text, 'utf8'));
}

/** A close frame with its status code. */
export function closeFrame(code: number): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code, 0);
  return frame(0x8, payload);
}

/**
 * Calls `onFrame` with the opcode and (unmasked) payload of each frame the client sends; frames split
 * across TCP reads are put together first.
 */
export function readClientFrames(socket: Socket, onFrame: (opcode: number, payload: Buffer) => void): void {
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (pending.length < 2) return;
      const masked = (pending[1]! & 0x80) !== 0;
      let length = pending[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (pending.length < 4) return;
        length = pending.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (pending.length < 10) return;
        length = Number(pending.readBigUInt64BE(2));
        offset = 10;
      }
      const maskAt = offset;
      if (masked) offset += 4;
      if (pending.length < offset + length) return;
      const payload = Buffer.from(pending.subarray(offset, offset + length));
      if (masked)
        for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (pending[maskAt + (i % 4)] ?? 0);
      onFrame(pending[0]! & 0x0f, payload);
      pending = pending.subarray(offset + length);
    }
  });
}
