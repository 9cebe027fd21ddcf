// OpenSSH's client in a real pseudo-terminal (util-linux `script`), driven like a person at it:
// wait for something on the screen, then type. The terminal's size is set with stty first, so a
// test can give `more` a screen too small for its text.
import { spawn } from 'node:child_process';

export type OpenSshTerminal = {
  /** Waits until the screen output (from `since`) matches; rejects with what was seen. */
  expect(pattern: RegExp, timeoutMs?: number): Promise<string>;
  send(keys: string): void;
  output(): string;
  close(): Promise<number | null>;
};

const SSH_OPTIONS = '-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR';

export function openSshTerminal(options: {
  port: number;
  user: string;
  password?: string;
  key?: string;
  rows?: number;
  cols?: number;
}): OpenSshTerminal {
  const auth = options.key ? `-i ${options.key}` : '';
  const ssh = `${options.password ? `sshpass -p '${options.password}' ` : ''}ssh -tt ${SSH_OPTIONS} ${auth} -p ${options.port} ${options.user}@127.0.0.1`;
  const command = `stty rows ${options.rows ?? 24} cols ${options.cols ?? 80}; exec ${ssh}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let seen = 0;
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    expect(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const rest = out.slice(seen);
          const m = pattern.exec(rest);
          if (!m) return;
          seen += m.index + m[0].length;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(rest.slice(0, m.index + m[0].length));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; the screen since the last match:\n${out.slice(seen)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    send(keys) {
      child.stdin.write(keys);
    },
    output: () => out,
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
