// bench/practice: exec latency over one SSH connection and login time against the practice range,
// run as its own process on loopback. Prints figures; targets are ≤ 3 ms p50 per exec and ≤ 15 ms
// per login. Usage: node bench/practice.ts [--execs N] [--logins N]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../test/support/free-port.ts';
import { connectClient, exec } from './ssh-timing.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: { execs: { type: 'string', default: '500' }, logins: { type: 'string', default: '50' } },
});
const EXECS = Number(values.execs);
const LOGINS = Number(values.logins);

function summary(label: string, samples: number[]): string {
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `${label.padEnd(28)} ${String(samples.length).padStart(5)} ${f(percentile(samples, 50))} ${f(percentile(samples, 99))} ${f(Math.max(...samples))}`;
}

const port = await freePort();
const range = spawn(
  process.execPath,
  [join(import.meta.dirname, '../practice/main.ts'), '--port', String(port), '--seed', 'bench', '--quiet'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PRACTICE_HOST_KEY: join(import.meta.dirname, '../.state/bench/host_key') },
  },
);
await new Promise<void>((resolve) =>
  range.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && resolve()),
);

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
  console.log(
    `${'measure (ms)'.padEnd(28)} ${'n'.padStart(5)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`,
  );
  console.log(summary('login (connect+auth)', logins));
  console.log(summary('exec `true`, one connection', trivial));
  console.log(summary('exec `cat readme`', reads));
  console.log('targets: exec p50 ≤ 3 ms, login ≤ 15 ms');
} finally {
  range.kill('SIGTERM');
}
