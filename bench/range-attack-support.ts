// Plumbing for bench/range-attacks: child processes and SSH clients that are always cleaned up, and a
// timeout on every step, so that a range the attacks have wedged never hangs the benchmark.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ssh2 from 'ssh2';

type TunableClient = ssh2.Client & { setNoDelay(noDelay?: boolean): void };

/** Who logs in, and from which loopback address (every 127.x.y.z reaches the range on Linux). */
export type Login = { port: number; username: string; password: string; from: string };

/** What one exec answered. */
export type ExecResult = { code: number | null; stdout: string; stderr: string };

const children = new Set<ChildProcess>();
const clients = new Set<ssh2.Client>();

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or a rejection naming `what` once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${(ms / 1000).toFixed(0)} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Starts `node script args` and resolves once it prints "listening"; the child is killed by closeAll. */
export async function startChild(script: string, args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited (code ${code}) before it was listening`)));
  });
  await withTimeout(listening, 30_000, `starting ${script}`);
  return child;
}

/** The resident memory of a process, in MiB (NaN once it is gone). */
export function rssMiB(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? Number.NaN : Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system, all threads) a process has used, in seconds; NaN once it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    // Fields after the command's closing parenthesis start at the third, state; utime and stime are 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Logs in; rejects when refused or not ready within `timeoutMs`. Keep-alives keep an idle login from timing out. */
export function login(to: Login, timeoutMs = 20_000): Promise<ssh2.Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client() as TunableClient;
    clients.add(client);
    client.on('close', () => {
      clients.delete(client);
      reject(new Error('connection closed before login'));
    });
    client.on('ready', () => resolve(client));
    // After login an error only ends the client; the exec in flight sees its channel close.
    client.on('error', (err) => {
      reject(err);
      client.end();
    });
    client.connect({
      host: '127.0.0.1',
      port: to.port,
      username: to.username,
      password: to.password,
      localAddress: to.from,
      readyTimeout: timeoutMs,
      keepaliveInterval: 5_000,
      keepaliveCountMax: 12,
    });
    client.setNoDelay(true);
  });
}

/** Runs one command line; rejects (and closes the channel) when it has not finished within `timeoutMs`. */
export function run(client: ssh2.Client, command: string, timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    let closeChannel = () => {};
    // A client that has lost its connection never calls back; its close event ends the wait instead.
    const lost = () => settle(new Error('connection closed'));
    const timer = setTimeout(() => {
      closeChannel();
      settle(new Error(`command still running after ${(timeoutMs / 1000).toFixed(0)} s`));
    }, timeoutMs);
    const settle = (outcome: Error | ExecResult) => {
      clearTimeout(timer);
      client.removeListener('close', lost);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    client.once('close', lost);
    try {
      client.exec(command, (err, stream) => {
        if (err) return settle(err);
        closeChannel = () => stream.close();
        let code: number | null = null;
        let stdout = '';
        let stderr = '';
        stream.on('exit', (c: number | null) => (code = c));
        stream.on('data', (d: Buffer) => (stdout += d));
        stream.stderr.on('data', (d: Buffer) => (stderr += d));
        stream.on('close', () => settle({ code, stdout, stderr }));
      });
    } catch (err) {
      settle(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** Ends a client and waits (up to 5 s) until its connection has closed, so the range has let it go. */
export async function logout(client: ssh2.Client): Promise<void> {
  if (!clients.has(client)) return;
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  client.end();
  await withTimeout(closed, 5_000, 'closing a connection').catch(() => client.destroy());
}

/** Closes every client and stops every child (SIGTERM, then SIGKILL after 3 s). Safe to call twice. */
export async function closeAll(): Promise<void> {
  for (const client of clients) client.end();
  clients.clear();
  await Promise.all(
    [...children].map(async (child) => {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await withTimeout(gone, 3_000, 'stopping a child').catch(() => child.kill('SIGKILL'));
    }),
  );
}
