// A small ssh2 client for tests: one exec per call, Nagle off, stdout and stderr kept apart (or in
// their order of arrival, as a terminal shows them).
import ssh2 from 'ssh2';
import type { ConnectConfig } from 'ssh2';

export type ExecResult = { stdout: string; stderr: string; code: number | null };

type TunableClient = ssh2.Client & { setNoDelay(noDelay?: boolean): void };

/** Both streams apart, both in their order of arrival (as a terminal shows them), and the exit code. */
type Streams = ExecResult & { merged: string };

/** Connects, runs `command` with `env`, and disconnects; rejects when the login is refused. */
function execStreams(config: ConnectConfig, command: string, env?: Record<string, string>): Promise<Streams> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client() as TunableClient;
    client
      .on('ready', () => {
        client.exec(command, env ? { env } : {}, (err, stream) => {
          if (err) return reject(err);
          const out: Streams = { stdout: '', stderr: '', merged: '', code: null };
          // ssh2 emits channel data and extended (stderr) data in the order their packets came.
          stream.on('data', (d: Buffer) => {
            out.stdout += d.toString('latin1');
            out.merged += d.toString('latin1');
          });
          stream.stderr.on('data', (d: Buffer) => {
            out.stderr += d.toString('latin1');
            out.merged += d.toString('latin1');
          });
          stream.on('exit', (exitCode: number | null) => (out.code = exitCode));
          // 'exit' can arrive before the last data; 'close' comes after both.
          stream.on('close', () => {
            client.end();
            resolve(out);
          });
        });
      })
      .on('error', reject)
      .connect({ host: '127.0.0.1', readyTimeout: 10_000, ...config });
    client.setNoDelay(true);
  });
}

/**
 * Connects, runs `command`, and disconnects. Rejects when the login is refused. `env` is sent with the
 * exec (the range reads PRACTICE_WORLD from it).
 */
export async function sshExec(
  config: ConnectConfig,
  command: string,
  env?: Record<string, string>,
): Promise<ExecResult> {
  const { stdout, stderr, code } = await execStreams(config, command, env);
  return { stdout, stderr, code };
}

/** An exec's output as a terminal shows it: both streams in the order they arrived, and the exit code. */
export async function sshExecInOrder(
  config: ConnectConfig,
  command: string,
): Promise<{ merged: string; code: number | null }> {
  const { merged, code } = await execStreams(config, command);
  return { merged, code };
}

/** Opens an interactive shell with a pty, types `input`, and returns everything printed until it closes. */
export function sshShell(config: ConnectConfig, input: string, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client() as TunableClient;
    client
      .on('ready', () => {
        client.shell({ term: 'xterm', rows: 24, cols: 80 }, (err, stream) => {
          if (err) return reject(err);
          let out = '';
          const timer = setTimeout(() => {
            client.end();
            resolve(out);
          }, timeoutMs);
          stream.on('data', (d: Buffer) => (out += d.toString()));
          stream.on('close', () => {
            clearTimeout(timer);
            client.end();
            resolve(out);
          });
          stream.write(input);
        });
      })
      .on('error', reject)
      .connect({ host: '127.0.0.1', readyTimeout: 10_000, ...config });
    client.setNoDelay(true);
  });
}

/** Logs in and stays connected; `end` disconnects. Resolves ok: false when the login fails. */
export function sshLogin(port: number, username: string, password: string): Promise<{ ok: boolean; end: () => void }> {
  return new Promise((resolve) => {
    const client = new ssh2.Client() as TunableClient;
    client
      .on('ready', () => resolve({ ok: true, end: () => client.end() }))
      .on('error', () => resolve({ ok: false, end: () => client.end() }))
      .connect({ host: '127.0.0.1', port, username, password, readyTimeout: 10_000 });
    client.setNoDelay(true);
  });
}
