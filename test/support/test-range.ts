// A practice range for one test file: on loopback, a free port, the built-in test host key.
import { connect } from 'node:net';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RangeOptions, RunningRange } from '../../practice/server.ts';

/** Starts a range of `seed` with `options` over the test defaults. */
export function startTestRange(seed: string, options: Partial<Omit<RangeOptions, 'seed'>> = {}): Promise<RunningRange> {
  return startRange({ host: '127.0.0.1', port: 0, hostKey: loadHostKey(null), seed, ...options });
}

/** What the range says to a raw TCP connection before it closes it (a refusal comes before SSH's banner). */
export function textUntilClosed(port: number, localAddress?: string): Promise<string> {
  const socket = connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('close', () => resolve(text));
  });
}
