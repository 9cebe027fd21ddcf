// Checks that something speaking SSH listens at host:port, by reading its version banner.
import { connect } from 'node:net';

/** ok when the peer sends an "SSH-2.0-" banner within `timeoutMs`. Never throws. */
export function probeSsh(host: string, port: number, timeoutMs = 1_000): Promise<{ ok: boolean; reason: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ host, port });
    let received = '';
    const finish = (result: { ok: boolean; reason: string }) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `no SSH banner within ${timeoutMs} ms` }), timeoutMs);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const line = received.split('\r\n')[0] ?? '';
      if (received.includes('\n') || received.length > 255) {
        finish(
          line.startsWith('SSH-2.0-')
            ? { ok: true, reason: `${line.trim()} answered in ${Date.now() - started} ms` }
            : { ok: false, reason: `the port answers but not with SSH (got "${line.slice(0, 40)}")` },
        );
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ECONNREFUSED' ? 'connection refused: is the practice range running?' : err.message;
      finish({ ok: false, reason: why });
    });
  });
}
