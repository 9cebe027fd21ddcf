// What 200 requests naming run ids that do not exist leave on disk: files and bytes under the Durable
// Objects' persist folder of a real stack (npm start's wrangler dev), before and after.
// `node bench/unknown-runs.ts`.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WS_SUBPROTOCOL } from '../schema/protocol.ts';
import { startStackProcess } from '../test/support/stack-process.ts';

const COUNT = 200;
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-unknown-'));
const usage = () => {
  let files = 0;
  let bytes = 0;
  const root = join(stateDir, 'wrangler/v3/do');
  try {
    for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      const stat = statSync(join(root, name));
      if (stat.isFile()) {
        files++;
        bytes += stat.size;
      }
    }
  } catch {
    // no folder yet: nothing stored
  }
  return { files, bytes };
};

/** The answer's status, or "opened"/"refused" for a WebSocket. */
async function get(url: string): Promise<number | string> {
  const response = await fetch(url);
  await response.body?.cancel();
  return response.status;
}
function upgrade(url: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, [WS_SUBPROTOCOL]);
    ws.onopen = () => {
      ws.close();
      resolve('ws opened');
    };
    ws.onerror = () => resolve('ws refused');
  });
}

const stack = await startStackProcess(stateDir);
try {
  const id = (i: number) =>
    `run_${(Date.now() + i).toString(36)}${'0123456789abcdef'.slice(i % 16)}${'x'.repeat(16)}`.slice(0, 30);
  await new Promise((r) => setTimeout(r, 1_000));
  // One lookup first: the queue object, which keeps the registry, is made on its first use.
  await get(`${stack.url}/api/runs/${id(COUNT)}`);
  const before = usage();
  const statuses = new Map<number | string, number>();
  for (let i = 0; i < COUNT; i++) {
    const path = [`/api/runs/${id(i)}`, `/api/runs/${id(i)}/events?since=0`, `/api/runs/${id(i)}/ws`][i % 3]!;
    const status =
      i % 3 === 2 ? await upgrade(`${stack.url.replace('http', 'ws')}${path}`) : await get(`${stack.url}${path}`);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  await new Promise((r) => setTimeout(r, 2_000));
  const after = usage();
  console.log(
    `${COUNT} requests to unknown run ids (GET run, GET events, WebSocket upgrade), answers ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  console.log(
    `Durable Object storage: ${before.files} files, ${before.bytes} bytes before; ${after.files} files, ${after.bytes} bytes after (+${after.files - before.files} files, +${after.bytes - before.bytes} bytes)`,
  );
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
