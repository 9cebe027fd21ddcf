// bench/terminal-relay: keystroke-to-echo time through the proxy's terminal relay over loopback, as
// the worker drives it: a WebSocket frame {type:"input"} → the proxy → SSH with a PTY → the practice
// range's shell echoes → {type:"output"} back. The range and the proxy run as their own processes.
// Prints p50/p99 of KEYS keystrokes (after a warm-up); asserts nothing.
// Usage: node bench/terminal-relay.ts [--keys N]
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../test/support/free-port.ts';
import { RelayClient } from '../test/support/relay-client.ts';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '200' } } });
const KEYS = Number(values.keys);
const WARM_UP = 20;
const SECRET = 'bench-secret-0123456789';

function start(script: string, args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) =>
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('listening') && resolve(child)),
  );
}

const rangePort = await freePort();
const proxyPort = await freePort();
const range = await start('../practice/main.ts', ['--port', String(rangePort), '--seed', 'bench', '--quiet'], {});
const proxy = await start('../ssh-proxy/main.ts', [], {
  PROXY_PORT: String(proxyPort),
  PROXY_SECRET: SECRET,
  PRACTICE_PORT: String(rangePort),
});

const relay = new RelayClient(`http://127.0.0.1:${proxyPort}`, SECRET);
await relay.openPracticeLevel0('run_benchterminal000000000');

/** Types one key and waits for the output frame that echoes it; the time in ms. */
async function keystroke(key: string): Promise<number> {
  const before = relay.output.length;
  const started = performance.now();
  relay.type(key);
  await relay.until(`the echo of ${key}`, (c) => c.output.slice(before).includes(key), 5_000);
  return performance.now() - started;
}

const keys = 'abcdefghijklmnopqrstuvwxyz';
const times: number[] = [];
for (let i = 0; i < WARM_UP + KEYS; i++) {
  // Ctrl-U clears the line now and then, so the prompt line never grows past the terminal's width.
  if (i % 100 === 99) relay.type('\x15');
  const ms = await keystroke(keys[i % keys.length]!);
  if (i >= WARM_UP) times.push(ms);
}
// A flood: seq's output (about 0.7 MB through the PTY) from the Enter key to the next prompt.
relay.type('\x15');
const floodFrom = relay.output.length;
const floodStarted = performance.now();
relay.type('seq 1 100000\r');
await relay.until('the prompt after seq', (c) => /\r\n100000\r\n[\s\S]*\$ $/.test(c.output.slice(floodFrom)), 60_000);
const floodMs = performance.now() - floodStarted;
const floodBytes = Buffer.byteLength(relay.output.slice(floodFrom));
relay.send({ type: 'close' });
await relay.closed;
range.kill();
proxy.kill();

const sorted = [...times].sort((a, b) => a - b);
const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(
  `terminal relay keystroke → echo over loopback (WebSocket → proxy → SSH PTY → practice range), ${KEYS} keys:`,
);
console.log(
  `  p50 ${at(50).toFixed(2)} ms · p99 ${at(99).toFixed(2)} ms · mean ${mean.toFixed(2)} ms · max ${sorted.at(-1)!.toFixed(2)} ms`,
);
console.log(
  `  output flood (seq 1 100000): ${(floodBytes / 1e6).toFixed(2)} MB in ${floodMs.toFixed(0)} ms, ${(floodBytes / 1e3 / floodMs).toFixed(1)} MB/s`,
);
