// bench/practice: exec latency over one SSH connection and login time against the practice range,
// run as its own process on loopback. Prints figures; targets are ≤ 3 ms p50 per exec and ≤ 15 ms
// per login. Usage: node bench/practice.ts [--execs N] [--logins N]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ssh2 from 'ssh2';
import { freePort } from '../test/support/free-port.ts';

const { values } = parseArgs({ options: { execs: { type: 'string', default: '500' }, logins: { type: 'string', default: '50' } } });
const EXECS = Number(values.execs);
const LOGINS = Number(values.logins);

type TunableClient = ssh2.Client & { setNoDelay(noDelay?: boolean): void };

function connectClient(port: number): Promise<TunableClient> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client() as TunableClient;
    client.on('ready', () => resolve(client)).on('error', reject);
    client.connect({ host: '127.0.0.1', port, username: 'bandit0', password: 'bandit0' });
    client.setNoDelay(true);
  });
}

function exec(client: ssh2.Client, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) return reject(err);
      let out = '';
      stream.on('data', (d: Buffer) => (out += d));
      stream.stderr.resume();
      stream.on('close', () => resolve(out));
    });
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `${label.padEnd(28)} ${String(samples.length).padStart(5)} ${f(percentile(sorted, 50))} ${f(percentile(sorted, 99))} ${f(sorted[sorted.length - 1]!)}`;
}

const port = await freePort();
const range = spawn(process.execPath, [join(import.meta.dirname, '../practice/main.ts'), '--port', String(port), '--seed', 'bench', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, PRACTICE_HOST_KEY: join(import.meta.dirname, '../.state/bench/host_key') },
});
await new Promise<void>((resolve) => range.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && resolve()));

try {
  // Warm up both sides (JIT, caches) before measuring.
  const warm = await connectClient(port);
  for (let i = 0; i < 50; i++) await exec(warm, 'cat readme');
  warm.end();

  const logins: number[] = [];
  for (let i = 0; i < LOGINS; i++) {
    const started = performance.now();
    const client = await connectClient(port);
    logins.push(performance.now() - started);
    client.end();
  }

  const client = await connectClient(port);
  const trivial: number[] = [];
  const reads: number[] = [];
  for (let i = 0; i < EXECS; i++) {
    let started = performance.now();
    await exec(client, 'true');
    trivial.push(performance.now() - started);
    started = performance.now();
    await exec(client, 'cat readme');
    reads.push(performance.now() - started);
  }
  client.end();

  console.log(`practice range on 127.0.0.1:${port} (separate process), ${new Date().toISOString()}`);
  console.log(`${'measure (ms)'.padEnd(28)} ${'n'.padStart(5)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`);
  console.log(summary('login (connect+auth)', logins));
  console.log(summary('exec `true`, one connection', trivial));
  console.log(summary('exec `cat readme`', reads));
  console.log('targets: exec p50 ≤ 3 ms, login ≤ 15 ms');
} finally {
  range.kill('SIGTERM');
}
